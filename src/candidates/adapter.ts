import type { SandboxView } from '../containment/sandboxView.js';
import type { CandidateSpec } from '../run/runSpec.js';
import type { CandidateEvent } from '../transcript/schema.js';
import type { WorkflowSupport } from '../workflowUsage/workflowSupport.js';
import type { Usage } from '../vocabulary/usage.js';

export type { CandidateSpec };

/**
 * State carried from one turn to the next through the workflow (small JSON only):
 * the agent's session id for resume and cumulative usage counters for differencing.
 */
export interface CandidateSession {
  id?: string;
  /** Last cumulative usage reported by agents whose counters grow across resumed turns. */
  cumulativeUsage?: Usage;
  [key: string]: unknown;
}

export interface TurnRequest {
  runId: string;
  turn: number;
  /** The user message for this turn (from the examiner). */
  message: string;
  /** Working directory of the agent: the run's git worktree. */
  sandboxDir: string;
  runDir: string;
  /** A fresh HOME for the agent, private to this run. */
  homeDir: string;
  session: CandidateSession | undefined;
  candidate: CandidateSpec;
  timeoutMs: number;
  signal: AbortSignal;
  /** Called once per normalised event, in stream order (the activity writes and heartbeats). */
  onEvent: (event: CandidateEvent) => void;
  /** Called on any raw output, so long silent tool runs still heartbeat. */
  onActivity?: () => void;
  /** Called with the process group of every process the turn starts (the agent, a builtin shell tool). */
  onSpawn?: (pgid: number) => void;
  /** Every process the turn starts runs contained in this view (`isolation: sandbox`); absent: uncontained. */
  view?: SandboxView;
}

export interface TurnResult {
  /** The candidate's final reply text for this turn. */
  reply: string;
  session: CandidateSession;
  /** Token usage of this turn alone (already differenced for cumulative counters). */
  usage?: Usage;
  /** Short notes on the turn for review: what was cut from its output and how much. */
  notes?: string[];
}

/** A running agent under test. Throws `CandidateError` when a turn fails. */
export interface Candidate {
  runTurn(request: TurnRequest): Promise<TurnResult>;
}

/** How a turn's process ended, as the stream normaliser needs it. */
export interface ProcessExit {
  exitCode: number | null;
  /** The last few KB of the agent's stderr: evidence when the turn failed. */
  stderrTail: string;
}

/** What a stream normaliser concludes once the agent's process has ended. */
export interface TurnOutcome {
  /** Events produced only at the end: the final reply, completions of tools that never finished. */
  events: CandidateEvent[];
  sessionId?: string;
  /** The final reply text ('' when the turn failed before answering). */
  reply: string;
  /** Usage of this turn alone. */
  usage?: Usage;
  /** Raw cumulative counters, for CLIs whose usage grows across resumed turns. */
  cumulativeUsage?: Usage;
  /** Set when the stream ended without its terminal event, reported an error, or the process exited non-zero. */
  failure?: { message: string; stderrTail: string };
  /** Lines that were not JSON or had an unknown type; ignored, never fatal. */
  ignoredLines: number;
  /** Short notes on the turn for review: a long line read shortened, a reply cut. */
  notes?: string[];
}

/**
 * An incremental parser of one agent CLI's stdout for one turn: one line in, the normalised
 * events it completes out. Never throws on bad input.
 */
export interface StreamNormalizer {
  push(line: string): CandidateEvent[];
  end(exit: ProcessExit): TurnOutcome;
}

export interface NormalizerOptions {
  /** The cumulative usage the previous turn ended with (`CandidateSession.cumulativeUsage`). */
  previousCumulative?: Usage;
  /** The sandbox directory: absolute paths inside it are shown relative in summaries. */
  cwd?: string;
}

export type NormalizerFactory = (options: NormalizerOptions) => StreamNormalizer;

/** Everything an adapter needs to build one turn's command line, environment and HOME files. */
export interface InvocationContext {
  message: string;
  model?: string;
  /** Pre-assigned (turn 1) or from the previous turn; undefined when the CLI assigns it. */
  sessionId?: string;
  /** True from turn 2 on: continue `sessionId`. */
  resume: boolean;
  /** `CandidateSpec.args`: each adapter places them where its CLI accepts options (before the prompt). */
  extraArgs: string[];
  baseUrl?: string;
  /** The API key value; adapters put it in the environment only, never in arguments or files in the sandbox. */
  apiKey?: string;
  /** The host variable the key came from (`CandidateSpec.apiKeyEnv`), for CLIs that read a provider-specific name. */
  apiKeyEnvName?: string;
  sandboxDir: string;
  homeDir: string;
}

/**
 * Everything evalflow knows about one agent CLI, as data: the generic CLI candidate
 * (`createCliCandidate`) runs any of these without branching on the adapter.
 */
export interface CliAdapter {
  /** Registry key, e.g. `claude-code`. */
  name: string;
  /** Product name, e.g. `Claude Code`. */
  cli: string;
  /** Executable names tried on PATH, in order. */
  executables: string[];
  /** npm package that ships the CLI, when there is one. */
  npmPackage?: string;
  /** One line that installs the CLI. */
  setup: string;
  versionArgs: string[];
  /** Where it discovers skills, commands, subagents and rules, and how its stream shows them used. */
  workflow: WorkflowSupport;
  /** `preassigned`: evalflow chooses the session id on turn 1; `stream`: the CLI assigns it. */
  sessionId: 'preassigned' | 'stream';
  /** Where the user message goes: an argument (`args` places it) or stdin. */
  prompt: 'argv' | 'stdin';
  /** Environment variable the key is handed to the CLI in; also the host fallback when the spec names none. */
  apiKeyEnv: string;
  /** Environment variable (or mechanism) that points the CLI at `CandidateSpec.baseUrl`. */
  baseUrlVia: string;
  args(ctx: InvocationContext): string[];
  /** Arguments for text-only use (examiner or judge): tools off or plan mode, one prompt, one reply. */
  textOnlyArgs(ctx: InvocationContext): string[];
  env(ctx: InvocationContext): Record<string, string>;
  /** Files written into the private HOME before each turn (settings, telemetry off), HOME-relative. */
  homeFiles(ctx: InvocationContext): Record<string, string>;
  createNormalizer: NormalizerFactory;
  /** How the per-turn usage is derived (per invocation, cumulative, summed per step). */
  usageRule: string;
  resumeRule: string;
}
