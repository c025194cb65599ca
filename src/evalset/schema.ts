import * as z from 'zod';
import { WorkflowExpectationSchema } from '../vocabulary/workflowUsage.js';

/**
 * The eval case format: one folder `eval_sets/<id>/` holding `meta.yaml`, `task.md`,
 * `rubric.md` and `env.yaml`, each UTF-8 text. The YAML files are described here directly;
 * the two markdown files are parsed into the `Task` and `Rubric` shapes below.
 */

/** Letters, digits, `.`, `_`, `-`, starting with a letter or digit; also the folder name. */
export const CASE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const CASE_ID_EXPECTED = 'letters, digits, ".", "_" or "-", starting with a letter or digit';

/** The four files of a case folder, in the order they are hashed and reported. */
export const CASE_FILES = ['meta.yaml', 'task.md', 'rubric.md', 'env.yaml'] as const;
export type CaseFile = (typeof CASE_FILES)[number];

/**
 * Largest size of each case file in bytes (KB = 1024 bytes), checked before the file is read.
 * task.md and rubric.md go into every examiner and judge prompt, and the YAML files hold a few
 * keys, so anything bigger is a pasted log or a wrong file rather than a case.
 */
export const MAX_CASE_FILE_BYTES = {
  'meta.yaml': 64 * 1024,
  'task.md': 256 * 1024,
  'rubric.md': 256 * 1024,
  'env.yaml': 64 * 1024,
} as const satisfies Record<CaseFile, number>;

/**
 * Keys that name the supply side. Cases say *what* is tested, never who runs it, so these are
 * rejected with their own explanation instead of a generic "unknown key".
 */
export const SUPPLY_SIDE_FIELDS = [
  'model',
  'models',
  'judge_model',
  'examiner_model',
  'candidate',
  'candidates',
  'agent',
  'agents',
  'ide',
  'workflow_version',
  'workflow_rev',
  'provider',
  'base_url',
  'api_key',
] as const;

export const MAX_HARD_REQUIREMENTS = 5;

const MAX_TURNS_EXPECTED = 'expected a whole number of turns from 1 to 50';

const nonEmpty = (what: string) => z.string().min(1, { error: `expected ${what}, found an empty string` });

export const MetaSchema = z.strictObject({
  id: z
    .string()
    .regex(CASE_ID_PATTERN, { error: (issue) => `expected ${CASE_ID_EXPECTED}, found ${JSON.stringify(issue.input)}` })
    .describe('Equals the folder name; used in run ids.'),
  version: z
    .string()
    .regex(/^v[0-9]+$/, { error: (issue) => `expected v1, v2, ..., found ${JSON.stringify(issue.input)}` })
    .describe('Bumped by hand only when a change to the case can change verdicts.'),
  target_workflow: nonEmpty('the name of the workflow under test').describe('Which agent workflow this case exercises.'),
  category: nonEmpty('a category such as "feature" or "bugfix"'),
  purpose: nonEmpty('one sentence on what the case tests'),
  max_turns: z
    .number()
    .int()
    .min(1, { error: MAX_TURNS_EXPECTED })
    .max(50, { error: MAX_TURNS_EXPECTED })
    .describe('Upper bound on dialogue turns (examiner + candidate).'),
  tags: z.array(nonEmpty('a tag')).default([]),
  expect_workflow: WorkflowExpectationSchema.optional().describe('Workflow items the case expects used (must_use) or left alone (must_not_use).'),
});
export type Meta = z.infer<typeof MetaSchema>;

/** A shell check run in the sandbox before (pre) or after (post) the dialogue. */
export const ConditionSchema = z.strictObject({
  description: nonEmpty('what the check verifies'),
  check: nonEmpty('a shell command that exits 0 when the condition holds'),
  severity: z
    .enum(['hard', 'soft'])
    .describe('hard: a failing precondition aborts the run, a failing postcondition forces fail.'),
});
export type Condition = z.infer<typeof ConditionSchema>;

const PROTECTED_EXPECTED = 'expected a path relative to the repository root, such as test/slug.test.js or test/fixtures/';

/**
 * Why `path` cannot name a protected path, or undefined. Separators are `/` as in git; one
 * trailing `/` may mark a folder. `.git` is refused at any depth: it is the candidate's own
 * repository state, never content a verdict rests on.
 */
function protectedPathProblem(path: string): string | undefined {
  if (path.startsWith('/')) return 'an absolute path';
  const segments = (path.endsWith('/') ? path.slice(0, -1) : path).split('/');
  if (segments.some((segment) => segment === '..')) return 'a ".." segment';
  if (segments.some((segment) => segment === '' || segment === '.')) return 'an empty or "." segment';
  if (segments.some((segment) => segment.toLowerCase() === '.git')) return 'a path inside .git';
  return undefined;
}

/** A repository-relative file or folder restored from the case's revision before the postconditions. */
export const ProtectedPathSchema = nonEmpty('a path relative to the repository root').check((ctx) => {
  // An empty string is already reported by nonEmpty, in its words.
  const problem = ctx.value === '' ? undefined : protectedPathProblem(ctx.value);
  if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, message: `${PROTECTED_EXPECTED}, found ${JSON.stringify(ctx.value)} (${problem})` });
});

export const EnvSchema = z.strictObject({
  setup_commands: z.array(nonEmpty('a shell command')).default([]).describe('Run in the sandbox first, in order.'),
  setup_network: z
    .boolean({ error: 'expected true or false' })
    .optional()
    .describe("Give the setup commands the host's network (installing dependencies); the candidate never has it."),
  preconditions: z.array(ConditionSchema).default([]),
  post_run_cleanup: z.array(nonEmpty('a shell command')).default([]),
  postconditions: z.array(ConditionSchema).default([]).describe('Run after the dialogue; results go to the judge.'),
  // Optional rather than defaulted, so cases without it give the same run spec as before.
  protected: z
    .array(ProtectedPathSchema)
    .optional()
    .describe('Restored from the case revision before the postconditions, so the candidate cannot change what judges it.'),
});
export type Env = z.infer<typeof EnvSchema>;

/** What the examiner works from; parsed from task.md. */
export const TaskSchema = z.object({
  /** Turn 1, forwarded verbatim: the blockquote without its `> ` prefixes. */
  prompt: z.string().min(1),
  scenario: z.string().min(1),
  guidance: z.string().min(1),
});
export type Task = z.infer<typeof TaskSchema>;

/** What the judge scores against; parsed from rubric.md, one string per list item. */
export const RubricSchema = z.object({
  hard: z.array(z.string().min(1)).min(1).max(MAX_HARD_REQUIREMENTS),
  quality: z.array(z.string().min(1)),
  commonFailures: z.array(z.string().min(1)),
});
export type Rubric = z.infer<typeof RubricSchema>;

/** A fully validated eval case, plain JSON so it can cross activity boundaries. */
export const EvalCaseSchema = z.object({
  id: z.string().regex(CASE_ID_PATTERN),
  /** Absolute path of the case folder. */
  dir: z.string(),
  /** sha256 of the four files (see `hashCaseFiles`), so a run records the exact case text it ran. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  meta: MetaSchema,
  task: TaskSchema,
  rubric: RubricSchema,
  env: EnvSchema,
});
export type EvalCase = z.infer<typeof EvalCaseSchema>;
