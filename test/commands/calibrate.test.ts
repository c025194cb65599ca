import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { run as calibrate } from '../../src/commands/calibrate.js';
import { UsageError } from '../../src/errors.js';
import { openStore } from '../../src/store/index.js';
import { tempDir } from '../sandbox/sandboxFixture.js';
import { startCli } from '../support/cliProcess.js';
import { aRun, aScore } from '../store/builders.js';

let root: string;
const AA = 'batch-20260301T000000-aa';
const AB = 'batch-20260302T000000-ab';
const PANEL = 'batch-20260303T000000-panel';

/** A judge step's verdict whose score says what each of `run --judges N`'s samples gave (the first result is the verdict of record). */
function panelVerdict(runId: string, samples: ('pass' | 'fail')[]): Record<string, unknown> {
  const score = {
    reasoning: 'r', result: samples[0]!, compliance: 3, execution_quality: 3, overall: 3, summary: 's', hard_requirements: [], suggestions: [], run_id: runId, case_id: 'panel', judge_model: 'j', salvaged: false,
    review_reasons: new Set(samples).size > 1 ? ['the judge samples disagree'] : [],
    judge_samples: samples.map((result, i) => ({ sample: i + 1, result, overall: 3, review_reasons: [] })),
  };
  return { score, raw: '{}', model: 'j', usage: null, judgedAt: '2026-03-03T10:00:00.000Z' };
}

/** Seeds a batch: each run is [case, arm, verdict, extra judgings of its transcript]. */
async function seed(batchId: string, arms: { name: string; change: string }[], runs: [string, string, 'pass' | 'fail', ('pass' | 'fail')[]][]): Promise<void> {
  const store = await openStore({ pgliteDir: join(root, '.evalflow', 'pglite') });
  try {
    await store.upsertBatch({ batch_id: batchId, status: 'completed', created_at: '2026-03-01T00:00:00.000Z', spec: { arms } });
    for (const [i, [caseId, arm, result, again]] of runs.entries()) {
      const runId = `${batchId}-${caseId}-${i}`;
      await store.upsertRun(aRun({ run_id: runId, batch_id: batchId, case_id: caseId, case_hash: `h-${caseId}`, arm, status: 'completed', result }));
      await store.saveScore(runId, aScore({ judged_at: '2026-03-01T10:00:00.000Z', result }));
      for (const [j, sample] of again.entries()) await store.saveJudgeSample(runId, aScore({ judged_at: `2026-03-01T11:0${j}:00.000Z`, result: sample }));
    }
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  root = await tempDir('evalflow-calibrate-');
  await writeFile(join(root, 'evalflow.config.yaml'), '');
  const base = [
    { name: 'A1', change: 'base' },
    { name: 'A2', change: 'base' },
  ];
  // steady passes all 4 runs; split passes 2 of 4, and one of its transcripts was judged twice more (pass, fail).
  await seed(AA, base, [
    ['steady', 'A1', 'pass', []],
    ['steady', 'A2', 'pass', []],
    ['steady', 'A1', 'pass', []],
    ['steady', 'A2', 'pass', []],
    ['split', 'A1', 'pass', ['pass', 'fail']],
    ['split', 'A2', 'fail', ['fail', 'fail']],
    ['split', 'A1', 'pass', ['pass', 'pass']],
    ['split', 'A2', 'fail', ['fail', 'fail']],
  ]);
  // Judged by a panel of three (run --judges 3): the samples are only in the judge steps. The third run's
  // samples disagree, so it waits for a person's review; the fourth was judged once.
  const store = await openStore({ pgliteDir: join(root, '.evalflow', 'pglite') });
  try {
    await store.upsertBatch({ batch_id: PANEL, status: 'completed', created_at: '2026-03-03T00:00:00.000Z', spec: { arms: base } });
    const panel: ['A1' | 'A2', 'completed' | 'needs_review', ('pass' | 'fail')[]][] = [
      ['A1', 'completed', ['pass', 'pass', 'pass']],
      ['A2', 'completed', ['fail', 'fail', 'fail']],
      ['A1', 'needs_review', ['pass', 'fail', 'pass']],
      ['A2', 'completed', ['pass']],
    ];
    for (const [i, [arm, status, samples]] of panel.entries()) {
      const runId = `${PANEL}-panel-${i}`;
      await store.upsertRun(aRun({ run_id: runId, batch_id: PANEL, case_id: 'panel', case_hash: 'h-panel', arm, status, result: status === 'completed' ? samples[0]! : null }));
      await store.saveScore(runId, aScore({ judged_at: '2026-03-03T10:00:00.000Z', result: samples[0]! }));
      const output = samples.length > 1 ? panelVerdict(runId, samples) : { ...panelVerdict(runId, samples), score: { ...(panelVerdict(runId, samples).score as object), judge_samples: undefined } };
      await store.finishStep({ run_id: runId, role: 'judge', turn: 0, attempt: 1 }, { usage: null, output: JSON.parse(JSON.stringify(output)) as Record<string, unknown>, finishedAt: '2026-03-03T10:00:00.000Z' });
    }
  } finally {
    await store.close();
  }
  // An A/B batch whose B recorded no run yet: still no A/A batch.
  await seed(AB, [base[0]!, { name: 'B', change: 'model=other' }], [['steady', 'A1', 'pass', []]]);
});

describe('evalflow calibrate --batch', () => {
  it("measures each case's flip rate and the judge's share, stores it per case version and prints it as JSON", async () => {
    const io = memoryIo(root, {});
    expect(await calibrate({ batch: AA, json: true }, io)).toBe(0);
    const doc = JSON.parse(io.stdout.join('\n')) as { batch_id: string; cases: Record<string, unknown>[] };
    expect(doc.batch_id).toBe(AA);
    // split: 2 of 4 pass, 4 of 6 pairs disagree, capped at ½. Judge: of the four transcripts judged three
    // times (their own verdict and two more) only the first disagrees with itself (2 of 3 pairs): 2/3 / 4 = 1/6.
    const [split, steady] = doc.cases;
    expect(split).toMatchObject({ case_id: 'split', case_hash: 'h-split', runs: 4, passes: 2, pass_rate: 0.5, flip_rate: 0.5, flip_high: 0.5, judged_twice: 4 });
    expect(split!.judge_flip).toBeCloseTo(1 / 6, 12);
    expect(split!.agent_flip).toBeCloseTo(0.5 - 1 / 6, 12);
    expect(steady).toMatchObject({ case_id: 'steady', runs: 4, passes: 4, flip_rate: 0, flip_low: 0, judged_twice: 0, judge_flip: null, agent_flip: null });
    const store = await openStore({ pgliteDir: join(root, '.evalflow', 'pglite') });
    try {
      const rows = await store.latestCalibrations(['split', 'steady']);
      expect(rows.map((r) => [r.case_id, r.case_hash, r.batch_id, r.runs, r.passes, r.judged_twice])).toEqual([
        ['split', 'h-split', AA, 4, 2, 4],
        ['steady', 'h-steady', AA, 4, 4, 0],
      ]);
    } finally {
      await store.close();
    }
  });

  it('prints the table with what each case lacks', async () => {
    const io = memoryIo(root, {});
    expect(await calibrate({ batch: AA }, io)).toBe(0);
    const row = (name: string) => io.stdout.find((line) => line.startsWith(`${name} `))!.split(/\s{2,}/);
    // The judge's 1/6 of 4 runs: Wilson's 0.67 in 4 is 2.2%…64%, capped at ½. The agent's 1/3: the flip rate's
    // interval ends at its estimate (½), so the top is 1/3 + (1/6 − 0.022) = 0.48.
    expect(row('split')).toEqual(['split', '4', '50% (2/4)', '50% (26%…50%)', '17% (2%…50%; 4 runs)', '33% (0%…48%)']);
    // 4 of 4: Wilson's lower bound 0.51 is still about a coin, so four runs cannot rule out flipping half the time.
    expect(row('steady')[3]).toBe('0% (0%…50%)');
    expect(row('steady')[6]).toMatch(/^never flipped/);
  });

  it("counts the samples of run --judges in the judge's share, with the run its disagreeing samples left for review", async () => {
    const io = memoryIo(root, {});
    expect(await calibrate({ batch: PANEL, json: true }, io)).toBe(0);
    const [panel] = (JSON.parse(io.stdout.join('\n')) as { cases: Record<string, number | null>[] }).cases;
    // The flip rate counts the three completed runs (2 pass, 1 fail: 2 of 3 pairs, capped at ½); the judge's
    // share the three runs judged three times: 0, 0 and 2 of 3 pairs, so 2/9.
    expect(panel).toMatchObject({ case_id: 'panel', runs: 3, passes: 2, flip_rate: 0.5, judged_twice: 3 });
    expect(panel!.judge_flip).toBeCloseTo(2 / 9, 12);
    expect(panel!.judge_low!).toBeLessThan(2 / 9);
    expect(panel!.judge_high!).toBeGreaterThan(2 / 9);
    expect(panel!.agent_flip).toBeCloseTo(0.5 - 2 / 9, 12);
    expect(panel!.agent_low!).toBeLessThanOrEqual(panel!.agent_flip!);
    expect(panel!.agent_high!).toBeGreaterThanOrEqual(panel!.agent_flip!);
  });

  it('refuses a batch whose arms differ, and --arm, naming the flag and value', async () => {
    await expect(calibrate({ batch: AB }, memoryIo(root, {}))).rejects.toThrow(new UsageError(`--batch ${AB}: expected an A/A batch (arms that change nothing, or none), found arm B (model=other)`));
    await expect(calibrate({ arm: ['B=model=x'] }, memoryIo(root, {}))).rejects.toThrow(UsageError);
  });
});

describe('evalflow calibrate refuses bad input: one line, exit 2, before anything runs', () => {
  it.each([
    [['--runs-per-case', '0'], "error: option '--runs-per-case <k>' argument '0' is invalid. expected a whole number 1 or more, found '0'"],
    [['--arm', 'B=model=x'], 'error: --arm B=model=x: expected no --arm (calibrate runs one configuration twice; choose it with --candidate, --candidate-model or --workflow-dir), found one'],
    [['--batch', 'batch-x', '--runs-per-case', '3'], 'error: --batch batch-x: expected alone (it measures a batch already run), found it with cases, --runs-per-case or --judges to run'],
    [['--batch', 'batch-x', '--judges', '3'], 'error: --batch batch-x: expected alone (it measures a batch already run), found it with cases, --runs-per-case or --judges to run'],
  ])('%j', { timeout: 60_000 }, async (args, line) => {
    const cli = startCli(['calibrate', ...args], { cwd: root, env: { PATH: process.env.PATH, HOME: root, EVALFLOW_HOME: join(root, 'state'), EVALFLOW_TEMPORAL_PORT: '1' } });
    const code = await cli.exited;
    expect(cli.stderr).toEqual([line]);
    expect(cli.stdout).toEqual([]);
    expect(code).toBe(2);
  });
});
