import { inertMarkdown } from '../markdown/inertMarkdown.js';
import type { WorkflowPlacement, WorkflowUsageRow } from '../vocabulary/workflowUsage.js';

/**
 * review.md's "Workflow used" section: where the workflow was placed and, per item, whether
 * it was loaded and invoked, from which turn, on what evidence. Empty without a workflow.
 */
export function renderWorkflowUsed(rows: readonly WorkflowUsageRow[], placement: WorkflowPlacement | null): string {
  if (!placement && rows.length === 0) return '';
  const placed = (placement?.folders ?? []).map((folder) => `${folder.folder}/ ${folder.mode === 'inlined' ? `inlined into ${folder.path}` : `${folder.mode} at ${folder.path}`}`);
  const used = rows.filter((row) => row.invoked === 'yes' || row.loaded === 'yes').length;
  const lines = [
    '## Workflow used',
    `${used} of ${rows.length} workflow items used${placed.length > 0 ? ` (placement: ${placed.join('; ')})` : ''}.`,
    '',
    '| item | loaded | invoked | first turn | evidence |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.item} | ${row.loaded} | ${row.invoked} | ${row.first_turn ?? '–'} | ${cell(row.evidence ?? '')} |`),
  ];
  return lines.join('\n');
}

function cell(text: string): string {
  return inertMarkdown(text).replace(/\|/g, '\\|').replace(/\s+/g, ' ');
}
