import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { BatchArm } from '../../run/batchInput.js';
import type { Store } from '../../store/index.js';
import { compareSides, comparisonLines, comparisonMarkdown, loadRunsWithVerdicts, loadTriggerObservations, triggerQuality, triggerQualityLines, workflowImpact } from '../../summaries/index.js';
import type { CommandIo } from '../io.js';

/**
 * The end of an A/B batch: each arm compared with the first (regressions first), printed and
 * written to `summaries/compare-<batch>.md`. An arm without any workflow (`workflow=none`) also
 * gives the workflow's impact, worst cases first, and the skills' trigger quality.
 */
export async function reportArms(store: Store, batchId: string, arms: readonly BatchArm[], summariesDir: string, io: CommandIo): Promise<void> {
  const base = arms[0]!;
  const sections: string[] = [];
  for (const arm of arms.slice(1)) {
    const a = { label: `${batchId}:${base.name} (${base.change})`, entries: await loadRunsWithVerdicts(store, { batchId, arm: base.name }) };
    const b = { label: `${batchId}:${arm.name} (${arm.change})`, entries: await loadRunsWithVerdicts(store, { batchId, arm: arm.name }) };
    const comparison = compareSides(a, b);
    io.out('');
    io.out(`comparison ${base.name} → ${arm.name}:`);
    for (const line of comparisonLines(comparison, io.cwd)) io.out(line);
    sections.push(comparisonMarkdown(`${batchId}: ${base.name} → ${arm.name}`, comparison, summariesDir));
    if (arm.noWorkflow && !base.noWorkflow) {
      // The arm without any workflow measures what the workflow adds: worst cases first.
      const impact = workflowImpact(a, b);
      io.out('');
      io.out(`workflow impact (A = ${arm.name} without the workflow, B = ${base.name} with it; cases worse with the workflow first):`);
      for (const line of comparisonLines(impact, io.cwd)) io.out(line);
      for (const line of triggerQualityLines(base.name, triggerQuality(await loadTriggerObservations(store, a.entries)))) io.out(line);
      sections.push(comparisonMarkdown(`${batchId}: workflow impact (${arm.name} → ${base.name}; worse with the workflow first)`, impact, summariesDir));
    }
  }
  await mkdir(summariesDir, { recursive: true });
  const file = join(summariesDir, `compare-${batchId}.md`);
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, sections.join('\n'));
  await rename(tmp, file);
  io.out('');
  io.out(`comparison written to ${relative(io.cwd, file) || file} (again at any time: evalflow compare --batch ${batchId} ${base.name} ${arms[1]!.name})`);
}
