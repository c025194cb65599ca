// Stream normalisation: every captured agent stream through its adapter's normaliser, against
// JSON.parse of the same lines (the floor of any JSONL reader), in the same process.
//
//   node --import tsx bench/normalize.ts
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { getCandidateAdapter } from '../src/candidates/index.js';
import { row, writeResult } from './support/benchResult.js';

const ROOT = resolve(import.meta.dirname, '..');
const started = Date.now();

/** Median time per call of `fn` in ms, over `rounds` rounds of `batch` calls. */
function measure(fn: () => unknown, batch: number, rounds = 9): number {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6 / batch);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

function report(name: string, subject: () => unknown, baseline: () => unknown, baselineName: string, batch: number) {
  subject();
  baseline(); // warm both
  const s = measure(subject, batch);
  const b = measure(baseline, batch);
  return row(name, s / b, '×', { against: baselineName, detail: `${s.toFixed(3)} ms vs ${b.toFixed(3)} ms per call` });
}

const streams = readdirSync(join(ROOT, 'test/fixtures/agent-streams'))
  .filter((f) => f.endsWith('.jsonl') && !f.endsWith('.expected.jsonl'))
  .map((f) => ({ adapter: ({ claude: 'claude-code', qwen: 'qwen-code' } as Record<string, string>)[f.split('-')[0]!] ?? f.split('-')[0]!, lines: readFileSync(join(ROOT, 'test/fixtures/agent-streams', f), 'utf8').split('\n').filter(Boolean) }));
const normalise = report(
  'normalise 15 captured agent streams',
  () => {
    for (const stream of streams) {
      const normalizer = getCandidateAdapter(stream.adapter).normalizer!({});
      for (const line of stream.lines) normalizer.push(line);
      normalizer.end({ exitCode: 0, stderrTail: '' });
    }
  },
  () => {
    for (const stream of streams) for (const line of stream.lines) JSON.parse(line);
  },
  'JSON.parse of the same lines',
  20,
);
writeResult({ name: 'normalize', title: 'Agent stream normalisation', rows: [normalise], notes: [] }, started);
