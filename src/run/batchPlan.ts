import { createHash } from 'node:crypto';
import type { EvalCase } from '../evalset/index.js';
import type { PlanEntry } from '../store/index.js';

/** A case as planned: its pack's hash when it travels with the batch (`casePack`), else read at `dir`. */
type PlannedCase = Pick<EvalCase, 'id' | 'dir' | 'sha256'> & { pack?: string };

/**
 * A batch's runs in order: each case (sorted by id, as the bank lists them) `runsPerCase`
 * times, and with arms each attempt once per arm, interleaved (A, B, A, B), so that drift of
 * the model endpoint over the batch hits every arm alike. Attempts are numbered (k = 1..n)
 * only when there are several, as run ids are.
 */
export function planEntries(cases: readonly PlannedCase[], runsPerCase: number, arms: readonly string[] = []): PlanEntry[] {
  const entries: PlanEntry[] = [];
  for (const evalCase of cases) {
    for (let k = 1; k <= runsPerCase; k++) {
      for (const arm of arms.length > 0 ? arms : [null]) {
        entries.push({ idx: entries.length, case_id: evalCase.id, case_dir: evalCase.dir, case_hash: evalCase.sha256, k: runsPerCase > 1 ? k : null, arm, case_pack: evalCase.pack ?? null });
      }
    }
  }
  return entries;
}

/** A fingerprint of which cases, with which contents, a batch selected. */
export function selectionDigest(cases: readonly PlannedCase[]): string {
  const hash = createHash('sha256');
  for (const evalCase of [...cases].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) hash.update(`${evalCase.id}\0${evalCase.sha256}\n`);
  return `sha256:${hash.digest('hex').slice(0, 32)}`;
}
