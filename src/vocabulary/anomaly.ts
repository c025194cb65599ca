import * as z from 'zod';
import { RestoredPathSchema, type RestoredPath } from './restoredPath.js';

const TokensSchema = z.object({ input_tokens: z.number().int().nonnegative(), output_tokens: z.number().int().nonnegative() });

/** Which part of a run spent (or would have spent) model tokens. */
export const SpendRoleSchema = z.enum(['examiner', 'candidate', 'judge']);
export type SpendRole = z.infer<typeof SpendRoleSchema>;

/**
 * Something about a run that a reader of its verdict must know: how the infrastructure
 * behaved, what was repeated, what was cut. Collected by the run workflow from its stages and
 * recorded once, in review.md and the store. Plain JSON, so it crosses Temporal.
 */
export const RunAnomalySchema = z.discriminatedUnion('kind', [
  /** A stage ran out of time, e.g. `candidate turn 3 timed out after 600 s`. */
  z.object({ kind: z.literal('timeout'), detail: z.string() }),
  /** Activity attempts that failed for infrastructure reasons and were retried. */
  z.object({ kind: z.literal('infra_retries'), count: z.number().int().positive(), detail: z.string().optional() }),
  /**
   * A step that had started spending (the agent or the model had been called) ran again after
   * a crash: its earlier attempts' tokens were spent for nothing. Tokens are those the store
   * saw from the lost attempts; null when they never reported any.
   */
  z.object({
    kind: z.literal('repeated_spend'),
    role: SpendRoleSchema,
    turn: z.number().int().nonnegative(),
    lostAttempts: z.number().int().positive(),
    tokens: TokensSchema.nullable(),
  }),
  /** The model endpoint failed (429/5xx/unreachable) and was waited out with retries. */
  z.object({
    kind: z.literal('model_outage'),
    role: SpendRoleSchema,
    turn: z.number().int().nonnegative(),
    retries: z.number().int().positive(),
    waitedS: z.number().nonnegative(),
    lastError: z.string(),
  }),
  /** Processes an interrupted attempt left running, killed before the step ran again. */
  z.object({ kind: z.literal('leftover_processes'), step: z.string(), killed: z.number().int().positive() }),
  /** The host holding the run's sandbox had no worker for too long; the run started again elsewhere. */
  z.object({ kind: z.literal('host_lost'), host: z.string(), stage: z.string(), restartedOn: z.string().nullable() }),
  /** Cleanup (post_run_cleanup, processes, sandbox) did not go as it should. */
  z.object({ kind: z.literal('cleanup'), detail: z.string() }),
  /** What the candidate's output needed to be read (a cut output, an oversized line), per turn. */
  z.object({ kind: z.literal('candidate_output'), turn: z.number().int().positive(), detail: z.string() }),
  /**
   * Skills, commands or subagents were inlined into one context file (the agent has no place of
   * its own for them): they are always in context, so whether they were triggered cannot be measured.
   */
  z.object({ kind: z.literal('workflow_inlined'), folders: z.array(z.string()).min(1), file: z.string() }),
  /**
   * Protected paths (env.yaml `protected`) the candidate had changed, deleted or added to,
   * put back from the case revision before the postconditions ran.
   */
  z.object({ kind: z.literal('protected_changed'), paths: z.array(RestoredPathSchema).min(1) }),
  z.object({ kind: z.literal('other'), detail: z.string() }),
]);
export type RunAnomaly = z.infer<typeof RunAnomalySchema>;

/** One line for review.md, `evalflow show` and logs. */
export function describeAnomaly(anomaly: RunAnomaly): string {
  switch (anomaly.kind) {
    case 'timeout':
      return `Timeout: ${anomaly.detail}`;
    case 'infra_retries': {
      const attempts = anomaly.count === 1 ? 'retried activity attempt' : 'retried activity attempts';
      return `Infra retries: ${anomaly.count} ${attempts}${anomaly.detail ? ` (${anomaly.detail})` : ''}`;
    }
    case 'repeated_spend': {
      const step = anomaly.role === 'judge' ? 'judge call' : `${anomaly.role} turn ${anomaly.turn}`;
      const tokens = anomaly.tokens ? `${anomaly.tokens.input_tokens} in / ${anomaly.tokens.output_tokens} out` : 'tokens unknown';
      return `Repeated spend: ${step} ran again after ${anomaly.lostAttempts} interrupted attempt${anomaly.lostAttempts === 1 ? '' : 's'} (${tokens} lost)`;
    }
    case 'model_outage': {
      const step = anomaly.role === 'judge' ? 'judge' : `${anomaly.role} turn ${anomaly.turn}`;
      return `Model outage: ${step} waited ${formatSeconds(anomaly.waitedS)} over ${anomaly.retries} retr${anomaly.retries === 1 ? 'y' : 'ies'} (last error: ${anomaly.lastError})`;
    }
    case 'leftover_processes':
      return `Leftover processes: ${anomaly.killed} process${anomaly.killed === 1 ? '' : 'es'} of an interrupted attempt at ${anomaly.step} killed before it ran again`;
    case 'host_lost':
      return `Host lost: ${anomaly.host} had no worker during ${anomaly.stage}; ${anomaly.restartedOn ? `the run started again on ${anomaly.restartedOn}` : 'the run was given up'}`;
    case 'cleanup':
      return `Cleanup: ${anomaly.detail}`;
    case 'candidate_output':
      return `Candidate output, turn ${anomaly.turn}: ${anomaly.detail}`;
    case 'workflow_inlined':
      return `Workflow inlined: ${anomaly.folders.map((folder) => `${folder}/`).join(', ')} inlined into ${anomaly.file}; trigger measurement is not meaningful for them`;
    case 'protected_changed':
      return `Protected paths restored before the postconditions: ${listRestored(anomaly.paths)}`;
    case 'other':
      return anomaly.detail;
  }
}

function formatSeconds(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 90 ? `${minutes} min ${Math.round(seconds % 60)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A long list (a folder of generated files) is cut: the full list is in env_checklist.yaml. */
const LISTED_PATHS = 10;

function listRestored(paths: readonly RestoredPath[]): string {
  const listed = paths.slice(0, LISTED_PATHS).map(({ path, change }) => `${path} (${change})`);
  const more = paths.length - listed.length;
  return `${listed.join(', ')}${more > 0 ? ` and ${more} more (see env_checklist.yaml)` : ''}`;
}
