/**
 * The one error hierarchy of evalflow. Class names are the wire contract: an activity that
 * throws one of these surfaces in Temporal as a failure whose `type` is the class name, and
 * workflows branch on that type.
 */
export abstract class EvalflowError extends Error {
  abstract readonly code: string;
  /** Whether retrying the same operation could succeed (network, rate limits, 5xx). */
  readonly retryable: boolean = false;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A file (eval case, example, config, stream) does not match its format. */
export class FormatError extends EvalflowError {
  readonly code = 'FORMAT';
  constructor(
    message: string,
    /** Every problem found, one line each, already prefixed with file and field. */
    readonly problems: string[] = [message],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The supply-side configuration (config file, flags, environment) is wrong. */
export class ConfigError extends EvalflowError {
  readonly code = 'CONFIG';
}

/**
 * A command-line flag's value is refused before anything runs (it names no batch, no schedule,
 * or is out of range): the message names the flag, the value and what was expected; exit 2.
 */
export class UsageError extends EvalflowError {
  readonly code = 'USAGE';
}

/** A request to `evalflow view` is malformed (a bad query string or path): answered 400 with the message. */
export class BadRequestError extends EvalflowError {
  readonly code = 'BAD_REQUEST';
}

/** The candidate (agent under test) failed to complete a turn. */
export class CandidateError extends EvalflowError {
  readonly code = 'CANDIDATE';
  constructor(
    message: string,
    readonly details: {
      exitCode?: number | null;
      stderrTail?: string;
      /** The last few KB of stdout: what the agent said before it failed. */
      stdoutTail?: string;
      timedOut?: boolean;
      /** Short notes on the turn for review (an output cut, the exit and how stdout ended). */
      notes?: string[];
    } = {},
    options?: { cause?: unknown; retryable?: boolean },
  ) {
    super(message, options);
    if (options?.retryable) (this as { retryable: boolean }).retryable = true;
  }
}

/**
 * The candidate could not be started on this host (its executable is missing or not
 * executable, the spawn failed): evalflow's setup, never the candidate's failure, so the run
 * ends as an infrastructure error and is not judged. Not a CandidateError on purpose.
 */
export class CandidateSetupError extends EvalflowError {
  readonly code = 'CANDIDATE_SETUP';
}

/** An LLM call failed; `retryable` tells 429/5xx/timeouts from other 4xx. */
export class LlmError extends EvalflowError {
  readonly code = 'LLM';
  /** How long the endpoint asked to wait before the next try (its `Retry-After`), when it said. */
  readonly retryAfterMs: number | undefined;
  constructor(
    message: string,
    readonly status: number | undefined,
    retryable: boolean,
    options?: { cause?: unknown; retryAfterMs?: number },
  ) {
    super(message, options);
    (this as { retryable: boolean }).retryable = retryable;
    this.retryAfterMs = options?.retryAfterMs;
  }
}

/** The judge's answer could not be turned into a verdict, even by salvage. */
export class JudgeError extends EvalflowError {
  readonly code = 'JUDGE';
}

/**
 * A person's review decision was refused: the run needs none (or not yet), or it already has
 * one. The message says which, and what the run's state is.
 */
export class ReviewError extends EvalflowError {
  readonly code = 'REVIEW';
}

/** The sandbox (git worktree, setup commands, file confinement) could not be prepared or used. */
export class SandboxError extends EvalflowError {
  readonly code = 'SANDBOX';
}

/**
 * A host stage asked to run inside the workflow task of a worker that is not the run's host
 * (the task moved to another worker): the workflow runs it on the host's queue instead.
 */
export class OtherHostError extends EvalflowError {
  readonly code = 'OTHER_HOST';
}

/**
 * A worker asked to take a run while all its slots are held or it drains: the run claims a
 * host through the slots queue instead, where only hosts with a free slot poll.
 */
export class NoFreeSlotError extends EvalflowError {
  readonly code = 'NO_FREE_SLOT';
  override readonly retryable = true;
}

/**
 * A worker asked to take a run whose candidate this host cannot start (its agent CLI or
 * command is not installed here): the run claims a host through the slots queue instead,
 * where every host checks the same, so it lands on one that can.
 */
export class CannotRunHereError extends EvalflowError {
  readonly code = 'CANNOT_RUN_HERE';
  override readonly retryable = true;
}

/**
 * A project or workflow given as a git URL could not be read: its revision not resolved at the
 * batch's start, or the pinned commit not fetched into a host's mirror. Ours, never the
 * candidate's; retried, since a remote that did not answer may answer later.
 */
export class SourceFetchError extends EvalflowError {
  readonly code = 'SOURCE_FETCH';
  override readonly retryable = true;
}

/** The store (PostgreSQL or PGlite) failed. */
export class StoreError extends EvalflowError {
  readonly code = 'STORE';
}

/**
 * The embedded store is held by another process that cannot serve it to this one (it serves
 * no socket, runs on another host, or does not answer). The message names the holder and
 * what to do; the command may well work later (exit 75, sysexits' EX_TEMPFAIL).
 */
export class StoreBusyError extends StoreError {
  override readonly retryable = true;
}

/**
 * Temporal's frontend does not answer at `address`: nothing listens there, or it is not a
 * Temporal server. The message says which address and what to do.
 */
export class TemporalUnreachableError extends EvalflowError {
  readonly code = 'TEMPORAL_UNREACHABLE';
  override readonly retryable = true;
  constructor(
    message: string,
    readonly address: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A bug in evalflow: the user should file an issue. */
export class InternalError extends EvalflowError {
  readonly code = 'INTERNAL';
}

export function isEvalflowError(err: unknown): err is EvalflowError {
  return err instanceof EvalflowError;
}
