import { join } from 'node:path';
import type { RunSpec } from './runSpec.js';

/**
 * Where one run's files are. The run directory is kept; everything under the host directory
 * (the sandbox, the agent's private HOME, turn checkpoints, records of running agent
 * processes) belongs to this host and is removed at cleanup.
 */
export interface RunPaths {
  runDir: string;
  workflowSnapshot: string;
  transcriptFile: string;
  /** `<sandboxRoot>/<runId>`: this run's corner of the host. */
  hostDir: string;
  sandboxDir: string;
  homeDir: string;
  /** Turn checkpoints: the sandbox's files as git objects of their own, and copies of the agent's HOME. */
  checkpointsDir: string;
  /** One file per running agent process group, so a later attempt, cleanup or worker start can kill leftovers. */
  processesDir: string;
  excludesFile: string;
  /** Where the sandbox goes back to at cleanup (sandbox/sandboxPool.ts), when it came from a pool. */
  poolNote: string;
  /** Ref namespace of the run's turn checkpoints; refs are shared by all worktrees, so cleanup deletes them. */
  checkpointRefs: string;
}

export function runPaths(spec: Pick<RunSpec, 'runId' | 'runsDir'>, sandboxRoot: string): RunPaths {
  const runDir = join(spec.runsDir, spec.runId);
  const hostDir = join(sandboxRoot, spec.runId);
  return {
    runDir,
    workflowSnapshot: join(runDir, 'workflow'),
    transcriptFile: join(runDir, 'transcript.jsonl'),
    hostDir,
    sandboxDir: join(hostDir, 'work'),
    homeDir: join(hostDir, 'home'),
    checkpointsDir: join(hostDir, 'checkpoints'),
    processesDir: join(hostDir, 'processes'),
    excludesFile: join(hostDir, 'git-exclude'),
    poolNote: join(hostDir, 'pool.json'),
    checkpointRefs: `refs/evalflow/${spec.runId.replace(/[^A-Za-z0-9._-]/g, '_')}`,
  };
}

/**
 * ${SANDBOX_DIR}, ${RUN_DIR}, ${CASE_DIR} of env.yaml, also exported to every check. `caseDir`
 * is the case folder on this host (`localCaseDir`): a travelled case's own copy.
 */
export function caseVariables(caseDir: string, paths: RunPaths): { SANDBOX_DIR: string; RUN_DIR: string; CASE_DIR: string } {
  return { SANDBOX_DIR: paths.sandboxDir, RUN_DIR: paths.runDir, CASE_DIR: caseDir };
}
