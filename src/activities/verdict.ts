import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expandVariables } from '../evalset/expandVariables.js';
import type { CheckResult } from '../evalset/checkResult.js';
import {
  judgeRun,
  renderAbortedReview,
  renderJudgeFailedReview,
  renderReview,
  type RunAnomaly,
  type RunFacts as JudgeRunFacts,
  type Score,
} from '../judge/index.js';
import type { RunOutcome, RunSpec, RunStatus } from '../run/runSpec.js';
import { readEnvChecklist, updateEnvChecklist, writeYamlFile } from '../run/runFiles.js';
import { runCheck } from '../sandbox/checks.js';
import { latestAttempts } from '../transcript/latestAttempts.js';
import { createRedactor } from '../transcript/redact.js';
import type { Usage } from '../transcript/schema.js';
import { writeTranscriptFile } from '../transcript/writeTranscriptFile.js';
import type { ActivityDeps } from './deps.js';
import { runPaths, caseVariables } from './runPaths.js';
import { activityAttempt, cancellationSignal, heartbeatWhile } from './temporalContext.js';

/** What the workflow knows about the dialogue, beyond what the judge needs. */
export interface RunFacts extends JudgeRunFacts {
  /** Activity attempts retried for infrastructure reasons (examiner, candidate, judge). */
  infraRetries: number;
  /** The candidate failed its own turn (crash, non-zero exit, timeout). */
  candidateFailure?: string;
}

export interface JudgeOutput {
  score: Score;
  raw: string;
  model: string;
  usage: Usage | null;
  attempt: number;
  /** When the judge answered; fixed here so a retried recordRun does not add a second history entry. */
  judgedAt?: string;
}

/** What `runs.judge_input` holds. */
export interface JudgeInputRecord {
  facts: RunFacts;
  postconditions: CheckResult[];
  /** The host whose queue owns the run directory. */
  host_id: string;
}

export interface RecordInput {
  spec: RunSpec;
  status: RunStatus;
  facts: RunFacts;
  postconditions: CheckResult[];
  verdict: JudgeOutput | null;
  anomalies: RunAnomaly[];
  error: string | null;
}

export function verdictActivities(deps: ActivityDeps) {
  return {
    /** Postconditions, after the dialogue; their results go to the judge as evidence. */
    async verifyRun(spec: RunSpec): Promise<CheckResult[]> {
      const paths = runPaths(spec, deps);
      const vars = caseVariables(spec, paths);
      const redact = createRedactor(deps.env);
      const results: CheckResult[] = [];
      for (const condition of spec.evalCase.env.postconditions) {
        const result = await heartbeatWhile(() =>
          runCheck({ ...condition, check: expandVariables(condition.check, vars) }, { cwd: paths.sandboxDir, env: { ...vars } }),
        );
        results.push({ ...result, output: redact(result.output) });
      }
      await updateEnvChecklist(paths.runDir, { postconditions: results });
      return results;
    },

    /** The judge: the stored transcript (final attempts), the rubric and the postconditions. */
    async judgeRun({ spec, facts, postconditions }: { spec: RunSpec; facts: RunFacts; postconditions: CheckResult[] }): Promise<JudgeOutput> {
      const events = latestAttempts(await deps.store.getTranscript(spec.runId, { attempts: 'all' }));
      const judged = await judgeRun({
        llm: deps.llmFor('judge', spec.judge),
        input: { runId: spec.runId, caseId: spec.evalCase.id, rubric: spec.evalCase.rubric, postconditions, facts, events },
        signal: cancellationSignal(),
      });
      const score = judged.usage ? { ...judged.score, judge_usage: judged.usage } : judged.score;
      return { score, raw: judged.raw, model: judged.model, usage: judged.usage ?? null, attempt: activityAttempt(), judgedAt: deps.now().toISOString() };
    },

    /** score.yaml, review.md, transcript.jsonl and the store rows; the run's final state. */
    async recordRun(input: RecordInput): Promise<RunOutcome> {
      const { spec, status, facts, verdict } = input;
      const paths = runPaths(spec, deps);
      const anomalies = [...input.anomalies];
      if (facts.infraRetries > 0) anomalies.push({ kind: 'infra_retries', count: facts.infraRetries });
      if (facts.candidateFailure) {
        anomalies.push(/timed out/.test(facts.candidateFailure) ? { kind: 'timeout', detail: `candidate ${facts.candidateFailure}` } : { kind: 'other', detail: `candidate failed: ${facts.candidateFailure}` });
      }
      let review: string;
      let result: 'pass' | 'fail' | null = null;
      let overall: number | null = null;
      if (status === 'completed' && verdict) {
        await writeYamlFile(join(paths.runDir, 'score.yaml'), verdict.score);
        result = verdict.score.result;
        overall = verdict.score.overall;
        review = renderReview({ score: verdict.score, facts, anomalies });
        await deps.store.saveScore(spec.runId, {
          result: verdict.score.result,
          compliance: verdict.score.compliance,
          execution_quality: verdict.score.execution_quality,
          overall: verdict.score.overall,
          summary: verdict.score.summary,
          hard_requirements: verdict.score.hard_requirements,
          suggestions: verdict.score.suggestions,
          judge_model: verdict.model,
          judged_at: verdict.judgedAt ?? deps.now().toISOString(),
          raw: verdict.raw,
          salvaged: verdict.score.salvaged,
        });
      } else if (status === 'aborted') {
        const checklist = await readEnvChecklist(paths.runDir).catch(() => null);
        review = renderAbortedReview({ runId: spec.runId, caseId: spec.evalCase.id, reason: input.error ?? 'aborted', preconditions: checklist?.preconditions ?? [], anomalies });
      } else {
        review = renderJudgeFailedReview({
          runId: spec.runId,
          caseId: spec.evalCase.id,
          facts,
          error: `${status}: ${input.error ?? 'unknown error'}`,
          anomalies,
        });
      }
      await writeFile(join(paths.runDir, 'review.md'), review);
      await writeTranscriptFile(paths.transcriptFile, await deps.store.getTranscript(spec.runId, { attempts: 'all' }));
      const anomalyLines = anomalies.map(describeAnomalyLine);
      // Enough to judge the run again later from the store (`evalflow rejudge`).
      const judgeInput: JudgeInputRecord | null =
        status === 'completed' || status === 'judge_failed' ? { facts, postconditions: input.postconditions, host_id: deps.hostId } : null;
      await deps.store.updateRun(spec.runId, {
        ...(judgeInput ? { judge_input: judgeInput as unknown as Record<string, unknown> } : {}),
        status,
        result,
        overall,
        anomalies: anomalyLines,
        error: input.error,
        finished_at: deps.now().toISOString(),
      });
      return { runId: spec.runId, caseId: spec.evalCase.id, status, result, overall, runDir: paths.runDir, anomalies: anomalyLines, ...(input.error ? { error: input.error } : {}) };
    },

    /**
     * For a run whose workflow failed before recordRun (its host died, its run directory
     * vanished): the batch saw it fail, so its row must not stay `running`. A run that
     * recorded itself is left as it is.
     */
    async markRunFailed({ runId, status, error }: { runId: string; status: RunStatus; error: string }): Promise<boolean> {
      const run = await deps.store.getRun(runId);
      if (!run || !UNFINISHED.has(run.status)) return false;
      await deps.store.updateRun(runId, { status, error, finished_at: deps.now().toISOString() });
      return true;
    },
  };
}

/** Statuses of a run that has not recorded how it ended. */
const UNFINISHED = new Set(['pending', 'running']);

function describeAnomalyLine(anomaly: RunAnomaly): string {
  switch (anomaly.kind) {
    case 'timeout':
      return `timeout: ${anomaly.detail}`;
    case 'infra_retries':
      return `infra retries: ${anomaly.count}${anomaly.detail ? ` (${anomaly.detail})` : ''}`;
    default:
      return anomaly.detail;
  }
}
