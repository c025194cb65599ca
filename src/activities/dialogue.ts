import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CandidateSession, CandidateSpec } from '../candidates/adapter.js';
import { expandHostVariables } from '../candidates/index.js';
import { CandidateError, LlmError } from '../errors.js';
import { examinerEventContent, firstMessage, nextMessage, readExaminerEvent, type DialogueMessage } from '../examiner/index.js';
import type { RunSpec } from '../run/runSpec.js';
import { restoreTurnCheckpoint, saveTurnCheckpoint, type TurnCheckpoint } from '../sandbox/checkpoint.js';
import { latestAttempts } from '../transcript/latestAttempts.js';
import { createRedactor } from '../transcript/redact.js';
import type { CandidateEvent, TranscriptEvent, Usage } from '../transcript/schema.js';
import { writeTranscriptFile } from '../transcript/writeTranscriptFile.js';
import type { ActivityDeps } from './deps.js';
import { activityAttempt, cancellationSignal, heartbeat, heartbeatWhile } from './temporalContext.js';
import { createRunRecord } from '../run/runRecord.js';

export interface ExaminerTurnOutput {
  message: string;
  ended: boolean;
  attempt: number;
}

export interface CandidateTurnOutput {
  session: CandidateSession;
  /** Set when the candidate failed its own turn (crash, non-zero exit, timeout): the run goes on to the judge. */
  failure?: string;
  attempt: number;
  /** Short notes on the turn for review.md (an output cut, a non-zero exit and how stdout ended), redacted. */
  notes?: string[];
}

/** Events are written to the store in small batches, so a crash loses little. */
const FLUSH_EVERY = 20;

export function dialogueActivities(deps: ActivityDeps) {
  const record = createRunRecord(deps);
  return {
    /**
     * The examiner's message for a turn: Turn 1 is the Prompt quote verbatim; later turns come
     * from the examiner model. Idempotent: a turn already written is returned as stored.
     */
    async examinerTurn({ spec, turn }: { spec: RunSpec; turn: number }): Promise<ExaminerTurnOutput> {
      const attempt = activityAttempt();
      const events = await deps.store.getTranscript(spec.runId, { attempts: 'all' });
      const written = events.find((e) => e.turn === turn && e.role === 'examiner');
      if (written) return { ...readExaminerEvent(written.content), attempt };

      let message: string;
      let ended = false;
      let usage: Usage | undefined;
      if (turn === 1) {
        message = firstMessage(spec.evalCase.task.prompt);
      } else {
        const dialogue: DialogueMessage[] = [];
        for (const e of latestAttempts(events)) {
          if (e.role === 'examiner' || e.role === 'candidate') dialogue.push({ role: e.role, content: e.content });
        }
        const reply = await nextMessage({
          llm: deps.llmFor('examiner', spec.examiner),
          task: { scenario: spec.evalCase.task.scenario, guidance: spec.evalCase.task.guidance },
          dialogue,
          turn,
          maxTurns: spec.evalCase.maxTurns,
          signal: cancellationSignal(),
        });
        message = reply.message;
        ended = reply.ended;
        usage = reply.usage;
      }
      const content = examinerEventContent({ message, ended });
      await deps.store.appendTranscriptEvents([
        { run_id: spec.runId, turn, seq: 0, attempt: 1, ts: deps.now().toISOString(), role: 'examiner', content, ...(usage ? { usage } : {}) },
      ]);
      return { message, ended, attempt };
    },

    /**
     * One candidate turn in the sandbox. Its events stream into the store (and heartbeat);
     * a retry first restores the sandbox to where this turn started.
     */
    async candidateTurn({ spec, turn, message, session }: { spec: RunSpec; turn: number; message: string; session: CandidateSession | null }): Promise<CandidateTurnOutput> {
      const attempt = activityAttempt();
      const paths = record.paths(spec);
      await restoreOrSaveCheckpoint(paths.sandboxDir, join(paths.checkpointsDir, `turn-${turn}.json`), `${paths.checkpointRefs}/turn-${turn}`);

      const redact = createRedactor(candidateEnvView(deps.env, spec.candidate), spec.candidate.apiKeyEnv ? [spec.candidate.apiKeyEnv] : []);
      let seq = 1;
      let pending: TranscriptEvent[] = [];
      const flush = async () => {
        if (pending.length === 0) return;
        const batch = pending;
        pending = [];
        await deps.store.appendTranscriptEvents(batch);
      };
      let flushing: Promise<void> = Promise.resolve();
      // A failed background flush is kept and thrown when the turn ends: left unhandled
      // meanwhile, the rejection would crash the whole worker process.
      let flushFailure: { error: unknown } | undefined;
      const flushInBackground = () => {
        flushing = flushing.then(flush).catch((error: unknown) => {
          flushFailure ??= { error };
        });
      };
      const toEvent = (event: CandidateEvent): TranscriptEvent => ({
        run_id: spec.runId,
        turn,
        seq: seq++,
        attempt,
        ts: event.ts ?? deps.now().toISOString(),
        role: event.role,
        content: redact(event.content),
        ...(event.tool ? { tool: { ...event.tool, ...(event.tool.target ? { target: redact(event.tool.target) } : {}) } } : {}),
        ...(event.usage ? { usage: event.usage } : {}),
      });

      const candidate = deps.candidates.create(spec.candidate);
      let output: CandidateTurnOutput;
      try {
        // Heartbeats on a timer too: an agent is silent while its tool runs (a long build), and
        // without them the turn would look dead after the heartbeat timeout and be retried
        // under the running agent, and a cancellation would never reach it.
        const result = await heartbeatWhile(() => candidate.runTurn({
          runId: spec.runId,
          turn,
          message,
          sandboxDir: paths.sandboxDir,
          runDir: paths.runDir,
          homeDir: paths.homeDir,
          session: session ?? undefined,
          candidate: spec.candidate,
          timeoutMs: spec.turnTimeoutS * 1000,
          signal: cancellationSignal(),
          onEvent: (event) => {
            pending.push(toEvent(event));
            heartbeat({ turn, seq });
            if (pending.length >= FLUSH_EVERY) flushInBackground();
          },
          onActivity: () => heartbeat({ turn, seq }),
        }));
        if (result.usage) {
          // The turn's usage rides on a system event, so per-turn tokens are in the transcript and the store.
          pending.push(toEvent({ role: 'system', content: `candidate turn ${turn} usage: ${result.usage.input_tokens} in / ${result.usage.output_tokens} out`, usage: result.usage }));
        }
        output = { session: result.session, attempt, ...(result.notes?.length ? { notes: result.notes.map(redact) } : {}) };
      } catch (err) {
        // Ours, not the candidate's: a cancellation, an infra error, or the builtin agent's model
        // endpoint failing (retried by Temporal from the restored sandbox when retryable).
        const infra = !(err instanceof CandidateError) || cancellationSignal().aborted || err.cause instanceof LlmError;
        if (infra) {
          await flushing;
          await flush().catch(() => undefined);
          throw err instanceof CandidateError && err.cause instanceof LlmError ? err.cause : err;
        }
        const { stderrTail, stdoutTail, notes } = err.details;
        const tails = `${stderrTail ? `\nstderr tail:\n${stderrTail}` : ''}${stdoutTail ? `\nstdout tail:\n${stdoutTail}` : ''}`;
        pending.push(toEvent({ role: 'system', content: `candidate turn ${turn} failed: ${err.message}${tails}` }));
        output = { session: session ?? {}, failure: `${err.details.timedOut ? 'timed out: ' : ''}${redact(err.message)}`, attempt, ...(notes?.length ? { notes: notes.map(redact) } : {}) };
      }
      await flushing;
      if (flushFailure) throw flushFailure.error;
      await flush();
      await writeTranscriptFile(paths.transcriptFile, await deps.store.getTranscript(spec.runId, { attempts: 'all' }));
      return output;
    },
  };
}

/**
 * The host env plus the candidate's own `env` entries as the agent sees them, so a key handed
 * over as `ANTHROPIC_API_KEY: ${SOME_VAR}` (or written inline) is redacted under its secret
 * name even when the host variable's name does not look secret.
 */
function candidateEnvView(hostEnv: NodeJS.ProcessEnv, candidate: CandidateSpec): NodeJS.ProcessEnv {
  const view: NodeJS.ProcessEnv = { ...hostEnv };
  for (const [name, value] of Object.entries(candidate.env)) {
    try {
      view[name] = expandHostVariables(value, hostEnv, `candidate "${candidate.name}": env.${name}`);
    } catch {
      // an unset variable: the candidate itself reports it
    }
  }
  return view;
}

/**
 * The first attempt of a turn records where the sandbox stood; a retried attempt puts the
 * sandbox back there, so the candidate never sees a half-done earlier attempt.
 */
async function restoreOrSaveCheckpoint(sandboxDir: string, file: string, ref: string): Promise<void> {
  if (existsSync(file)) {
    const checkpoint = JSON.parse(await readFile(file, 'utf8')) as TurnCheckpoint;
    await restoreTurnCheckpoint(sandboxDir, checkpoint);
    return;
  }
  await mkdir(join(file, '..'), { recursive: true });
  const checkpoint = await saveTurnCheckpoint(sandboxDir, ref, join(file, '..'));
  await writeFile(file, JSON.stringify(checkpoint));
}
