import { CandidateError, CandidateSetupError } from '../errors.js';
import type { StreamNormalizer, TurnOutcome, TurnRequest } from './adapter.js';
import { describeLineCut } from './lineReader.js';
import { loopbackPort } from '../containment/endpoint.js';
import { LIMITS, clipTail, oneLine } from './normalizers/truncate.js';
import { runProcess } from './processRunner.js';
import { missingInterpreter, whyCannotStart } from './sessionFiles.js';

export interface AgentProcess {
  command: string;
  args: string[];
  env: Record<string, string>;
  stdin?: string;
}

export interface AgentTurnOptions {
  network: 'host' | 'loopback';
  /** The model endpoint's base URL: its loopback port stays reachable inside a loopback namespace. */
  baseUrl?: string;
  killGraceMs?: number;
  /** Names the turn in error messages, e.g. `claude (claude-code) turn 2`. */
  label: string;
  /** How to make the program startable (install line, config key), for when it cannot start. */
  setupHint?: string;
}

/** Long lines noted one by one up to this many; the rest are counted. */
const MAX_LINE_NOTES = 3;

/**
 * Run one agent process for one turn and normalise its stdout as it arrives: events go to
 * `request.onEvent` in stream order, every output chunk to `request.onActivity`. Returns the
 * normaliser's outcome, with notes on lines read shortened; throws CandidateSetupError when
 * the program cannot be started on this host (ours, not the candidate's), and CandidateError
 * (exit code, stderr and stdout tails, notes) when it timed out, was cancelled, or the turn
 * failed.
 */
export async function runAgentTurn(request: TurnRequest, agent: AgentProcess, normalizer: StreamNormalizer, options: AgentTurnOptions): Promise<TurnOutcome> {
  const { label } = options;
  const hint = options.setupHint ? `; ${options.setupHint}` : '';
  // Checked before spawning, because inside a network namespace a missing program would only
  // show as the wrapper's exit code 127, indistinguishable from the candidate's own failure.
  const missing = await whyCannotStart(agent.command, agent.env.PATH, request.sandboxDir);
  if (missing) throw new CandidateSetupError(`${label}: cannot start on this host: ${missing}${hint}`);
  const script = await missingInterpreter(agent.command, agent.env.PATH, request.sandboxDir);
  if (script) throw new CandidateSetupError(`${label}: could not start ${agent.command}: ${script}: not found (the file exists: is the interpreter on its #! line installed?)${hint}`);

  const port = loopbackPort(options.baseUrl);
  const lineNotes: string[] = [];
  let lines = 0;
  let longLines = 0;
  const result = await runProcess({
    ...agent,
    cwd: request.sandboxDir,
    timeoutMs: request.timeoutMs,
    signal: request.signal,
    network: options.network,
    ...(request.view ? { view: request.view } : {}),
    ...(port !== undefined ? { forwardPorts: [port] } : {}),
    onStdoutLine: (line, cut) => {
      lines++;
      // A plain line cut in its middle is noted by whoever shows it (the reply); JSON ones here.
      if (cut && cut.kind !== 'text' && ++longLines <= MAX_LINE_NOTES) lineNotes.push(describeLineCut(`stdout line ${lines}`, cut));
      for (const event of normalizer.push(line)) request.onEvent(event);
    },
    ...(request.onActivity ? { onActivity: request.onActivity } : {}),
    ...(request.onSpawn ? { onSpawn: request.onSpawn } : {}),
    ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
  });
  if (longLines > MAX_LINE_NOTES) lineNotes.push(`${longLines - MAX_LINE_NOTES} more stdout lines over 1 MB were read shortened`);
  if (result.spawnError) {
    // The program was there a moment ago: a script whose #! interpreter is missing fails this way.
    const interpreter = result.spawnError.endsWith(': not found') ? ' (the file exists: is the interpreter on its #! line installed?)' : '';
    throw new CandidateSetupError(`${label}: could not start ${agent.command}: ${result.spawnError}${interpreter}${hint}`);
  }
  const outcome = normalizer.end({ exitCode: result.exitCode, stderrTail: result.stderrTail });
  for (const event of outcome.events) request.onEvent(event);
  const notes = [...lineNotes, ...(outcome.notes ?? [])];
  if (typeof result.exitCode === 'number' && result.exitCode !== 0) notes.push(exitNote(result.exitCode, result.stdoutTail));
  const details = {
    exitCode: result.exitCode,
    stderrTail: result.stderrTail,
    ...(result.stdoutTail ? { stdoutTail: result.stdoutTail } : {}),
    ...(notes.length ? { notes } : {}),
  };
  if (result.timedOut) {
    throw new CandidateError(`${label}: timed out after ${Math.round(request.timeoutMs / 1000)} s; its process group was killed`, { ...details, timedOut: true });
  }
  if (result.aborted) throw new CandidateError(`${label}: cancelled; its process group was killed`, details);
  if (outcome.failure) throw new CandidateError(`${label} failed: ${outcome.failure.message}`, details);
  const { notes: _own, ...rest } = outcome;
  return notes.length ? { ...rest, notes } : rest;
}

/** `exited with code 1; stdout ended: …Error: cannot find module 'x'` — the evidence in one line. */
function exitNote(exitCode: number, stdoutTail: string): string {
  const end = oneLine(stdoutTail.trim());
  return `exited with code ${exitCode}; ${end ? `stdout ended: ${clipTail(end, LIMITS.outputTail)}` : 'no stdout'}`;
}

/** EVALFLOW_CANDIDATE_NETNS=loopback puts every candidate process in a loopback-only network namespace. */
export function networkFrom(hostEnv: NodeJS.ProcessEnv): 'host' | 'loopback' {
  return hostEnv.EVALFLOW_CANDIDATE_NETNS === 'loopback' ? 'loopback' : 'host';
}
