import type { CheckResult } from '../evalset/checkResult.js';
import { expandVariables } from '../evalset/expandVariables.js';
import { InternalError } from '../errors.js';
import { readEnvChecklist, updateEnvChecklist } from '../run/runFiles.js';
import { localCaseDir } from '../run/caseFolder.js';
import { caseVariables } from '../run/runPaths.js';
import type { RunSpec } from '../run/runSpec.js';
import { runStageChecks } from '../sandbox/stageChecks.js';
import type { RestoredPath } from '../vocabulary/restoredPath.js';
import { restoreProtected } from '../sandbox/restoreProtected.js';
import { createRedactor } from '../transcript/redact.js';
import type { ActivityDeps } from './deps.js';
import { runViewsOf } from './runViews.js';
import { heartbeatWhile } from './temporalContext.js';
import { createRunRecord } from '../run/runRecord.js';
import { recordWorkflowUsage } from '../run/runWorkflowUsage.js';

export function verifyActivities(deps: ActivityDeps) {
  const record = createRunRecord(deps);
  return {
    /**
     * Postconditions, after the dialogue; their results go to the judge as evidence. First
     * the case's protected paths are put back as they are at the revision, so the checks
     * run on the case's tests, not the candidate's edits of them. The
     * run's workflow usage is detected here too (it reads the snapshot on this host) and
     * stored, where the judge and the record find it.
     */
    async verifyRun(spec: RunSpec): Promise<CheckResult[]> {
      const paths = record.paths(spec);
      const vars = caseVariables(await localCaseDir(deps, spec.evalCase), paths);
      const redact = createRedactor(deps.env);
      // Before the first postcondition, so none of them runs on a test the candidate edited.
      const restored = await restoreProtectedPaths(spec, paths.runDir, paths.sandboxDir);
      const views = await runViewsOf(deps, spec, paths);
      const contained = views ? { view: views.check('loopback'), home: paths.homeDir } : {};
      const conditions = spec.evalCase.env.postconditions.map((condition) => ({ ...condition, check: expandVariables(condition.check, vars) }));
      // Their sandbox has ended when this returns: nothing they started runs beside the judge.
      const checked = await heartbeatWhile(() => runStageChecks(conditions, { cwd: paths.sandboxDir, env: { ...vars }, ...contained }));
      const results: CheckResult[] = checked.map((result) => ({ ...result, output: redact(result.output) }));
      await updateEnvChecklist(paths.runDir, { postconditions: results, ...(restored ? { protected_restored: restored } : {}) });
      await recordWorkflowUsage(deps, spec, paths.workflowSnapshot, deps.candidates.workflowSupport(spec.candidate.adapter));
      return results;
    },
  };
}

/**
 * env.yaml `protected`, put back from the revision prepare recorded in env_checklist.yaml (the
 * host's project repository, which the candidate never had in reach). Undefined when the case
 * protects nothing; the runRecord turns a non-empty list into the run's anomaly.
 */
async function restoreProtectedPaths(spec: RunSpec, runDir: string, sandboxDir: string): Promise<RestoredPath[] | undefined> {
  const paths = spec.evalCase.env.protected;
  if (!paths || paths.length === 0) return undefined;
  const checklist = await readEnvChecklist(runDir);
  if (!checklist) throw new InternalError(`env_checklist.yaml missing in ${runDir}: prepareRun records the project revision protected paths are restored from`);
  const restored = await heartbeatWhile(() => restoreProtected(sandboxDir, { repoDir: checklist.project_repo, rev: checklist.project_rev }, paths));
  // A retried or resumed verify finds the paths already restored: what an earlier attempt did still counts.
  const earlier = (checklist.protected_restored ?? []).filter((known) => !restored.some((now) => now.path === known.path));
  return [...earlier, ...restored];
}
