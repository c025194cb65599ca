import type { WorkflowFolder } from '../vocabulary/workflowUsage.js';

/**
 * What an agent does with a team's workflow, as data per adapter: where it discovers each
 * folder by itself, which file holds what it cannot discover, and how its stream shows an
 * item being used. Detection and placement read this; neither branches on the adapter.
 */
export interface WorkflowSupport {
  /** Sandbox-relative path per folder the agent discovers there (`skills` → `.claude/skills`). */
  native: Partial<Record<WorkflowFolder, string>>;
  /** The generated file the other folders are inlined into (`AGENTS.md`, `GEMINI.md`). */
  contextFile: string;
  /**
   * `linked`: the whole snapshot sits at one path the agent is told of, with no discovery of
   * its own (the `command` adapter); `contextFile` is then unused.
   */
  linkedAt?: string;
  /** The agent has a skill tool (Claude Code's `Skill`, Gemini's `activate_skill`) whose calls are in its stream. */
  skillTool: boolean;
  /** Without a skill tool the agent uses a skill by reading its SKILL.md (Codex): that read is the invocation. */
  skillReadInvokes: boolean;
  /** `task`: a Task-like tool names the subagent; `named`: each subagent is a tool of its own name (Gemini). */
  subagents: 'task' | 'named' | null;
  /** A user message `/name …` runs the command (or skill) of that name. */
  slashCommands: boolean;
  /** Rules are put in context without any event (Claude Code's `.claude/rules`): their use is unknown. */
  silentRules: boolean;
  /** Every tool call shows in the stream: an item with no event was not used. False for unknown programs. */
  observable: boolean;
}
