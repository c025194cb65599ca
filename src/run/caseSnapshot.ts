import type { EvalCase } from '../evalset/index.js';
import type { CaseSnapshot } from './runSpec.js';

/** What a run carries of its eval case: the texts the examiner and judge need, and its identity. */
export function toCaseSnapshot(evalCase: EvalCase): CaseSnapshot {
  return {
    id: evalCase.id,
    version: evalCase.meta.version,
    hash: evalCase.sha256,
    dir: evalCase.dir,
    maxTurns: evalCase.meta.max_turns,
    targetWorkflow: evalCase.meta.target_workflow,
    category: evalCase.meta.category,
    purpose: evalCase.meta.purpose,
    tags: evalCase.meta.tags,
    task: evalCase.task,
    rubric: evalCase.rubric,
    env: evalCase.env,
    ...(evalCase.meta.expect_workflow ? { expectWorkflow: evalCase.meta.expect_workflow } : {}),
  };
}
