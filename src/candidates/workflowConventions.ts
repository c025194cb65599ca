import type { WorkflowSupport } from '../workflowUsage/workflowSupport.js';

/**
 * A CLI with a skill tool, a Task-like tool that names the subagent and `/name` commands, whose
 * stream shows every tool call: Claude Code and the CLIs that copy it. Only where it discovers
 * the folders, and which file holds the rest, differ.
 */
export function skillAndTaskWorkflow(native: WorkflowSupport['native'], contextFile: string): WorkflowSupport {
  return {
    native,
    contextFile,
    skillTool: true,
    skillReadInvokes: false,
    subagents: 'task',
    slashCommands: true,
    silentRules: true,
    observable: true,
  };
}

/**
 * The `.agents/skills` convention (Codex's, which the builtin agent follows): skills are found
 * there and used by reading their SKILL.md (no skill tool); everything else goes into AGENTS.md.
 */
export const agentsSkillsWorkflow: WorkflowSupport = {
  native: { skills: '.agents/skills' },
  contextFile: 'AGENTS.md',
  skillTool: false,
  skillReadInvokes: true,
  subagents: null,
  slashCommands: false,
  silentRules: true,
  observable: true,
};
