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
  };
}

/** ${SANDBOX_DIR}, ${RUN_DIR}, ${CASE_DIR} of env.yaml, also exported to every check. */
export function caseVariables(spec: RunSpec, paths: RunPaths): { SANDBOX_DIR: string; RUN_DIR: string; CASE_DIR: string } {
  return { SANDBOX_DIR: paths.sandboxDir, RUN_DIR: paths.runDir, CASE_DIR: spec.evalCase.dir };
}
