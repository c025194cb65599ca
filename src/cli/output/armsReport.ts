import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { BatchArm } from '../../run/batchInput.js';
import type { Store } from '../../store/index.js';
import { compareSides, comparisonLines, comparisonMarkdown, loadRunsWithVerdicts, loadTriggerObservations, triggerQuality, triggerQualityLines } from '../../summaries/index.js';
import { baselineFirst } from '../../vocabulary/armOrder.js';
import type { CommandIo } from '../io.js';

/**
 * The end of an A/B batch: each arm compared with the baseline (`baselineFirst`: the arm
 * without any workflow when there is one, else the first; regressions first), once and in that
 * one direction (B − A with A the baseline), printed and written to
 * `summaries/compare-<batch>.md`; the skills' trigger quality of the arms with the workflow
 * follows when one arm runs without it.
 */
export async function reportArms(store: Store, batchId: string, given: readonly BatchArm[], summariesDir: string, io: CommandIo): Promise<void> {
  const arms = baselineFirst(given);
  const base = arms[0]!;
  const sections: string[] = [];
  const entriesOf = async (arm: BatchArm) => ({ label: `${batchId}:${arm.name} (${arm.change})`, entries: await loadRunsWithVerdicts(store, { batchId, arm: arm.name }) });
  const a = await entriesOf(base);
  for (const arm of arms.slice(1)) {
    const b = await entriesOf(arm);
    const comparison = compareSides(a, b);
    io.out('');
    io.out(`comparison ${base.name} → ${arm.name}:`);
    const reading = readingOf(base, arm);
    if (reading) io.out(reading);
    for (const line of comparisonLines(comparison, io.cwd)) io.out(line);
    sections.push(comparisonMarkdown(`${batchId}: ${base.name} → ${arm.name}`, comparison, summariesDir, reading ?? undefined));
  }
  if (arms.some((arm) => arm.noWorkflow)) {
    for (const arm of arms.filter((x) => !x.noWorkflow)) {
      const runs = arm === base ? a.entries : await loadRunsWithVerdicts(store, { batchId, arm: arm.name });
      io.out('');
      for (const line of triggerQualityLines(arm.name, triggerQuality(await loadTriggerObservations(store, runs)))) io.out(line);
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

/** How to read a comparison whose one side has no workflow: a difference is then what the workflow adds, or its opposite. */
function readingOf(base: BatchArm, arm: BatchArm): string | null {
  if (arm.noWorkflow && !base.noWorkflow) return `(${arm.name} runs without the workflow: a regression is a case worse without it, so one the workflow helps)`;
  if (base.noWorkflow && !arm.noWorkflow) return `(${base.name} runs without the workflow: a regression is a case the workflow makes worse)`;
  return null;
}
