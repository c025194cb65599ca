import type { WorkflowSupport } from '../workflowUsage/workflowSupport.js';
import { agentsSkillsWorkflow } from './workflowConventions.js';

/**
 * The builtin agent finds skills in `.agents/skills` (their names and descriptions are in its
 * system prompt; it reads a SKILL.md with read_file when it uses the skill) and the rest of
 * the workflow in one generated AGENTS.md, inlined into its system prompt.
 */
export const builtinWorkflow: WorkflowSupport = agentsSkillsWorkflow;
