import type { CandidateEvent, Usage } from '../transcript/schema.js';

/**
 * A named candidate from the supply-side config: one adapter serves many candidates
 * (the same CLI with different models, args or env).
 */
export interface CandidateSpec {
  /** Name used in run ids and reports, e.g. `claude-sonnet` or simply the adapter name. */
  name: string;
  /** Adapter key in the registry: `claude-code`, `codex`, `command`, `builtin`, ... */
  adapter: string;
  model?: string;
  /** Extra command-line arguments appended to every turn (CLI adapters) or the command itself (`command`). */
  args: string[];
  /** Extra environment for the candidate process; values may reference `${ENV_VAR}` of the host. */
  env: Record<string, string>;
  /** Base URL of the model endpoint the agent should use (OpenAI, Anthropic, Gemini style per adapter). */
  baseUrl?: string;
  /** Name of the host environment variable that holds the API key (never the key itself). */
  apiKeyEnv?: string;
  /** Override of the executable (path or name on PATH). */
  executable?: string;
}

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
}

export interface TurnResult {
  /** The candidate's final reply text for this turn. */
  reply: string;
  session: CandidateSession;
  /** Token usage of this turn alone (already differenced for cumulative counters). */
  usage?: Usage;
}

/** A running agent under test. Throws `CandidateError` when a turn fails. */
export interface Candidate {
  runTurn(request: TurnRequest): Promise<TurnResult>;
}

/** Where evalflow places the run's workflow snapshot inside the sandbox for this agent to load it. */
export interface WorkflowLink {
  /** Sandbox-relative path, e.g. `.claude` or `AGENTS.md`. */
  path: string;
  /** `dir`: link the whole snapshot folder; `file`: generate one file from the snapshot (e.g. AGENTS.md). */
  kind: 'dir' | 'file';
}
