import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Candidate, TurnRequest } from '../../src/candidates/adapter.js';
import { memoryIo } from '../../src/cli/io.js';
import { run as runs } from '../../src/commands/runs.js';
import { createEvalHarness, type EvalHarness } from '../support/evalHarness.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

const writer: Candidate = {
  async runTurn(request: TurnRequest) {
    await writeFile(join(request.sandboxDir, 'greeting.txt'), 'hello\n');
    request.onEvent({ role: 'candidate', content: 'done' });
    return { reply: 'done', session: {} };
  },
};

const verdict = (result: 'pass' | 'fail') => ({
  text: `reasoning: 'r'\nresult: ${result}\ncompliance: 3\nexecution_quality: 3\noverall: 3\nsummary: 's'\nhard_requirements:\n  - item: 'greeting.txt exists'\n    met: ${result === 'pass'}\n    evidence: 'e'\nsuggestions: []\n`,
});

const caseFiles = (id: string) => ({
  'meta.yaml': `id: ${id}\nversion: v1\ntarget_workflow: t\ncategory: c\npurpose: p\nmax_turns: 1\n`,
  'task.md': `## Prompt\n\n> Write greeting.txt for ${id}.\n\n## Scenario\n\nA user.\n\n## Guidance\n\nEnd at once.\n`,
  'rubric.md': '## Hard requirements\n\n- greeting.txt exists\n\n## Quality\n\n## Common failures\n',
  'env.yaml': '',
});

describe('evalflow runs --query', () => {
  let temporal: TestTemporal;
  let harness: EvalHarness;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    harness = await createEvalHarness({
      backend: 'postgres',
      temporal,
      // The judge fails case `sour`, passes the others.
      script: (request) => (request.model === 'test-judge' ? verdict(request.messages.some((m) => m.content.includes('for sour')) ? 'fail' : 'pass') : { text: '<<END>>' }),
      fakeCandidates: { writer },
    });
    await harness.writeCase('sweet', caseFiles('sweet'));
    await harness.writeCase('sour', caseFiles('sour'));
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
    await temporal?.stop();
  });

  const query = async (q: string) => {
    const io = memoryIo(harness.root, { ...harness.env, ...harness.storeEnv, TEMPORAL_ADDRESS: temporal.address });
    const code = await runs({ query: q }, io);
    return { code, io };
  };

  it('passes a visibility query through to Temporal and prints the matching runs from the store', { timeout: 120_000 }, async () => {
    const candidate = { name: 'writer', adapter: 'writer', args: [], env: {} };
    const sweet = await harness.runCase('sweet', candidate);
    const sour = await harness.runCase('sour', candidate);
    expect([sweet.outcome.result, sour.outcome.result]).toEqual(['pass', 'fail']);

    // Visibility follows the workflows closely, not instantly.
    let failed = await query('EvalResult="fail"');
    for (let i = 0; i < 50 && !failed.io.stdout.some((l) => l.startsWith('sour')); i++) {
      await new Promise((r) => setTimeout(r, 100));
      failed = await query('EvalResult="fail"');
    }
    expect(failed.code).toBe(0);
    expect(failed.io.stdout.slice(2).map((l) => l.split(/\s+/).slice(0, 3))).toEqual([['sour', 'completed', 'fail']]);
    const both = await query('EvalCandidate="writer" AND EvalStatus="completed"');
    expect(both.io.stdout.slice(2).map((l) => l.split(/\s+/)[0]).sort()).toEqual(['sour', 'sweet']);
    const none = await query('EvalCase="bitter"');
    expect(none.io.stdout).toEqual([]);
    expect(none.io.stderr.at(-1)).toBe('no run workflow matches EvalCase="bitter"');
  });

  it('every ready query of docs/temporal.md is one Temporal reads', { timeout: 60_000 }, async () => {
    const readme = await readFile(resolve(import.meta.dirname, '../../docs/temporal.md'), 'utf8');
    const start = readme.indexOf('## Ready queries');
    expect(start).toBeGreaterThan(0);
    const table = readme.slice(start, readme.indexOf('\n## ', start + 1));
    const queries = [...table.matchAll(/^\| [^|]+ \| `(.+)` \|$/gm)].map((m) => m[1]!.replace(/…/g, 'x'));
    expect(queries.length).toBeGreaterThanOrEqual(8);
    for (const q of queries) expect((await query(q)).code, q).toBe(0);
  });

  it('a query Temporal cannot read is one clear error', { timeout: 60_000 }, async () => {
    const io = memoryIo(harness.root, { ...harness.env, ...harness.storeEnv, TEMPORAL_ADDRESS: temporal.address });
    await expect(runs({ query: 'EvalResult = = "fail"' }, io)).rejects.toThrow(/^--query: Temporal refused the visibility query "EvalResult = = \\"fail\\"": .*docs\/temporal\.md#ready-queries lists working ones/);
  });
});
