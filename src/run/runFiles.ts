import { randomBytes } from 'node:crypto';
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml, stringify } from 'yaml';
import * as z from 'zod';
import { WorkflowPlacementSchema } from '../vocabulary/workflowUsage.js';
import { FormatError, InternalError } from '../errors.js';
import { CheckResultSchema } from '../evalset/checkResult.js';
import { RestoredPathSchema } from '../vocabulary/restoredPath.js';
import { parseOrThrow } from '../format.js';
import { isolationOf } from '../containment/isolationOf.js';
import { RunFactsSchema } from '../vocabulary/runFacts.js';
import { judgingOf } from './judging.js';
import type { RunSpec } from './runSpec.js';
import { createFileMemo } from './fileMemo.js';
import { IsolationSchema } from '../vocabulary/isolation.js';

/** `config.yaml` of a run: its supply side (who ran it, with which models, on what). */
export const RunConfigFileSchema = z.object({
  run_id: z.string(),
  batch_id: z.string(),
  attempt_index: z.number().int().positive().nullable(),
  case: z.object({ id: z.string(), version: z.string(), hash: z.string(), dir: z.string() }),
  candidate: z.object({
    name: z.string(),
    adapter: z.string(),
    model: z.string().nullable(),
    args: z.array(z.string()),
    /** Names only: values can hold secrets. */
    env_names: z.array(z.string()),
    base_url: z.string().nullable(),
    api_key_env: z.string().nullable(),
    /** Absent in runs of earlier versions, which ran uncontained. */
    isolation: IsolationSchema.optional(),
  }),
  examiner: z.object({ model: z.string(), base_url: z.string().nullable(), adapter: z.string().nullable() }),
  judge: z.object({ model: z.string(), base_url: z.string().nullable(), adapter: z.string().nullable() }),
  judging: z
    .object({ samples: z.number().int().positive(), review: z.enum(['wait', 'later']), allow_self_judge: z.boolean() })
    .optional()
    .describe('How the run is judged; absent in runs of earlier versions (one sample, review later).'),
  project: z.string(),
  workflow_dir: z.string(),
  max_turns: z.number().int(),
  turn_timeout_s: z.number().int(),
  created_at: z.string(),
});
export type RunConfigFile = z.infer<typeof RunConfigFileSchema>;

/** `env_checklist.yaml`: what the run's environment was, for reproducing it. */
export const EnvChecklistSchema = z.object({
  workflow_rev: z.string(),
  project_rev: z.string(),
  project_repo: z.string(),
  /** The project's git URL when it was given as one: `project_repo` is then the host's mirror of it, `project_rev` the commit the batch pinned. */
  project_url: z.string().optional(),
  /** The workflow's git URL when it was given as one: `workflow_rev` is then the commit the batch pinned. */
  workflow_url: z.string().optional(),
  candidate_cli_version: z.string().nullable(),
  host: z.object({ id: z.string(), hostname: z.string(), platform: z.string(), node: z.string(), evalflow: z.string() }),
  setup_commands: z.array(z.object({ command: z.string(), exit_code: z.number().int().nullable(), output: z.string() })).default([]),
  preconditions: z.array(CheckResultSchema).default([]),
  postconditions: z.array(CheckResultSchema).default([]),
  /**
   * Protected paths put back from project_rev before the postconditions: empty when none
   * needed it, absent when the case protects nothing (and in checklists of earlier versions).
   */
  protected_restored: z.array(RestoredPathSchema).optional(),
  /** Where each workflow folder was placed in the sandbox; null without a workflow (`workflow=none`). */
  workflow_placement: WorkflowPlacementSchema.nullable().default(null),
  /** How the candidate was contained; absent in runs of earlier versions, which ran uncontained. */
  isolation: IsolationSchema.optional(),
});
export type EnvChecklist = z.infer<typeof EnvChecklistSchema>;

/** `runs.judge_input` in the store: what judging the run again needs beyond its spec and transcript. */
export const JudgeInputRecordSchema = z.object({
  facts: RunFactsSchema,
  postconditions: z.array(CheckResultSchema),
  /** The host whose queue owns the run directory (score.yaml and review.md are rewritten there). */
  host_id: z.string(),
});
export type JudgeInputRecord = z.infer<typeof JudgeInputRecordSchema>;

/** config.yaml of a run, from its spec: names of secrets, never their values. */
export function runConfig(spec: RunSpec): RunConfigFile {
  return {
    run_id: spec.runId,
    batch_id: spec.batchId,
    attempt_index: spec.k ?? null,
    case: { id: spec.evalCase.id, version: spec.evalCase.version, hash: spec.evalCase.hash, dir: spec.evalCase.dir },
    candidate: {
      name: spec.candidate.name,
      adapter: spec.candidate.adapter,
      model: spec.candidate.model ?? null,
      args: spec.candidate.args,
      env_names: Object.keys(spec.candidate.env).sort(),
      base_url: spec.candidate.baseUrl ?? null,
      api_key_env: spec.candidate.apiKeyEnv ?? null,
      isolation: isolationOf(spec.candidate),
    },
    examiner: { model: spec.examiner.model, base_url: spec.examiner.baseUrl ?? null, adapter: spec.examiner.adapter ?? null },
    judge: { model: spec.judge.model, base_url: spec.judge.baseUrl ?? null, adapter: spec.judge.adapter ?? null },
    judging: { samples: judgingOf(spec).samples, review: judgingOf(spec).review, allow_self_judge: judgingOf(spec).allowSelfJudge },
    project: spec.project,
    workflow_dir: spec.workflowDir,
    max_turns: spec.evalCase.maxTurns,
    turn_timeout_s: spec.turnTimeoutS,
    created_at: spec.createdAt,
  };
}

/** Writes aside and renames, so readers never see half a file; the temp name is unique per writer. */
export async function writeYamlFile(path: string, value: unknown, beforeRename?: (written: string) => Promise<void>): Promise<void> {
  const tmp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, stringify(value, { lineWidth: 0 }));
  await beforeRename?.(tmp);
  await rename(tmp, path);
}

/** env_checklist.yaml files as this process last read or wrote them (see fileMemo.ts). */
const checklists = createFileMemo<EnvChecklist>();

export async function readEnvChecklist(runDir: string): Promise<EnvChecklist | null> {
  const path = join(runDir, 'env_checklist.yaml');
  const known = checklists.recall(path);
  if (known) return known;
  if (!existsSync(path)) return null;
  let raw: unknown;
  try {
    raw = parseYaml(await readFile(path, 'utf8'));
  } catch (err) {
    throw new FormatError(`${path}: not valid YAML: ${err instanceof Error ? err.message : String(err)}`);
  }
  const checklist = parseOrThrow(EnvChecklistSchema, raw, path);
  checklists.remember(path, checklist);
  return checklist;
}

/** Merges `patch` into env_checklist.yaml (each stage adds what it learned). */
export async function updateEnvChecklist(runDir: string, patch: Partial<EnvChecklist>, base?: EnvChecklist): Promise<EnvChecklist> {
  const current = base ?? (await readEnvChecklist(runDir));
  // prepare writes the checklist first, so a missing one means the stages ran out of order.
  if (!current) throw new InternalError(`env_checklist.yaml missing in ${runDir}`);
  const path = join(runDir, 'env_checklist.yaml');
  const next = parseOrThrow(EnvChecklistSchema, { ...current, ...patch }, path);
  // Remembered as the file written aside is (a rename keeps its inode and times), so a writer that renames over it after us is never taken for ours.
  await writeYamlFile(path, next, (written) => stat(written, { bigint: true }).then((stats) => checklists.remember(path, next, stats)));
  return next;
}
