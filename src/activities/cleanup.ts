import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { expandVariables } from '../evalset/expandVariables.js';
import type { RunAnomaly } from '../vocabulary/anomaly.js';
import { localCaseDir } from '../run/caseFolder.js';
import { caseVariables } from '../run/runPaths.js';
import { createRunRecord } from '../run/runRecord.js';
import type { RunSpec } from '../run/runSpec.js';
import { killLeftovers } from '../sandbox/agentProcesses.js';
import { runCommands } from '../sandbox/checks.js';
import { poolSize, releaseSandbox } from '../sandbox/sandboxPool.js';
import type { ActivityDeps } from './deps.js';
import { runViewsOf } from './runViews.js';

export interface CleanupReport {
  /** What went wrong while cleaning up; the run's record lists it. */
  anomalies: RunAnomaly[];
  /** The sandbox was kept on this host for `evalflow resume`. */
  parked: boolean;
}

export function cleanupActivities(deps: ActivityDeps) {
  const record = createRunRecord(deps);
  return {
    /**
     * Ends everything of the run on this host: post_run_cleanup, then every process still
     * working in its folders, then the sandbox (given back to the host's pool, scrubbed, for
     * the next run of the project), its turn checkpoints and the agent's home.
     * With `park`, the sandbox, home and checkpoints are kept (processes are still killed) so
     * that `evalflow resume` can continue the run. Runs after success, failure and
     * cancellation, before the run is recorded; safe to repeat.
     */
    async cleanupRun({ spec, park = false }: { spec: RunSpec; park?: boolean }): Promise<CleanupReport> {
      const paths = record.paths(spec);
      const vars = caseVariables(await localCaseDir(deps, spec.evalCase), paths);
      const anomalies: RunAnomaly[] = [];
      const parked = park && existsSync(paths.sandboxDir);
      if (!parked && existsSync(paths.sandboxDir) && spec.evalCase.env.post_run_cleanup.length > 0) {
        try {
          const views = await runViewsOf(deps, spec, paths);
          const contained = views ? { view: views.check('loopback'), home: paths.homeDir } : {};
          const done = await runCommands(spec.evalCase.env.post_run_cleanup.map((c) => expandVariables(c, vars)), { cwd: paths.sandboxDir, env: { ...vars }, ...contained });
          for (const failed of done.filter((d) => d.exitCode !== 0)) {
            anomalies.push({ kind: 'cleanup', detail: `post_run_cleanup command failed (exit ${failed.exitCode ?? 'timeout'}): ${failed.command}` });
          }
        } catch (err) {
          // Cleanup goes on whatever happens here: the processes and the sandbox still go.
          anomalies.push({ kind: 'cleanup', detail: `post_run_cleanup did not run: ${err instanceof Error ? err.message : String(err)}` });
        }
      }
      const killed = await killLeftovers({ processesDir: paths.processesDir, dirs: [paths.sandboxDir, paths.homeDir], scan: 'all' });
      if (killed.survivors.length > 0) {
        anomalies.push({ kind: 'cleanup', detail: `${killed.survivors.length} process(es) in the sandbox survived SIGKILL (pids ${killed.survivors.join(', ')})` });
      }
      if (!parked) {
        // A sandbox no process survived in goes back to its pool scrubbed; the rest of the host folder goes.
        if (killed.survivors.length === 0 && existsSync(paths.sandboxDir)) await releaseSandbox(paths.sandboxDir, paths.poolNote, poolSize(deps.env));
        await rm(paths.hostDir, { recursive: true, force: true });
      }
      return { anomalies, parked };
    },
  };
}
