import type { WorkflowPlacement } from '../vocabulary/workflowUsage.js';

/** Folders whose items are triggered (not just followed): inlined, their triggering cannot be measured. */
const TRIGGERED = ['agents', 'commands', 'skills'];

/** The inlined folders of skills, commands or subagents and the file they went into; null when none was inlined. */
export function inlinedTriggers(placement: WorkflowPlacement | null): { folders: string[]; file: string } | null {
  const inlined = (placement?.folders ?? []).filter((folder) => folder.mode === 'inlined' && TRIGGERED.includes(folder.folder));
  if (inlined.length === 0) return null;
  return { folders: inlined.map((folder) => folder.folder), file: inlined[0]!.path };
}
