import { examinerEventContent, firstMessage, nextMessage, readExaminerEvent, type DialogueMessage } from '../examiner/index.js';
import type { RunAnomaly } from '../vocabulary/anomaly.js';
import type { RunSpec } from '../run/runSpec.js';
import { createStepLedger } from '../run/stepLedger.js';
import { generationOf, transcriptAttempt } from '../transcript/attempts.js';
import { latestAttempts } from '../transcript/latestAttempts.js';
import type { ActivityDeps } from './deps.js';
import { patientModel } from './modelCalls.js';
import { activityAttempt, cancellationSignal } from './temporalContext.js';
import type { Usage } from '../vocabulary/usage.js';

export interface ExaminerTurnOutput {
  message: string;
  ended: boolean;
  /** This activity's attempt: earlier ones failed for infrastructure reasons. */
  attempt: number;
  /** Model outages waited out, spend repeated after a crash. */
  anomalies: RunAnomaly[];
}

export function examinerActivities(deps: ActivityDeps) {
  const steps = createStepLedger(deps.store, deps.now);
  return {
    /**
     * The examiner's message for a turn: Turn 1 is the Prompt quote verbatim; later turns come
     * from the examiner model. Idempotent: a turn already written is returned as stored.
     */
    async examinerTurn({ spec, turn, generation = 0 }: { spec: RunSpec; turn: number; generation?: number }): Promise<ExaminerTurnOutput> {
      const activity = activityAttempt();
      const attempt = transcriptAttempt(generation, activity, spec.resumes);
      const events = await deps.store.getTranscript(spec.runId, { attempts: 'all' });
      const written = events.find((e) => e.turn === turn && e.role === 'examiner' && generationOf(e.attempt) === generation);
      if (written) return { ...readExaminerEvent(written.content), attempt: activity, anomalies: [] };

      const anomalies: RunAnomaly[] = [];
      let message: string;
      let ended = false;
      let usage: Usage | undefined;
      if (turn === 1) {
        message = firstMessage(spec.evalCase.task.prompt);
      } else {
        const key = { runId: spec.runId, role: 'examiner' as const, turn, attempt };
        const prior = await steps.prior(key);
        if (prior.finished) {
          // The model answered before a crash, but its message never reached the transcript.
          ({ message, ended } = prior.finished as { message: string; ended: boolean });
        } else {
          const repeated = await steps.repeatedSpend(key, prior.lost);
          if (repeated) anomalies.push(repeated);
          const dialogue: DialogueMessage[] = [];
          for (const e of latestAttempts(events)) {
            if (e.role === 'examiner' || e.role === 'candidate') dialogue.push({ role: e.role, content: e.content });
          }
          const model = patientModel(deps, spec, 'examiner', spec.examiner, turn);
          await steps.markSpending(key);
          const reply = await nextMessage({
            llm: model.llm,
            task: { scenario: spec.evalCase.task.scenario, guidance: spec.evalCase.task.guidance },
            dialogue,
            turn,
            maxTurns: spec.evalCase.maxTurns,
            signal: cancellationSignal(),
          });
          message = reply.message;
          ended = reply.ended;
          usage = reply.usage;
          const outage = model.outage();
          if (outage) anomalies.push(outage);
          await steps.finish(key, usage ?? null, { message, ended });
        }
      }
      const content = examinerEventContent({ message, ended });
      // Written as the execution's first attempt whatever the activity's, so that within the
      // turn it sorts before the candidate's events (ordered by turn, attempt, seq).
      const eventAttempt = transcriptAttempt(generation, 1, spec.resumes);
      await deps.store.appendTranscriptEvents([
        { run_id: spec.runId, turn, seq: 0, attempt: eventAttempt, ts: deps.now().toISOString(), role: 'examiner', content, ...(usage ? { usage } : {}) },
      ]);
      return { message, ended, attempt: activity, anomalies };
    },
  };
}
