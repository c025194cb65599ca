import { readFileSync } from 'node:fs';
import { chmod, cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as compare } from '../../src/commands/compare.js';
import { memoryIo } from '../../src/cli/io.js';
import { run as rejudge } from '../../src/commands/rejudge.js';
import { run } from '../../src/commands/run.js';
import { startMockServer, type MockServer } from '../../src/llm/mock/server.js';
import type { MockRequest } from '../../src/llm/mock/types.js';
import { REFERENCE_SOLUTIONS, solverScript } from '../evalset/referenceSolutions.js';
import { cliEnv, copyExamples, writeCliConfig } from '../support/cliFolder.js';
import { passingJudgeAnswer } from '../support/judgeAnswer.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

const REPO = resolve(import.meta.dirname, '../..');
const RUNS_PER_CASE = 5;

/** The judge says pass with every hard item met; the hard postconditions decide the rest. */
const PASS = passingJudgeAnswer([1, 2, 3, 4, 5].map((i) => `item ${i}`));

/**
 * An A/B batch over the shipped example cases: arm A is the base candidate, which applies each
 * case's reference solution; arm B a candidate that breaks one case. The comparison must list
 * that case first, as a regression, and the gate, JUnit file and `compare` must say so.
 */
describe('evalflow run with arms, compare and the gate', () => {
  let temporal: TestTemporal;
  let mock: MockServer;
  let root: string;
  let env: NodeJS.ProcessEnv;
  /** The run whose transcript the judge is unsure about: its judgings alternate. */
  let flippingRun: string | undefined;
  let flips = 0;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    mock = await startMockServer({
      script: (request: MockRequest) => {
        if (request.model !== 'ab-judge') return { text: '<<END>>' };
        const prompt = request.messages.map((m) => m.content).join('\n');
        if (flippingRun && prompt.includes(`Run: ${flippingRun}`)) return { text: flips++ % 2 === 0 ? PASS.replace('result: pass', 'result: fail') : PASS };
        return { text: PASS };
      },
    });
    root = await mkdtemp(join(tmpdir(), 'evalflow-arms-'));
    // The shipped cases that have a reference solution below (the skill pair has none).
    const solved = (src: string) => {
      const [folder, ...rest] = relative(join(REPO, 'eval_sets'), src).split('/');
      return !folder || (rest.length === 0 && folder.includes('.')) || Object.hasOwn(REFERENCE_SOLUTIONS, folder);
    };
    await cp(join(REPO, 'eval_sets'), join(root, 'eval_sets'), { recursive: true, filter: solved });
    await copyExamples(root);
    // Writes the reference solution of the run's case, except for the cases it is told to break.
    const agent = (breaks: string[]) => solverScript(REFERENCE_SOLUTIONS, breaks);
    await writeFile(join(root, 'solver.cjs'), agent([]));
    await writeFile(join(root, 'breaker.cjs'), agent(['add-truncate']));
    await chmod(join(root, 'solver.cjs'), 0o755);
    await chmod(join(root, 'breaker.cjs'), 0o755);
    await writeCliConfig(root, { candidates: { solver: './solver.cjs', breaker: './breaker.cjs' }, mockUrl: mock.url, examiner: 'ab-examiner', judge: 'ab-judge' });
    env = cliEnv(root, temporal);
  });
  afterAll(async () => {
    await mock?.close();
    await temporal?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('interleaves the arms, puts the broken case first as a regression, and the gate, JUnit and compare agree', async () => {
    const io = memoryIo(root, env);
    const code = await run({ candidate: 'solver', arm: ['A=base', 'B=candidate=breaker'], runsPerCase: RUNS_PER_CASE, parallelism: 4, gate: 'pass_rate>=0.9', junit: 'out/junit.xml' }, io);
    const out = io.stdout.join('\n');
    // Per arm, never pooled (25 of 30 pooled): A is the baseline arm, B passes 10 of 15 and regresses against A.
    expect(out).toContain('gate: B: FAILED: pass_rate>=0.9 (0.6667)');
    expect(out).toContain('gate: B: FAILED: no regression against the baseline arm A (1 case(s) regressed: add-truncate)');
    expect(out).toContain('gate: arm A is the baseline arm: the reference the other arms are measured against, not gated (pass_rate 1)');
    expect(code).toBe(1);
    const batchId = /\(batch (batch-\S+)\)/.exec(out)![1]!;
    // The runs alternate A, B per case and attempt, so drift hits both.
    const started = io.stderr.filter((l) => /^\[\d+\/30\] /.test(l));
    expect(started).toHaveLength(30);
    // The comparison: the broken case first, as a regression, with both sides' reviews.
    const comparison = out.slice(out.indexOf('comparison A → B:'));
    const rows = comparison.split('\n').filter((l) => /^(regression|improvement|no_change|insufficient_data|not_comparable) /.test(l));
    expect(rows[0]).toMatch(/^regression\s+add-truncate\s+5\/5\s+100% \(57–100\) → 0% \(0–43\)/);
    expect(rows.slice(1).every((r) => r.startsWith('no_change'))).toBe(true);
    expect(comparison).toMatch(/ {4}A: runs\/run-add-truncate-solver@\S+\+A-1\/review\.md/);
    expect(comparison).toMatch(/ {4}B: runs\/run-add-truncate-breaker@\S+\+B-1\/review\.md/);
    expect(readFileSync(join(root, 'summaries', `compare-${batchId}.md`), 'utf8')).toContain('| regression | add-truncate | 5/5 |');
    // Each run carries its arm as a search attribute, so the Web UI lists one arm (visibility is eventually consistent).
    const connection = await Connection.connect({ address: temporal.address });
    try {
      const client = new Client({ connection, namespace: temporal.namespace });
      const armB = async () => (await client.workflow.count(`EvalBatch="${batchId}" AND EvalArm="B"`)).count;
      await expect.poll(armB, { timeout: 20_000 }).toBe(15);
    } finally {
      await connection.close();
    }

    const junit = readFileSync(join(root, 'out/junit.xml'), 'utf8');
    // 30 runs in a suite per arm, then the gate's two checks of arm B.
    expect(junit).toContain('<testsuites name="evalflow" tests="32" failures="7" errors="0" skipped="0">');
    expect(junit).toContain(`<testsuite name="${batchId}:B" tests="15" failures="5" errors="0" skipped="0">`);
    expect(junit).toMatch(/<testcase classname="B\.add-truncate" name="run-add-truncate-breaker@\S+\+B-1"/);
    expect(junit).toContain('<testcase classname="gate.B" name="pass_rate&gt;=0.9" time="0">');
    expect((junit.match(/<failure /g) ?? []).length).toBe(7);

    const compared = memoryIo(root, env);
    expect(await compare({ a: 'A', b: 'B', batch: batchId }, compared)).toBe(1);
    expect(compared.stdout.find((l) => l.startsWith('regression'))).toMatch(/^regression\s+add-truncate/);
    // Within a 100-point tolerance nothing counts as a regression; A against itself compares nothing new.
    expect(await compare({ a: 'A', b: 'B', batch: batchId, tolerance: 1 }, memoryIo(root, env))).toBe(0);
    const unknown = memoryIo(root, env);
    expect(await compare({ a: 'A', b: 'C', batch: batchId }, unknown)).toBe(3);
    expect(unknown.stderr.join('\n')).toContain(`compare: batch ${batchId} has no arm C; its arms are`);

    // The gate met, and a baseline it regresses against.
    const met = memoryIo(root, env);
    expect(await run({ candidate: 'solver', only: 'add-truncate', runsPerCase: 4, gate: 'pass_rate>=0.8', baseline: `${batchId}:B` }, met)).toBe(0);
    expect(met.stdout.join('\n')).toContain('gate: met');
    const regressed = memoryIo(root, env);
    expect(await run({ candidate: 'breaker', only: 'add-truncate', runsPerCase: 4, baseline: `${batchId}:A` }, regressed)).toBe(1);
    expect(regressed.stdout.join('\n')).toContain(`gate: FAILED: no regression against ${batchId}:A (1 case(s) regressed: add-truncate)`);

    // A judge that flips on one transcript: judging it again tells the judge's noise from the agent's.
    const fixSlug = /(run-fix-slug-dashes-solver@\S+\+A-1)/.exec(out)![1]!;
    flippingRun = fixSlug;
    const repeated = memoryIo(root, env);
    expect(await rejudge({ batch: batchId, repeat: 3 }, repeated)).toBe(0);
    const labels = Object.fromEntries(repeated.stdout.filter(Boolean).map((l) => l.trim().split(/\s+/) as [string, string]));
    expect(labels).toEqual({ 'add-truncate': 'flaky_agent', 'fix-slug-dashes': 'flaky_judge', 'reading-time-clarify': 'stable_pass' });
    // Samples never replace a verdict: the run still passes.
    expect(repeated.stderr.find((l) => l.startsWith(`${fixSlug}:`))).toBe(`${fixSlug}: pass; samples: fail, pass, fail`);
  }, 300_000);

  it('refuses arms that change two things, or a gate it cannot read, before anything runs', async () => {
    const io = memoryIo(root, env);
    await expect(run({ candidate: 'solver', arm: ['A=model=m1', 'B=candidate=breaker'] }, io)).rejects.toThrow('arms A and B differ in more than one thing (model and candidate)');
    await expect(run({ candidate: 'solver', arm: ['A=model=m1,workflow=none', 'B=base'] }, io)).rejects.toThrow('--arm A=model=m1,workflow=none: an arm changes exactly one thing; found 2');
    await expect(run({ candidate: 'solver', arm: ['A=workflow_rev=HEAD~1', 'B=base'] }, io)).rejects.toThrow(`is not in a git repository, so it has no revision HEAD~1`);
    await expect(run({ candidate: 'solver', gate: 'passrate>0.5' }, io)).rejects.toThrow("--gate 'passrate>0.5': expected METRIC OP NUMBER");
  });
});
