import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FormatError } from '../errors.js';
import { casePackDir, casePackHash, checkEvalCase, packCase, unpackCase, type EvalCase } from '../evalset/index.js';
import type { Store } from '../store/index.js';
import type { CaseSnapshot } from './runSpec.js';

/** What reading a travelled case needs on a host: the store that holds the packs, and where this host writes them out. */
export interface CaseFolderDeps {
  store: Pick<Store, 'getCasePack'>;
  /** evalflow's state folder on this host; cases are written out under `cases/`. */
  stateDir: string;
}

/** A case read from its pack: the case as this host loaded it, with the client's folder and the pack it came from. */
export type TravelledCase = EvalCase & { clientDir: string; pack: string };

/**
 * The client's side: saves each validated case folder to the store as a pack, and the
 * selection of them as a case set; returns the set's key, which the batch carries instead of
 * the cases. Saving what is saved already writes nothing.
 */
export async function saveCaseSet(store: Pick<Store, 'saveCasePack' | 'saveCaseSet'>, cases: readonly EvalCase[]): Promise<string> {
  const entries = [];
  for (const evalCase of cases) {
    const pack = await packCase(evalCase.dir, evalCase.id);
    const packHash = casePackHash(pack);
    const bytes = pack.files.reduce((sum, file) => sum + file.content.length, 0);
    await store.saveCasePack({ packHash, caseId: evalCase.id, pack, bytes });
    entries.push({ case_id: evalCase.id, case_dir: evalCase.dir, case_hash: evalCase.sha256, pack_hash: packHash });
  }
  return store.saveCaseSet(entries);
}

/**
 * The worker's side of planning: the cases of a saved set, each written out on this host and
 * loaded from there, with every problem found (one line each, naming the case) instead of a throw.
 */
export async function loadCaseSet(deps: CaseFolderDeps & { store: Pick<Store, 'getCaseSet'> }, setHash: string): Promise<{ cases: TravelledCase[]; problems: string[] }> {
  const entries = await deps.store.getCaseSet(setHash);
  if (!entries) return { cases: [], problems: [`case set ${setHash}: not in the store; the batch's cases were never saved there (is this worker on another store than the client?)`] };
  const cases: TravelledCase[] = [];
  const problems: string[] = [];
  for (const entry of entries) {
    try {
      const dir = await writeOutPack(deps, entry.pack_hash, entry.case_id);
      const check = await checkEvalCase(dir);
      if (check.evalCase) cases.push({ ...check.evalCase, clientDir: entry.case_dir, pack: entry.pack_hash });
      else problems.push(...check.problems.map((problem) => `eval case ${entry.case_id} (from ${entry.case_dir}): ${problem}`));
    } catch (err) {
      problems.push(`eval case ${entry.case_id} (from ${entry.case_dir}): ${(err as Error).message}`);
    }
  }
  return { cases, problems };
}

/** The case folder a run's commands and checks use on this host: its pack written out here, or the folder it names when it has no pack. */
export async function localCaseDir(deps: CaseFolderDeps, evalCase: Pick<CaseSnapshot, 'id' | 'dir' | 'pack'>): Promise<string> {
  return evalCase.pack ? writeOutPack(deps, evalCase.pack, evalCase.id) : evalCase.dir;
}

/** The pack `packHash` written out under this host's state folder (once; later calls find it there). */
export async function writeOutPack(deps: CaseFolderDeps, packHash: string, caseId: string): Promise<string> {
  const root = join(deps.stateDir, 'cases');
  const written = casePackDir(root, packHash, caseId);
  // Written out by an earlier run of this host: a hash names one content.
  if (existsSync(written)) return written;
  const stored = await deps.store.getCasePack(packHash);
  if (stored === null) throw new FormatError(`case pack ${packHash} of eval case ${caseId}: not in the store; start the batch again from the client`);
  return unpackCase(stored, packHash, root);
}
