import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../../src/commands/candidates.js';
import { memoryIo } from '../../../src/cli/io.js';
import { TranscriptEventSchema } from '../../../src/transcript/schema.js';

/** Copies of shared/corpus/agent-streams (real captures), beside the transcripts they must become. */
const FIXTURES = join(import.meta.dirname, '../../fixtures/agent-streams');
const NOW = new Date('2000-01-01T00:00:00.000Z');

/** Every captured stream, grouped as consecutive turns of one session (turn 2 is differenced against turn 1). */
const SESSIONS: { adapter: string; files: string[]; sessionIds: string[] }[] = [
  { adapter: 'claude-code', files: ['claude-turn1', 'claude-turn2-resume'], sessionIds: ['11111111-2222-4333-8444-555555555555', '11111111-2222-4333-8444-555555555555'] },
  { adapter: 'claude-code', files: ['claude-partial-messages'], sessionIds: ['d4ca9130-78a7-4bf4-a91b-b92e568b9c89'] },
  { adapter: 'codebuddy', files: ['codebuddy-turn1', 'codebuddy-turn2-resume'], sessionIds: ['44444444-5555-4666-8777-888888888888', '44444444-5555-4666-8777-888888888888'] },
  { adapter: 'codebuddy', files: ['codebuddy-partial-messages'], sessionIds: ['19d85da9-190b-49f5-8a1b-899e17e2c13a'] },
  { adapter: 'qwen-code', files: ['qwen-turn1', 'qwen-turn2-resume'], sessionIds: ['33333333-4444-4555-8666-777777777777', '33333333-4444-4555-8666-777777777777'] },
  { adapter: 'qwen-code', files: ['qwen-partial-messages'], sessionIds: ['38c26d2e-c9b9-4512-abf3-6dc64a40215f'] },
  { adapter: 'codex', files: ['codex-turn1', 'codex-turn2-resume'], sessionIds: ['01a227dc-9088-7662-bbc3-1829528ef1da', '01a227dc-9088-7662-bbc3-1829528ef1da'] },
  { adapter: 'gemini', files: ['gemini-turn1', 'gemini-turn2-resume'], sessionIds: ['22222222-3333-4444-8555-666666666666', '22222222-3333-4444-8555-666666666666'] },
  { adapter: 'opencode', files: ['opencode-turn1-thinking', 'opencode-turn2-resume'], sessionIds: ['ses_dd821da73ffeIGBR4ZT3ohRrSU', 'ses_dd8223548ffeVKV6TkZBSxk05Z'] },
];

describe('captured agent streams', () => {
  it('covers every captured stream', async () => {
    const names = await readdir(FIXTURES);
    const streams = names.filter((f) => f.endsWith('.jsonl') && !f.endsWith('.expected.jsonl')).map((f) => f.replace(/\.jsonl$/, ''));
    expect(streams).toHaveLength(15);
    expect(SESSIONS.flatMap((s) => s.files).sort()).toEqual(streams.sort());
    for (const stream of streams) expect(names).toContain(`${stream}.expected.jsonl`);
  });

  for (const session of SESSIONS) {
    it(`${session.files.join(' + ')} normalise to the checked-in transcripts`, async () => {
      const io = memoryIo(FIXTURES);
      const code = await run({ normalize: { adapter: session.adapter, files: session.files.map((f) => `${f}.jsonl`) } }, io, { now: () => NOW });
      expect(code).toBe(0);
      for (const [index, file] of session.files.entries()) {
        const expected = (await readFile(join(FIXTURES, `${file}.expected.jsonl`), 'utf8')).trim().split('\n');
        const actual = io.stdout.filter((line) => (JSON.parse(line) as { turn: number }).turn === index + 1);
        expect(actual).toEqual(expected);
        for (const line of actual) TranscriptEventSchema.parse(JSON.parse(line));
        expect(io.stderr[index]).toContain(`session ${session.sessionIds[index]}`);
        expect(io.stderr[index]).toContain('0 ignored lines');
      }
    });
  }
});
