// Throughput of evalflow's hot pure paths, each as a ratio against a baseline run in the same
// process on the same input (these machines are noisy: absolute times mean little, ratios do).
//
//   npm run bench
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { getCandidateAdapter } from '../src/candidates/index.js';
import { readExamples } from '../src/editprediction/index.js';
import { deltaChrF } from '../src/editprediction/metrics/deltaChrF.js';
import { compactTranscript } from '../src/judge/index.js';
import type { TranscriptEvent } from '../src/transcript/schema.js';

const ROOT = resolve(import.meta.dirname, '..');

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

function report(name: string, subject: () => unknown, baseline: () => unknown, baselineName: string, batch: number): void {
  subject();
  baseline(); // warm both
  const s = measure(subject, batch);
  const b = measure(baseline, batch);
  console.log(`${name.padEnd(52)} ${(s / b).toFixed(2).padStart(7)}× ${baselineName} (${s.toFixed(3)} ms vs ${b.toFixed(3)} ms per call)`);
}

// 1. Stream normalisation: every captured agent stream through its adapter's normaliser,
//    against JSON.parse of the same lines (the floor of any JSONL reader).
const streams = readdirSync(join(ROOT, 'test/fixtures/agent-streams'))
  .filter((f) => f.endsWith('.jsonl') && !f.endsWith('.expected.jsonl'))
  .map((f) => ({ adapter: ({ claude: 'claude-code', qwen: 'qwen-code' } as Record<string, string>)[f.split('-')[0]!] ?? f.split('-')[0]!, lines: readFileSync(join(ROOT, 'test/fixtures/agent-streams', f), 'utf8').split('\n').filter(Boolean) }));
report(
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

// 2. Judge compaction of a 2 MB transcript (elided to 160 KB), against serialising it once.
const events: TranscriptEvent[] = Array.from({ length: 8_000 }, (_, i) => ({
  run_id: 'bench',
  turn: 1 + Math.floor(i / 400),
  seq: i,
  attempt: 1,
  ts: '2026-01-01T00:00:00.000Z',
  role: i % 4 === 0 ? 'candidate.thinking' : i % 4 === 1 ? 'candidate.tool_call.completed' : i % 4 === 2 ? 'candidate.assistant_partial' : 'candidate',
  content: `event ${i} `.repeat(25),
}));
report('compact a 2 MB transcript for the judge', () => compactTranscript(events), () => JSON.stringify(events), 'JSON.stringify of it', 5);

// 3. Delta chrF on the Zed corpus examples (expected patch vs a no-op prediction), against
//    splitting the same texts into characters (the metric's own first step).
const examples = await readExamples(readdirSync(join(ROOT, 'test/fixtures/editprediction/zed-evals')).filter((f) => f.endsWith('.md')).map((f) => join(ROOT, 'test/fixtures/editprediction/zed-evals', f)));
const texts = examples.map((e) => e.cursor_position);
report(
  `delta chrF on ${texts.length} Zed excerpts (edited vs original)`,
  () => {
    for (const text of texts) deltaChrF(text, `${text}\n// edited`, text.replace(/\s+/, ' '));
  },
  () => {
    let chars = 0;
    for (const text of texts) chars += [...text, ...`${text}\n// edited`, ...text.replace(/\s+/, ' ')].length;
    return chars;
  },
  'Array.from of the three texts',
  20,
);
