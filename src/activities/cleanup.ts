import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { expandVariables } from '../evalset/expandVariables.js';
import type { RunSpec } from '../run/runSpec.js';
import { readEnvChecklist } from '../run/runFiles.js';
import { dropTurnCheckpoints } from '../sandbox/checkpoint.js';
import { runCommands } from '../sandbox/checks.js';
import { removeWorktree } from '../sandbox/worktree.js';
import type { ActivityDeps } from './deps.js';
import { caseVariables, runPaths } from './runPaths.js';
import { heartbeatWhile } from './temporalContext.js';

export function cleanupActivities(deps: ActivityDeps) {
  return {
    /**
     * post_run_cleanup, then the worktree (git worktree remove --force, else delete + prune),
     * its turn checkpoint refs and the agent's home. Runs after success, failure and cancellation; safe to repeat.
     */
    async cleanupRun(spec: RunSpec): Promise<{ worktree: string; cleanupFailures: number }> {
      const paths = runPaths(spec, deps);
      const vars = caseVariables(spec, paths);
      let cleanupFailures = 0;
      if (existsSync(paths.sandboxDir) && spec.evalCase.env.post_run_cleanup.length > 0) {
        const done = await heartbeatWhile(() =>
          runCommands(spec.evalCase.env.post_run_cleanup.map((c) => expandVariables(c, vars)), { cwd: paths.sandboxDir, env: { ...vars } }),
        );
        cleanupFailures = done.filter((d) => d.exitCode !== 0).length;
      }
      const checklist = await readEnvChecklist(paths.runDir).catch(() => null);
      const repoDir = checklist?.project_repo ?? spec.project;
      const worktree = await removeWorktree(repoDir, paths.sandboxDir);
      if (existsSync(repoDir)) await dropTurnCheckpoints(repoDir, paths.checkpointRefs);
      await rm(dirname(paths.sandboxDir), { recursive: true, force: true });
      return { worktree, cleanupFailures };
    },
  };
}
