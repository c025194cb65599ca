import * as z from 'zod';

/** The four folders of a team's workflow, as the snapshot holds them. */
export const WorkflowFolderSchema = z.enum(['agents', 'commands', 'rules', 'skills']);
export type WorkflowFolder = z.infer<typeof WorkflowFolderSchema>;

/** What one item of a workflow is: a subagent, a slash command, a rule or a skill. */
export const WorkflowItemKindSchema = z.enum(['agent', 'command', 'rule', 'skill']);
export type WorkflowItemKind = z.infer<typeof WorkflowItemKindSchema>;

/** The item a reference such as `skills/node-test` or `agents/reviewer` names: `<folder>/<name>`. */
export const WorkflowItemRefSchema = z
  .string()
  .regex(/^(agents|commands|rules|skills)\/[^/\s][^\s]*$/, 'expected <folder>/<name>, the folder one of agents, commands, rules, skills (e.g. skills/node-test)');

/**
 * `unknown` is what the stream cannot tell (a rule loaded silently, a workflow inlined into a
 * context file), never a polite `no`.
 */
export const UsageFlagSchema = z.enum(['yes', 'no', 'unknown']);
export type UsageFlag = z.infer<typeof UsageFlagSchema>;

/** One row of a run's workflow usage: score.yaml `workflow_usage`, the store's `workflow_usage` table. */
export const WorkflowUsageRowSchema = z.object({
  /** `skills/node-test`: the folder and the item's name. */
  item: WorkflowItemRefSchema,
  kind: WorkflowItemKindSchema,
  name: z.string(),
  /** Its file was read, or the CLI reported it in context. */
  loaded: UsageFlagSchema,
  /** The Skill tool, a slash command or a subagent call named it (or the CLI's equivalent). */
  invoked: UsageFlagSchema,
  /** The first turn with evidence of use; null when none was seen. */
  first_turn: z.number().int().nonnegative().nullable(),
  /** The event that shows it (`[Turn 1] skill: node-test`), or why the answer is unknown. */
  evidence: z.string().nullable(),
});
export type WorkflowUsageRow = z.infer<typeof WorkflowUsageRowSchema>;

/**
 * How one workflow folder was placed in the sandbox: `native` where the agent discovers that
 * kind by itself, `inlined` into one generated context file, `linked` at a path the agent is
 * told of (the `command` adapter).
 */
export const FolderPlacementSchema = z.object({
  folder: WorkflowFolderSchema,
  mode: z.enum(['native', 'inlined', 'linked']),
  /** Sandbox-relative: the folder's link, or the generated file it was inlined into. */
  path: z.string(),
});
export type FolderPlacement = z.infer<typeof FolderPlacementSchema>;

/** Per run: where each folder of its workflow snapshot went (env_checklist.yaml, the store). */
export const WorkflowPlacementSchema = z.object({
  adapter: z.string(),
  folders: z.array(FolderPlacementSchema),
});
export type WorkflowPlacement = z.infer<typeof WorkflowPlacementSchema>;

/**
 * `expect_workflow` in meta.yaml: what the case tests of the workflow. Items that must be used
 * (a skill that must fire) and items that must not (the near miss); each fails or holds as a
 * hard requirement of the run.
 */
export const WorkflowExpectationSchema = z
  .strictObject({
    must_use: z.array(WorkflowItemRefSchema).default([]).describe('Items the candidate must use: a skill, command or subagent invoked, a rule loaded.'),
    must_not_use: z.array(WorkflowItemRefSchema).default([]).describe('Items the candidate must leave alone (a skill that must not fire here).'),
  })
  .superRefine((expectation, ctx) => {
    for (const [index, ref] of expectation.must_not_use.entries()) {
      if (expectation.must_use.includes(ref)) ctx.addIssue({ code: 'custom', path: ['must_not_use', index], message: `${ref} is also in must_use; an item cannot be both` });
    }
  });
export type WorkflowExpectation = z.infer<typeof WorkflowExpectationSchema>;
