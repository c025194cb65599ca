import { checkCandidateCanStart } from '../../candidates/index.js';
import type { CandidateSpec } from '../../candidates/adapter.js';
import type { Settings } from '../../config.js';
import type { CommandIo } from '../io.js';
import { checkIsolation } from './checkIsolation.js';
import { checkLocalFolders } from './checkLocalFolders.js';
import { looksLikeGitUrl } from '../../sandbox/gitUrl.js';

/**
 * The checks before a batch starts: containment for every candidate, and, when this machine's
 * worker runs the batch (no cluster address, no `--no-worker`), its folders and whether the
 * base candidate can start here. Workers of a cluster may have the folders where this machine
 * does not, and check for themselves. Prints the folder problems and returns true when the
 * batch must not start; a candidate that cannot start throws, said once instead of by every run.
 */
export async function refuseLocalStart(settings: Settings, candidate: CandidateSpec, others: CandidateSpec[], io: CommandIo, worker: boolean | undefined): Promise<boolean> {
  const local = worker !== false && !settings.temporal.address;
  checkIsolation([candidate, ...others], io, { probe: local });
  const folderProblems = local ? await checkLocalFolders(settings) : [];
  if (folderProblems.length > 0) {
    for (const problem of folderProblems) io.err(`error: ${problem}`);
    return true;
  }
  // A URL project is no folder to resolve the candidate's command against.
  if (local) await checkCandidateCanStart(candidate, io.env, looksLikeGitUrl(settings.project) ? {} : { cwd: settings.project });
  return false;
}
