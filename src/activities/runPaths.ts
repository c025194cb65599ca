import { join } from 'node:path';
import type { RunSpec } from '../run/runSpec.js';
import type { ActivityDeps } from './deps.js';

/** Where one run's files are: the run directory (kept) and its sandbox and agent home (removed at cleanup). */
export interface RunPaths {
  runDir: string;
  workflowSnapshot: string;
  sandboxDir: string;
  homeDir: string;
  excludesFile: string;
  transcriptFile: string;
  /** Ref namespace of the run's turn checkpoints; refs are shared by all worktrees, so cleanup deletes them. */
  checkpointRefs: string;
}

export function runPaths(spec: RunSpec, deps: Pick<ActivityDeps, 'sandboxRoot'>): RunPaths {
  const runDir = join(spec.runsDir, spec.runId);
  const hostDir = join(deps.sandboxRoot, spec.runId);
  return {
    runDir,
    workflowSnapshot: join(runDir, 'workflow'),
    sandboxDir: join(hostDir, 'work'),
    homeDir: join(hostDir, 'home'),
    excludesFile: join(hostDir, 'git-exclude'),
    transcriptFile: join(runDir, 'transcript.jsonl'),
    checkpointRefs: `refs/evalflow/${spec.runId.replace(/[^A-Za-z0-9._-]/g, '_')}`,
  };
}

/** ${SANDBOX_DIR}, ${RUN_DIR}, ${CASE_DIR} of env.yaml, also exported to every check. */
export function caseVariables(spec: RunSpec, paths: RunPaths): { SANDBOX_DIR: string; RUN_DIR: string; CASE_DIR: string } {
  return { SANDBOX_DIR: paths.sandboxDir, RUN_DIR: paths.runDir, CASE_DIR: spec.evalCase.dir };
}
