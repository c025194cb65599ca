import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { BatchArm } from '../run/batchInput.js';
import type { Store } from '../store/index.js';
import { compareSides, comparisonLines, comparisonMarkdown, loadRunsWithVerdicts } from '../summaries/index.js';
import type { CommandIo } from './io.js';

/**
 * The end of an A/B batch: each arm compared with the first (regressions first), printed and
 * written to `summaries/compare-<batch>.md`.
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
  }
  await mkdir(summariesDir, { recursive: true });
  const file = join(summariesDir, `compare-${batchId}.md`);
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, sections.join('\n'));
  await rename(tmp, file);
  io.out('');
  io.out(`comparison written to ${relative(io.cwd, file) || file} (again at any time: evalflow compare --batch ${batchId} ${base.name} ${arms[1]!.name})`);
}
