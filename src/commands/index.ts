import type { CommandIo } from '../cli/io.js';

/** What every `commands/<name>.ts` exports: run the command, return the exit code. */
export interface CommandModule {
  run(options: never, io: CommandIo): Promise<number>;
}

/**
 * Each command's module, loaded only when the command runs. The specifiers are spelled out
 * (not built from the name) so the bundler sees every one and puts each in its own chunk.
 */
export const COMMAND_MODULES = {
  attach: () => import('./attach.js'),
  batches: () => import('./batches.js'),
  bless: () => import('./bless.js'),
  calibrate: () => import('./calibrate.js'),
  cancel: () => import('./cancel.js'),
  candidates: () => import('./candidates.js'),
  compare: () => import('./compare.js'),
  dashboard: () => import('./dashboard.js'),
  demo: () => import('./demo.js'),
  ep: () => import('./ep/ep.js'),
  history: () => import('./history.js'),
  new: () => import('./new.js'),
  plan: () => import('./plan.js'),
  rejudge: () => import('./rejudge.js'),
  resume: () => import('./resume.js'),
  review: () => import('./review.js'),
  run: () => import('./run.js'),
  runs: () => import('./runs.js'),
  schedule: () => import('./schedule.js'),
  server: () => import('./server.js'),
  show: () => import('./show.js'),
  status: () => import('./status.js'),
  'store-service': () => import('./storeService.js'),
  summarize: () => import('./summarize.js'),
  validate: () => import('./validate.js'),
  view: () => import('./view.js'),
  worker: () => import('./worker.js'),
} satisfies Record<string, () => Promise<CommandModule>>;

export type CommandName = keyof typeof COMMAND_MODULES;
