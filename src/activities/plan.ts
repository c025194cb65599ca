import { FormatError } from '../errors.js';
import { loadEvalCase } from '../evalset/index.js';
import type { CaseRef, RunTemplate } from '../run/batchInput.js';
import { makeRunId } from '../run/runId.js';
import type { RunSpec } from '../run/runSpec.js';
import { toCaseSnapshot } from '../run/caseSnapshot.js';
import { hostTaskQueue } from '../temporal/names.js';
import type { ActivityDeps } from './deps.js';

export function planActivities(deps: ActivityDeps) {
  return {
    /** Which host queue this worker serves; the run's sandbox work is then pinned to it. */
    async claimHost(): Promise<string> {
      return hostTaskQueue(deps.hostId);
    },

    /** Run specs for one page of a batch: loads each case and refuses one changed since planning. */
    async planRuns({ batchId, stamp, refs, template }: { batchId: string; stamp: string; refs: CaseRef[]; template: RunTemplate }): Promise<RunSpec[]> {
      const specs: RunSpec[] = [];
      for (const ref of refs) {
        const evalCase = await loadEvalCase(ref.caseDir);
        if (evalCase.sha256 !== ref.hash) {
          throw new FormatError(`${ref.caseDir}: the eval case changed after batch ${batchId} was planned (hash ${ref.hash.slice(0, 12)} → ${evalCase.sha256.slice(0, 12)}); start a new batch`);
        }
        specs.push({
          runId: makeRunId(evalCase.id, template.candidate.name, stamp, ref.k),
          batchId,
          ...(ref.k !== undefined ? { k: ref.k } : {}),
          evalCase: toCaseSnapshot(evalCase),
          candidate: template.candidate,
          examiner: template.examiner,
          judge: template.judge,
          project: template.project,
          workflowDir: template.workflowDir,
          runsDir: template.runsDir,
          turnTimeoutS: template.turnTimeoutS,
          ...(template.recovery ? { recovery: template.recovery } : {}),
          createdAt: deps.now().toISOString(),
        });
      }
      return specs;
    },
  };
}

