import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { expandVariables } from '../evalset/expandVariables.js';
import type { RunAnomaly } from '../run/anomaly.js';
import { readEnvChecklist } from '../run/runFiles.js';
import { caseVariables } from '../run/runPaths.js';
import type { RunSpec } from '../run/runSpec.js';
import { dropTurnCheckpoints } from '../sandbox/checkpoint.js';
import { runCommands } from '../sandbox/checks.js';
import { removeWorktree } from '../sandbox/worktree.js';
import type { ActivityDeps } from './deps.js';
import { heartbeatWhile } from './temporalContext.js';
import { createRunRecord } from '../run/runRecord.js';

export interface CleanupReport {
  /** What went wrong while cleaning up; the run's record lists it. */
  anomalies: RunAnomaly[];
}

export function cleanupActivities(deps: ActivityDeps) {
  const record = createRunRecord(deps);
  return {
    /**
     * post_run_cleanup, then the sandbox, its turn checkpoints and the agent's home. Runs after
     * success, failure and cancellation, before the run is recorded; safe to repeat.
     */
    async cleanupRun(spec: RunSpec): Promise<CleanupReport> {
      const paths = record.paths(spec);
      const vars = caseVariables(spec, paths);
      const anomalies: RunAnomaly[] = [];
      if (existsSync(paths.sandboxDir) && spec.evalCase.env.post_run_cleanup.length > 0) {
        const done = await heartbeatWhile(() =>
          runCommands(spec.evalCase.env.post_run_cleanup.map((c) => expandVariables(c, vars)), { cwd: paths.sandboxDir, env: { ...vars } }),
        );
        for (const failed of done.filter((d) => d.exitCode !== 0)) {
          anomalies.push({ kind: 'cleanup', detail: `post_run_cleanup command failed (exit ${failed.exitCode ?? 'timeout'}): ${failed.command}` });
        }
      }
      const checklist = await readEnvChecklist(paths.runDir).catch(() => null);
      const repoDir = checklist?.project_repo ?? spec.project;
      await removeWorktree(repoDir, paths.sandboxDir);
      if (existsSync(repoDir)) await dropTurnCheckpoints(repoDir, paths.checkpointRefs);
      await rm(paths.hostDir, { recursive: true, force: true });
      return { anomalies };
    },
  };
}
