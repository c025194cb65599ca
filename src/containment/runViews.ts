import { existsSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { SandboxView } from './sandboxView.js';

/** The places of a host that hold what a run's candidate must never see or change. */
export interface HostPlaces {
  /** The worker's environment: its HOME and TMPDIR. */
  env: NodeJS.ProcessEnv;
  /** EVALFLOW_HOME: the store, Temporal's database, imported projects, caches. */
  stateDir: string;
  /** Every run's sandbox and pooled clone on this host. */
  sandboxRoot: string;
  /** The folder of evalflow.config.yaml (and its `.env`), when the worker has one. */
  workspaceDir?: string;
  runsDir: string;
  /** The user's project folder (or the local repository a file:// URL names; none for a remote URL), and the repository sandboxes are made from. */
  project?: string;
  projectRepo?: string;
  /** The folder the team's workflow is snapshotted from (or the local repository a file:// URL names; none for a remote URL). */
  workflowDir?: string;
  /** The eval case's folder: its bank (rubrics, hidden tests) is hidden too. */
  caseDir: string;
}

/** Secrets of the system that its owner (root, for a worker run as root) could otherwise read. */
const SYSTEM_SECRETS = ['/etc/shadow', '/etc/gshadow', '/etc/ssh', '/root', '/home', '/run', '/var/tmp', '/var/run'];

/**
 * Every place to hide from a run's processes, by what it is wherever it lives: the invoking
 * user's HOME, the host's /tmp, evalflow's state, the sandbox root (every other run's clone
 * and the pool), the runs dir, the workspace, the user's project and the repository holding
 * it, the workflow's repository, and the eval bank. System folders are never among them.
 */
export function privatePlaces(places: HostPlaces): string[] {
  return [
    ...SYSTEM_SECRETS,
    places.env.HOME ?? homedir(),
    homedir(),
    places.env.TMPDIR ?? tmpdir(),
    tmpdir(),
    places.stateDir,
    places.sandboxRoot,
    places.runsDir,
    ...(places.workspaceDir ? [places.workspaceDir] : []),
    places.project,
    places.project && repositoryOf(places.project),
    ...(places.projectRepo ? [places.projectRepo] : []),
    places.workflowDir,
    places.workflowDir && repositoryOf(places.workflowDir),
    dirname(resolve(places.caseDir)),
  ].filter((place): place is string => place !== undefined && place !== '');
}

/** What a candidate's process sees: its clone and HOME writable, the tools it runs readable. */
export function candidateView(options: { hidden: string[]; sandboxDir: string; homeDir: string; readable: string[] }): SandboxView {
  return { writable: [options.sandboxDir, options.homeDir], readable: options.readable, hidden: options.hidden, network: 'loopback' };
}

/**
 * What a check sees (setup commands, pre- and postconditions, cleanup): the candidate's view,
 * plus the case folder and the run dir to read (a check may run the case's own scripts), and
 * the host's network only for setup that asks for it.
 */
export function checkView(options: { hidden: string[]; sandboxDir: string; homeDir: string; readable: string[]; caseDir: string; runDir: string; network: 'loopback' | 'host' }): SandboxView {
  return {
    writable: [options.sandboxDir, options.homeDir],
    readable: [...options.readable, options.caseDir, options.runDir],
    hidden: options.hidden,
    network: options.network,
  };
}

/** The top of the git checkout holding `dir` (a `.git` entry found walking up), if any. */
function repositoryOf(dir: string): string | undefined {
  let at = resolve(dir);
  for (;;) {
    if (existsSync(join(at, '.git'))) return at;
    const parent = dirname(at);
    if (parent === at) return undefined;
    at = parent;
  }
}
