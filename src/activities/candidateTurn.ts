import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CandidateSession, CandidateSpec } from '../candidates/adapter.js';
import { expandHostVariables } from '../candidates/index.js';
import { CandidateError, LlmError } from '../errors.js';
import type { RunAnomaly } from '../vocabulary/anomaly.js';
import type { RunPaths } from '../run/runPaths.js';
import { recoveryOf } from '../run/recovery.js';
import { createRunRecord } from '../run/runRecord.js';
import type { RunSpec } from '../run/runSpec.js';
import { createStepLedger } from '../run/stepLedger.js';
import { forgetAgentProcess, killLeftovers, recordAgentProcess } from '../sandbox/agentProcesses.js';
import { restoreTurnCheckpoint, saveTurnCheckpoint, type TurnCheckpoint } from '../sandbox/checkpoint.js';
import { restoreFolderCheckpoint, saveFolderCheckpoint } from '../sandbox/folderCheckpoint.js';
import { transcriptAttempt } from '../transcript/attempts.js';
import { createRedactor } from '../transcript/redact.js';
import type { CandidateEvent, TranscriptEvent } from '../transcript/schema.js';
import { writeTranscriptFile } from '../transcript/writeTranscriptFile.js';
import type { ActivityDeps } from './deps.js';
import { runViewsOf } from './runViews.js';
import { activityAttempt, cancellationSignal, heartbeat } from './temporalContext.js';

export interface CandidateTurnOutput {
  session: CandidateSession;
  /** Set when the candidate failed its own turn (crash, non-zero exit, timeout): the run goes on to the judge. */
  failure?: string;
  /** This activity's attempt: earlier ones failed for infrastructure reasons. */
  attempt: number;
  /** Notes on the turn's output, processes left by an interrupted attempt, spend repeated after a crash. */
  anomalies: RunAnomaly[];
  /** Tool calls the candidate started in this turn, when this attempt ran it (for the Web UI's current details). */
  toolCalls?: number;
}

/** What a finished turn keeps in the store, so a retry after a lost completion (or a resume) returns it instead of running the turn again. */
interface StoredTurn {
  session: CandidateSession;
  failure?: string;
  anomalies: RunAnomaly[];
}

/** Events are written to the store in small batches, so a crash loses little. */
const FLUSH_EVERY = 20;

export function candidateTurnActivities(deps: ActivityDeps) {
  const record = createRunRecord(deps);
  const steps = createStepLedger(deps.store, deps.now);
  return {
    /**
     * One candidate turn in the sandbox. First anything an earlier attempt left running is
     * killed; a turn that already finished is returned as stored; a retried turn starts from
     * the sandbox and agent home as they were when the turn first started. The turn is marked
     * as spending just before the agent starts, so a retry after that mark is recorded as
     * repeated spend. Events stream into the store as they come.
     */
    async candidateTurn({ spec, turn, message, session, generation = 0 }: { spec: RunSpec; turn: number; message: string; session: CandidateSession | null; generation?: number }): Promise<CandidateTurnOutput> {
      const activity = activityAttempt();
      const attempt = transcriptAttempt(generation, activity, spec.resumes);
      const paths = record.paths(spec);
      const anomalies: RunAnomaly[] = [];
      const key = { runId: spec.runId, role: 'candidate' as const, turn, attempt };
      const prior = await steps.prior(key);
      // Whatever an interrupted attempt of this turn started dies before anything else happens here.
      const since = prior.startedAt.length > 0 ? new Date(Math.min(...prior.startedAt.map((t) => Date.parse(t))) - 1_000) : null;
      const leftovers = await killLeftovers({ processesDir: paths.processesDir, dirs: [paths.sandboxDir, paths.homeDir], scan: since ? { startedAfter: since } : 'none' });
      if (leftovers.killed.length > 0) anomalies.push({ kind: 'leftover_processes', step: `candidate turn ${turn}`, killed: leftovers.killed.length });
      if (prior.finished) {
        const stored = prior.finished as unknown as StoredTurn;
        return { ...stored, attempt: activity, anomalies: [...stored.anomalies, ...anomalies] };
      }
      await restoreOrSaveCheckpoint(paths, turn);
      const repeated = await steps.repeatedSpend(key, prior.lost);
      if (repeated) anomalies.push(repeated);

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
      const noted = (notes: string[] | undefined) => (notes ?? []).map((note): RunAnomaly => ({ kind: 'candidate_output', turn, detail: redact(note) }));

      const candidate = deps.candidates.create(spec.candidate, { modelOutageS: recoveryOf(spec).modelOutageS });
      const views = await runViewsOf(deps, spec, paths);
      const groups: number[] = [];
      let stored: StoredTurn;
      let usage = null;
      let toolCalls = 0;
      await steps.markSpending(key);
      try {
        const result = await candidate.runTurn({
          runId: spec.runId,
          turn,
          message,
          sandboxDir: paths.sandboxDir,
          runDir: paths.runDir,
          homeDir: paths.homeDir,
          session: session ?? undefined,
          candidate: spec.candidate,
          ...(views ? { view: views.candidate } : {}),
          timeoutMs: spec.turnTimeoutS * 1000,
          signal: cancellationSignal(),
          onEvent: (event) => {
            if (event.role === 'candidate.tool_call.started') toolCalls += 1;
            pending.push(toEvent(event));
            heartbeat({ turn, seq });
            if (pending.length >= FLUSH_EVERY) flushInBackground();
          },
          onActivity: () => heartbeat({ turn, seq }),
          onSpawn: (pgid) => {
            groups.push(pgid);
            recordAgentProcess(paths.processesDir, pgid, `${spec.runId} candidate turn ${turn} attempt ${attempt}`);
          },
        });
        if (result.usage) {
          // The turn's usage rides on a system event, so per-turn tokens are in the transcript and the store.
          pending.push(toEvent({ role: 'system', content: `candidate turn ${turn} usage: ${result.usage.input_tokens} in / ${result.usage.output_tokens} out`, usage: result.usage }));
          usage = result.usage;
        }
        stored = { session: result.session, anomalies: noted(result.notes) };
      } catch (err) {
        // Ours, not the candidate's: a cancellation, an infra error, or the builtin agent's model
        // endpoint failing beyond its outage window.
        const infra = !(err instanceof CandidateError) || cancellationSignal().aborted || err.cause instanceof LlmError;
        if (infra) {
          await flushing;
          await flush().catch(() => undefined);
          throw err instanceof CandidateError && err.cause instanceof LlmError ? err.cause : err;
        }
        const { stderrTail, stdoutTail, notes } = err.details;
        const tails = `${stderrTail ? `\nstderr tail:\n${stderrTail}` : ''}${stdoutTail ? `\nstdout tail:\n${stdoutTail}` : ''}`;
        pending.push(toEvent({ role: 'system', content: `candidate turn ${turn} failed: ${err.message}${tails}` }));
        stored = { session: session ?? {}, failure: `${err.details.timedOut ? 'timed out: ' : ''}${redact(err.message)}`, anomalies: noted(notes) };
      } finally {
        for (const pgid of groups) forgetAgentProcess(paths.processesDir, pgid);
      }
      await flushing;
      if (flushFailure) throw flushFailure.error;
      await flush();
      await steps.finish(key, usage, stored as unknown as Record<string, unknown>);
      await writeTranscriptFile(paths.transcriptFile, await deps.store.getTranscript(spec.runId, { attempts: 'all' }));
      return { ...stored, attempt: activity, anomalies: [...stored.anomalies, ...anomalies], toolCalls };
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
 * The first attempt of a turn records where the sandbox and the agent's home stood; a
 * retried attempt puts both back there, so the candidate never sees a half-done earlier
 * attempt and a resumed conversation matches its files.
 */
async function restoreOrSaveCheckpoint(paths: RunPaths, turn: number): Promise<void> {
  const dir = join(paths.checkpointsDir, `turn-${turn}`);
  const file = join(dir, 'checkpoint.json');
  if (existsSync(file)) {
    const checkpoint = JSON.parse(await readFile(file, 'utf8')) as TurnCheckpoint;
    await restoreTurnCheckpoint(paths.sandboxDir, paths.checkpointsDir, checkpoint);
    await restoreFolderCheckpoint(paths.homeDir, join(dir, 'home'));
    return;
  }
  await mkdir(dir, { recursive: true });
  const checkpoint = await saveTurnCheckpoint(paths.sandboxDir, paths.checkpointsDir);
  await saveFolderCheckpoint(paths.homeDir, join(dir, 'home'));
  // Written last, and whole: a crash while saving leaves no checkpoint, and the retry saves again.
  await writeFile(`${file}.tmp`, JSON.stringify(checkpoint));
  await rename(`${file}.tmp`, file);
}
