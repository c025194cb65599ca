/**
 * Exit codes of the commands that follow or look up a batch (`run`, `attach`, `status`,
 * `cancel`, `batches`, `runs`), documented in the README; the other commands use 0 and 1.
 */
export const EXIT = {
  /** Every run completed (pass or fail), or the look-up succeeded. */
  ok: 0,
  /** Some run did not complete (aborted, infra_error, judge_failed, cancelled), or bad input. */
  notAllCompleted: 1,
  /** A flag's value is malformed or out of range, or names nothing (sysexits' usage convention). */
  usage: 2,
  /** No such batch in Temporal or the store. */
  unknownBatch: 3,
  /** Temporal does not answer at the configured address, or a git URL's remote cannot be read (sysexits' EX_UNAVAILABLE). */
  unreachable: 69,
  /** The embedded store is held by a process that cannot serve it to this one (sysexits' EX_TEMPFAIL). */
  storeBusy: 75,
  /** A bug in evalflow (sysexits' EX_SOFTWARE). */
  internal: 70,
  /** Ctrl-C detached from the batch, which goes on in Temporal (128 + SIGINT). */
  detached: 130,
} as const;
