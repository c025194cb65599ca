import { resolve } from 'node:path';
import { loadEvalBank } from '../evalset/index.js';
import type { SelectionFlags } from './selectionFlags.js';

/** The selection flags that change the settings (a flag given wins over the config file). */
export function selectionOverrides(flags: SelectionFlags): Pick<SelectionFlags, 'project' | 'workflowDir' | 'runsDir' | 'candidate' | 'candidateModel'> {
  return {
    ...(flags.project ? { project: flags.project } : {}),
    ...(flags.workflowDir ? { workflowDir: flags.workflowDir } : {}),
    ...(flags.runsDir ? { runsDir: flags.runsDir } : {}),
    ...(flags.candidate ? { candidate: flags.candidate } : {}),
    ...(flags.candidateModel ? { candidateModel: flags.candidateModel } : {}),
  };
}

export interface SelectedCases {
  /** The bank folders, absolute (the config's eval_sets when none is given). */
  paths: string[];
  only?: string[];
  bank: Awaited<ReturnType<typeof loadEvalBank>>;
}

/** The cases the flags select, loaded and checked; the caller says what the bank's problems mean for it. */
export async function selectCases(flags: SelectionFlags, evalSets: string, cwd: string): Promise<SelectedCases> {
  const paths = flags.paths?.length ? flags.paths.map((p) => resolve(cwd, p)) : [evalSets];
  const only = flags.only?.split(',').map((s) => s.trim()).filter(Boolean);
  const bank = await loadEvalBank(paths, { cwd, ...(only ? { only } : {}) });
  return { paths, ...(only ? { only } : {}), bank };
}
