import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TranscriptEventSchema, type TranscriptEvent } from '../../src/transcript/schema.js';
import { writeTranscriptFile } from '../../src/transcript/writeTranscriptFile.js';

const events: TranscriptEvent[] = [
  { run_id: 'r', turn: 1, seq: 0, attempt: 1, ts: '2025-01-01T00:00:00Z', role: 'examiner', content: 'line one\nline two' },
  {
    run_id: 'r',
    turn: 1,
    seq: 1,
    attempt: 1,
    ts: '2025-01-01T00:00:01Z',
    role: 'candidate.tool_call.completed',
    content: 'shell: go build → exit=0',
    tool: { id: 'c1', name: 'Bash', kind: 'shell', target: 'go build', exit_code: 0 },
    usage: { input_tokens: 10, output_tokens: 2 },
  },
];

async function readLines(path: string): Promise<TranscriptEvent[]> {
  const text = await readFile(path, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text.trimEnd().split('\n').map((line) => TranscriptEventSchema.parse(JSON.parse(line)));
}

describe('writeTranscriptFile', () => {
  it('writes one JSON line per event, in order, ending with a newline', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalflow-transcript-'));
    const path = join(dir, 'transcript.jsonl');
    await writeTranscriptFile(path, events);
    expect(await readLines(path)).toEqual(events);
    expect(await readdir(dir)).toEqual(['transcript.jsonl']);
  });

  it('rewrites the whole file, so a rebuilt view never duplicates lines', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalflow-transcript-'));
    const path = join(dir, 'transcript.jsonl');
    await writeFile(path, `${JSON.stringify(events[0])}\n${JSON.stringify(events[0])}\n`);
    await writeTranscriptFile(path, events);
    await writeTranscriptFile(path, events);
    expect(await readLines(path)).toEqual(events);
  });

  it('writes an empty file for no events', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalflow-transcript-'));
    const path = join(dir, 'transcript.jsonl');
    await writeTranscriptFile(path, []);
    expect(await readFile(path, 'utf8')).toBe('');
  });

  it('survives concurrent rewrites of the same file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalflow-transcript-'));
    const path = join(dir, 'transcript.jsonl');
    const many = Array.from({ length: 400 }, (_, i) => ({ ...events[0]!, seq: i }));
    await Promise.all(Array.from({ length: 8 }, () => writeTranscriptFile(path, many)));
    expect(await readLines(path)).toHaveLength(400);
    expect(await readdir(dir)).toEqual(['transcript.jsonl']);
  });
});
