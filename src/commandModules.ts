import type { CommandIo } from './cli/io.js';

/** What every `commands/<name>.ts` exports: run the command, return the exit code. */
export interface CommandModule {
  run(options: never, io: CommandIo): Promise<number>;
}

/**
 * Each command's module, loaded only when the command runs. The specifiers are spelled out
 * (not built from the name) so the bundler sees every one and puts each in its own chunk.
 */
export const COMMAND_MODULES = {
  attach: () => import('./commands/attach.js'),
  batches: () => import('./commands/batches.js'),
  bless: () => import('./commands/bless.js'),
  cancel: () => import('./commands/cancel.js'),
  candidates: () => import('./commands/candidates.js'),
  compare: () => import('./commands/compare.js'),
  dashboard: () => import('./commands/dashboard.js'),
  demo: () => import('./commands/demo.js'),
  ep: () => import('./commands/ep/ep.js'),
  history: () => import('./commands/history.js'),
  new: () => import('./commands/new.js'),
  plan: () => import('./commands/plan.js'),
  rejudge: () => import('./commands/rejudge.js'),
  resume: () => import('./commands/resume.js'),
  review: () => import('./commands/review.js'),
  run: () => import('./commands/run.js'),
  runs: () => import('./commands/runs.js'),
  schedule: () => import('./commands/schedule.js'),
  server: () => import('./commands/server.js'),
  show: () => import('./commands/show.js'),
  status: () => import('./commands/status.js'),
  summarize: () => import('./commands/summarize.js'),
  validate: () => import('./commands/validate.js'),
  view: () => import('./commands/view.js'),
  worker: () => import('./commands/worker.js'),
} satisfies Record<string, () => Promise<CommandModule>>;

export type CommandName = keyof typeof COMMAND_MODULES;
