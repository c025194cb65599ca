import type { RoleTokens, RunStep } from '../store/index.js';
import type { TranscriptEvent } from '../transcript/schema.js';
import type { RunVerdict } from './runVerdict.js';
import type { Usage } from '../vocabulary/usage.js';

/**
 * The tokens each role of a run used, every attempt included (repeated spend is spend). A
 * role that made no model call used none; one whose calls did not all report usage is
 * unknown (null), never counted as 0.
 */
export function runTokens(events: readonly TranscriptEvent[], steps: readonly RunStep[], verdict: RunVerdict | null): RoleTokens {
  const finished = (role: RunStep['role']) => steps.filter((s) => s.role === role && s.state === 'finished');
  const examinerCalls = finished('examiner');
  const examinerUsage = events.filter((e) => e.role === 'examiner' && e.usage).map((e) => e.usage!);
  const candidateTurns = finished('candidate');
  const candidateUsage = candidateTurns.map((s) => s.usage);
  return {
    examiner: examinerCalls.length === 0 ? ZERO : examinerUsage.length >= examinerCalls.length ? sum(examinerUsage) : null,
    candidate: candidateTurns.length === 0 ? ZERO : candidateUsage.every((u): u is Usage => u !== null) ? sum(candidateUsage) : null,
    judge: verdict ? verdict.usage : ZERO,
  };
}

const ZERO: Usage = { input_tokens: 0, output_tokens: 0 };

function sum(usages: readonly Usage[]): Usage {
  const total: Usage = { input_tokens: 0, output_tokens: 0 };
  for (const usage of usages) {
    total.input_tokens += usage.input_tokens;
    total.output_tokens += usage.output_tokens;
    for (const key of ['cache_read_tokens', 'cache_write_tokens', 'reasoning_tokens'] as const) {
      if (usage[key] !== undefined) total[key] = (total[key] ?? 0) + usage[key];
    }
  }
  return total;
}
