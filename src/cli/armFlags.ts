import { knownAdapterNames } from '../candidates/index.js';
import type { CandidateSpec } from '../candidates/adapter.js';
import { resolveCandidate, type Settings } from '../config.js';
import type { BatchArm } from '../run/batchInput.js';
import { resolveArms } from '../run/arms.js';
import { checkWorkflowFolder } from '../sandbox/workflowSnapshot.js';
import type { CommandIo } from './io.js';

/** `--arm` values against the settings: an arm naming another candidate gets it resolved as the default one is. */
export function resolveArmFlags(given: readonly string[], settings: Settings, base: CandidateSpec, io: Pick<CommandIo, 'cwd' | 'env'>): Promise<BatchArm[]> {
  return resolveArms(given, {
    workflowDir: settings.workflowDir,
    base,
    candidateNamed: (name) => resolveCandidate(settings, name, knownAdapterNames, io.env),
    cwd: io.cwd,
    checkWorkflowFolder,
  });
}
