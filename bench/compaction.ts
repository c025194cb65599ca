// 5. Compaction: a generated 100 MB transcript.jsonl compacted for the judge as a stream (read,
// parse, render, cut), against one bare line-by-line read of the same file. Each side runs in
// its own child process, alternated, so the peak RSS reported is that side's whole process.
// Goals: ≤ 3× the bare read, peak RSS ≤ 150 MB.
//
//   node --import tsx bench/compaction.ts
import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { compactTranscriptStream } from '../src/judge/index.js';
import type { TranscriptEvent } from '../src/transcript/schema.js';
import { row, writeResult } from './support/benchResult.js';
import { median } from './support/measure.js';

const TARGET_BYTES = 100 * 2 ** 20;
const ROUNDS = 3;

async function generate(file: string): Promise<number> {
  const out = createWriteStream(file);
  let bytes = 0;
  let seq = 0;
  const roles = ['examiner', 'candidate.thinking', 'candidate.tool_call.started', 'candidate.tool_call.completed', 'candidate.assistant_partial', 'candidate'] as const;
  while (bytes < TARGET_BYTES) {
    const role = roles[seq % roles.length]!;
    const tool = role.startsWith('candidate.tool_call') ? { id: `call-${Math.floor(seq / roles.length)}`, name: 'Bash', kind: 'shell' } : undefined;
    const event = {
      run_id: 'run-bench-compaction@20260101T000000',
      turn: 1 + Math.floor(seq / 600),
      seq,
      attempt: 1,
      ts: '2026-01-01T00:00:00.000Z',
      role,
      content: `${role} ${seq}: ${'the agent reads the file, runs the tests and edits the code '.repeat(1 + (seq % 7))}\n${seq % 5 === 0 ? 'a second line — ünïcode 中文' : ''}`,
      ...(tool ? { tool } : {}),
    };
    const line = `${JSON.stringify(event)}\n`;
    bytes += Buffer.byteLength(line);
    seq++;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return seq;
}

async function* events(file: string): AsyncGenerator<TranscriptEvent> {
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) if (line !== '') yield JSON.parse(line) as TranscriptEvent;
}

/** In a child: one side once; prints its time and the process's peak RSS. */
async function child(side: string, file: string): Promise<void> {
  const start = performance.now();
  let detail = '';
  if (side === 'bare') {
    let lines = 0;
    for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) if (line !== '') lines++;
    detail = `${lines} lines`;
  } else {
    const compact = await compactTranscriptStream(events(file));
    detail = `${compact.events} events rendered, ${Buffer.byteLength(compact.text)} bytes kept`;
  }
  const ms = performance.now() - start;
  console.log(JSON.stringify({ ms, peakRssMiB: process.resourceUsage().maxRSS / 1024, detail }));
}

async function main(): Promise<void> {
  if (process.argv[2] === '--child') return child(process.argv[3]!, process.argv[4]!);
  const started = Date.now();
  const dir = await mkdtemp(join(tmpdir(), 'evalflow-bench-compaction-'));
  try {
    const file = join(dir, 'transcript.jsonl');
    const count = await generate(file);
    const size = (await stat(file)).size;
    const run = (side: string) =>
      JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', side, file], { encoding: 'utf8' })) as { ms: number; peakRssMiB: number; detail: string };
    const bare: ReturnType<typeof run>[] = [];
    const compact: ReturnType<typeof run>[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      bare.push(run('bare'));
      compact.push(run('compact'));
    }
    const bareMs = median(bare.map((m) => m.ms));
    const compactMs = median(compact.map((m) => m.ms));
    writeResult(
      {
        name: 'compaction',
        title: 'Judge compaction of a 100 MB transcript',
        rows: [
          row('stream compaction time', compactMs / bareMs, '×', { against: 'a bare line-by-line read', goal: '<= 3', detail: `${compactMs.toFixed(0)} ms vs ${bareMs.toFixed(0)} ms, medians of ${ROUNDS}` }),
          row('peak RSS of the compacting process', Math.max(...compact.map((m) => m.peakRssMiB)), 'MiB', { goal: '<= 150', detail: `the bare read's process: ${Math.max(...bare.map((m) => m.peakRssMiB)).toFixed(0)} MiB` }),
        ],
        notes: [`${(size / 2 ** 20).toFixed(0)} MiB, ${count} events; ${compact[0]!.detail}`],
      },
      started,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
