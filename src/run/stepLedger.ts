import type { RunStepRole, Store } from '../store/index.js';
import { generationOf } from '../transcript/attempts.js';
import type { RunAnomaly, SpendRole } from '../vocabulary/anomaly.js';
import type { Usage } from '../vocabulary/usage.js';

/** One attempt at one step of a run: `attempt` is the transcript attempt (generation included). */
export interface StepKey {
  runId: string;
  role: RunStepRole;
  turn: number;
  attempt: number;
}

export interface PriorAttempts {
  /** The output of the latest earlier attempt of this generation, when it finished: the step is done, return it. */
  finished: Record<string, unknown> | null;
  /** Earlier attempts of this generation that had started spending and never finished. */
  lost: number[];
  /** When those earlier attempts started (any state), oldest first. */
  startedAt: string[];
}

/**
 * The bookkeeping that keeps a step from being done twice and spend from being repeated
 * silently. Before the work: `prior` says whether an earlier attempt finished (reuse its
 * output) or was lost mid-way. Just before the agent or the model is called: `markSpending`.
 * After: `finish` with the output. A retry that finds lost attempts reports them with
 * `repeatedSpend`, as a run anomaly with the tokens the store saw them use.
 */
export function createStepLedger(store: Store, now: () => Date) {
  const dbKey = (key: StepKey) => ({ run_id: key.runId, role: key.role, turn: key.turn, attempt: key.attempt });
  return {
    async prior(key: StepKey): Promise<PriorAttempts> {
      const generation = generationOf(key.attempt);
      const earlier = (await store.getSteps(key.runId, { role: key.role, turn: key.turn })).filter(
        (s) => generationOf(s.attempt) === generation && s.attempt < key.attempt,
      );
      // Only the latest attempt counts as done: an older one that finished after a newer one
      // started was overtaken (its worker had been given up for dead).
      const latest = earlier.at(-1);
      return {
        finished: latest?.state === 'finished' ? (latest.output ?? {}) : null,
        lost: earlier.filter((s) => s.state === 'spending').map((s) => s.attempt),
        startedAt: earlier.map((s) => s.started_at),
      };
    },

    async markSpending(key: StepKey): Promise<void> {
      await store.markStepSpending(dbKey(key), now().toISOString());
    },

    async finish(key: StepKey, usage: Usage | null, output: Record<string, unknown>): Promise<void> {
      await store.finishStep(dbKey(key), { usage, output, finishedAt: now().toISOString() });
    },

    /** The anomaly for attempts lost after they started spending; null when none were. */
    async repeatedSpend(key: StepKey & { role: SpendRole }, lost: number[]): Promise<RunAnomaly | null> {
      if (lost.length === 0) return null;
      const events = await store.getTranscript(key.runId, { attempts: 'all' });
      const used = events.filter((event) => event.turn === key.turn && lost.includes(event.attempt) && event.usage).map((event) => event.usage!);
      const tokens =
        used.length === 0
          ? null
          : { input_tokens: used.reduce((sum, u) => sum + u.input_tokens, 0), output_tokens: used.reduce((sum, u) => sum + u.output_tokens, 0) };
      return { kind: 'repeated_spend', role: key.role, turn: key.turn, lostAttempts: lost.length, tokens };
    },
  };
}

export type StepLedger = ReturnType<typeof createStepLedger>;
