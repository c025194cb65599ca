import type { InterruptMode } from '../../cli/batch/interrupts.js';

/** The subcommands of `evalflow ep`, as Zed's `ep` CLI names them. */
export const SUBCOMMANDS = ['read', 'predict', 'score', 'eval'] as const;
export type Subcommand = (typeof SUBCOMMANDS)[number];

/** What `--failed` does with failed examples: keep them in the output, skip them, or skip them and write no failure files. */
export const FAILED_MODES = ['keep', 'skip', 'skip-no-files'] as const;
export type FailedMode = (typeof FAILED_MODES)[number];

export interface EpOptions {
  subcommand: string;
  inputs?: string[];
  name?: string;
  repo?: string;
  limit?: number;
  offset?: number;
  maxParallelism?: number;
  output?: string;
  inPlace?: boolean;
  markdown?: boolean;
  failfast?: boolean;
  failed?: string;
  provider?: string;
  model?: string;
  summaryJson?: string;
  beta?: number;
  verbose?: boolean;
  config?: string;
  /** What the first Ctrl-C does to the batch (default: ask on a terminal, else detach). */
  onInterrupt?: InterruptMode;
  /** commander's --no-worker gives `worker: false`. */
  worker?: boolean;
  /** What `-` reads (default: this process's standard input). */
  stdin?: NodeJS.ReadableStream | string;
}
