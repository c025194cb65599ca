import type { CheckResult } from '../evalset/checkResult.js';
import { expandVariables } from '../evalset/expandVariables.js';
import { updateEnvChecklist } from '../run/runFiles.js';
import { caseVariables } from '../run/runPaths.js';
import type { RunSpec } from '../run/runSpec.js';
import { runCheck } from '../sandbox/checks.js';
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
     * Postconditions, after the dialogue; their results go to the judge as evidence. The
     * run's workflow usage is detected here too (it reads the snapshot on this host) and
     * stored, where the judge and the record find it.
     */
    async verifyRun(spec: RunSpec): Promise<CheckResult[]> {
      const paths = record.paths(spec);
      const vars = caseVariables(spec, paths);
      const redact = createRedactor(deps.env);
      const results: CheckResult[] = [];
      const views = await runViewsOf(deps, spec, paths);
      const contained = views ? { view: views.check('loopback'), home: paths.homeDir } : {};
      for (const condition of spec.evalCase.env.postconditions) {
        const result = await heartbeatWhile(() =>
          runCheck({ ...condition, check: expandVariables(condition.check, vars) }, { cwd: paths.sandboxDir, env: { ...vars }, ...contained }),
        );
        results.push({ ...result, output: redact(result.output) });
      }
      await updateEnvChecklist(paths.runDir, { postconditions: results });
      await recordWorkflowUsage(deps, spec, paths.workflowSnapshot, deps.candidates.workflowSupport(spec.candidate.adapter));
      return results;
    },
  };
}
