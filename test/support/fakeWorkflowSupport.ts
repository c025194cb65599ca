import type { WorkflowSupport } from '../../src/workflowUsage/index.js';

/** Fake candidates find the whole snapshot linked at `.fake-agent` and report every tool call. */
export const FAKE_WORKFLOW_SUPPORT: WorkflowSupport = {
  native: {},
  contextFile: 'AGENTS.md',
  linkedAt: '.fake-agent',
  skillTool: true,
  skillReadInvokes: false,
  subagents: 'task',
  slashCommands: false,
  silentRules: false,
  observable: true,
};
