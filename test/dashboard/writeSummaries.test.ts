import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { openStore, type Store } from '../../src/store/index.js';
import { writeSummaries } from '../../src/dashboard/writeSummaries.js';
import { tempDir } from '../sandbox/sandboxFixture.js';
import { aHistoryRun, statusOf, type Outcome } from '../support/historyRun.js';

/**
 * A store filled by builders: three batches over four cases, two workflow revs, two
 * candidates and two arms (in the first two batches), with every status. The numbers the summaries must show are
 * worked out here by hand from how the store was filled, not with the code under test.
 */
const BATCHES = ['batch-20260101T000000-aaaaaa', 'batch-20260102T000000-bbbbbb', 'batch-20260103T000000-cccccc'];
const CASES = ['alpha', 'beta', 'gamma', 'delta'];
/** Per case of the last batch: the statuses and results of its 10 runs. */
const LAST: Record<string, Outcome[]> = {
  alpha: ['pass', 'pass', 'pass', 'pass', 'pass', 'pass', 'fail', 'fail', 'infra_error', 'aborted'],
  beta: ['fail', 'fail', 'fail', 'fail', 'fail', 'fail', 'fail', 'fail', 'fail', 'fail'],
  gamma: ['pass', 'pass', 'judge_failed', 'cancelled', 'infra_error', 'pass', 'pass', 'pass', 'pass', 'pass'],
  delta: ['running', 'pending', 'pass', 'fail', 'pass', 'fail', 'pass', 'fail', 'pass', 'fail'],
};

describe('summaries from the store', () => {
  let store: Store;
  let dir: string;

  beforeAll(async () => {
    store = await openStore({});
    dir = join(await tempDir('evalflow-summaries-'), 'summaries');
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const at = () => new Date((clock += 1_000)).toISOString();
    for (const [b, batchId] of BATCHES.entries()) {
      await store.upsertBatch({ batch_id: batchId, status: 'completed', spec: {}, created_at: `2026-01-0${b + 1}T00:00:00Z` });
      for (const caseId of CASES) {
        const plan = b === 2 ? LAST[caseId]! : Array.from({ length: 10 }, (_, i): 'pass' | 'fail' => (i % 3 === 0 ? 'fail' : 'pass'));
        for (const [i, outcome] of plan.entries()) {
          const runId = `run-${caseId}-${b % 2 === 0 ? 'cand-a' : 'cand-b'}@2026010${b + 1}T000000-${i + 1}`;
          await store.upsertRun(
            aHistoryRun({
              run_id: runId,
              batch_id: batchId,
              case_id: caseId,
              candidate: b % 2 === 0 ? 'cand-a' : 'cand-b',
              workflow_rev: b === 0 ? 'rev-one' : 'rev-two',
              status: statusOf(outcome),
              // The earlier batches were A/B batches; the last one is pooled, as a batch without arms.
              arm: b === 2 ? null : i % 2 === 0 ? 'A' : 'B',
              attempt_index: i + 1,
              run_dir: join(dirname(dir), 'runs', runId),
            }),
          );
          if (outcome === 'pass' || outcome === 'fail') {
            const suggestion = caseId === 'beta' ? ['[workflow] Add a step that runs the tests!', '[workflow]  add a step that runs the  tests.', '[eval] Check the file too.'][i % 3]! : '[capability] Read the error first.';
            await store.saveScore(runId, {
              result: outcome,
              compliance: outcome === 'pass' ? 4 : 2,
              execution_quality: outcome === 'pass' ? 4 : 1,
              overall: outcome === 'pass' ? 4 : 1.5,
              summary: 's',
              hard_requirements: [],
              suggestions: [suggestion],
              judge_model: 'judge-model',
              judged_at: at(),
              raw: '',
              salvaged: false,
            });
          }
        }
      }
    }
  });
  afterAll(async () => {
    await store?.close();
  });

  const prices = { 'ex-model': { input: 1, output: 2 }, 'cand-model': { input: 3, output: 15 }, 'judge-model': { input: 5, output: 25 } };

  it('latest-stats.yaml has the numbers of the last batch, per case and overall', async () => {
    await writeSummaries({ store, summariesDir: dir, prices });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a YAML file read back to check its numbers
    const stats = parseYaml(await readFile(join(dir, 'latest-stats.yaml'), 'utf8')) as Record<string, any>;
    expect(stats.batch_id).toBe(BATCHES[2]);
    // alpha: 8 judged, 6 passed; Wilson 6/8 = 0.4093–0.9285; pass^2 = C(6,2)/C(8,2) = 15/28.
    expect(stats.cases.alpha).toMatchObject({
      runs: 10,
      by_status: { completed: 8, infra_error: 1, aborted: 1 },
      completed: 8,
      passes: 6,
      pass_rate: { rate: 0.75, low: 0.4093, high: 0.9285 },
      pass_hat_k: { 1: 0.75, 2: 0.5357 },
      mean: { compliance: 3.5, execution_quality: 3.25, overall: 3.375 },
    });
    // alpha's 10 runs all recorded tokens: 10 × (1000 in + 200 out) at 3 / 15 per million.
    expect(stats.cases.alpha.tokens.candidate).toEqual({ input_tokens: 10_000, output_tokens: 2_000 });
    expect(stats.cases.alpha.cost_usd.candidate).toBeCloseTo((10_000 * 3 + 2_000 * 15) / 1e6, 9);
    expect(stats.cases.alpha.cost_usd.total).toBeCloseTo(10 * (100 * 1 + 10 * 2 + 1_000 * 3 + 200 * 15 + 500 * 5 + 50 * 25) / 1e6, 9);
    expect(stats.cases.beta).toMatchObject({ completed: 10, passes: 0, pass_rate: { rate: 0, low: 0 }, pass_hat_k: { 1: 0 } });
    // gamma: judge_failed, cancelled and an infra_error are counted apart.
    expect(stats.cases.gamma).toMatchObject({ completed: 7, passes: 7, by_status: { completed: 7, judge_failed: 1, cancelled: 1, infra_error: 1 }, pass_rate: { rate: 1, high: 1 } });
    // delta: two runs not recorded yet, so its tokens (and cost) are unknown, never 0.
    expect(stats.cases.delta).toMatchObject({ runs: 10, completed: 8, passes: 4, by_status: { running: 1, pending: 1, completed: 8 } });
    expect(stats.cases.delta.tokens.candidate).toBeNull();
    expect(stats.cases.delta.cost_usd.total).toBeNull();
    // Overall: 33 judged runs, 17 passed; pass^k averaged over the cases with k runs.
    expect(stats.overall).toMatchObject({ runs: 40, completed: 33, passes: 17 });
    expect(stats.overall.pass_rate.rate).toBeCloseTo(17 / 33, 4);
    expect(stats.overall.pass_hat_k[1]).toBeCloseTo((0.75 + 0 + 1 + 0.5) / 4, 4);
    expect(stats.overall.pass_hat_k[10]).toBe(0);
    expect(stats.overall.uncontained_runs).toBe(0);
  });

  it('latest.md leads with the pass rate and counts what was not judged apart', async () => {
    await writeSummaries({ store, summariesDir: dir, prices });
    const latest = await readFile(join(dir, 'latest.md'), 'utf8');
    expect(latest).toContain(`# Latest batch: ${BATCHES[2]}`);
    expect(latest).toContain('Pass rate 52% (95% interval');
    expect(latest).toContain('17 of 33 judged runs');
    expect(latest).toContain('1 aborted, 1 cancelled, 2 infra_error, 1 judge_failed, 1 pending, 1 running');
    expect(latest).toMatch(/\| alpha \| pass pass pass pass pass pass fail fail infra_error aborted \| 75% \(41%–93%\) \|/);
    expect(latest).toContain('[1](../runs/run-alpha-cand-a@20260103T000000-1/review.md)');
    expect(latest).toContain('Cost: unknown (a price or a usage is missing)');
    // Every run ran contained: nothing says otherwise.
    expect(latest).not.toContain('uncontained');
    expect(latest).not.toContain('†');
  });

  it('batch-insights.md merges identical and near-identical suggestions with their counts and runs', async () => {
    await writeSummaries({ store, summariesDir: dir, prices });
    const insights = await readFile(join(dir, 'batch-insights.md'), 'utf8');
    // beta's 10 runs: 4 + 3 of the two wordings of one suggestion, 3 of another.
    expect(insights).toContain('## [workflow] (7)');
    expect(insights).toMatch(/- \*\*×7\*\* Add a step that runs the tests! — \[run-beta-cand-a@20260103T000000-1\]/);
    expect(insights).toContain('## [eval] (3)');
    expect(insights).toContain('## [capability] (23)');
    expect(insights).not.toContain('uncontained');
  });

  it('score-history.yaml lists every completed run once, rebuilds byte for byte, and a rejudge replaces its entry', async () => {
    await writeSummaries({ store, summariesDir: dir, prices });
    const first = await readFile(join(dir, 'score-history.yaml'), 'utf8');
    await writeSummaries({ store, summariesDir: dir, prices });
    expect(await readFile(join(dir, 'score-history.yaml'), 'utf8')).toBe(first);
    const history = parseYaml(first) as { run_id: string; judged_at: string; result: string; arm: string; workflow_rev: string; eval_set_id: string }[];
    expect(history).toHaveLength(80 + 33);
    expect(new Set(history.map((h) => h.run_id)).size).toBe(history.length);
    expect(history.map((h) => h.judged_at)).toEqual([...history.map((h) => h.judged_at)].sort());
    expect(history[0]).toMatchObject({ eval_set_id: 'alpha', version: 'v1', workflow_rev: 'rev-one', candidate: 'cand-a', model: 'cand-model', arm: 'A', batch_id: BATCHES[0] });

    const rejudged = 'run-beta-cand-a@20260103T000000-1';
    await store.saveScore(rejudged, { result: 'pass', compliance: 5, execution_quality: 5, overall: 5, summary: 'on second look', judge_model: 'judge-model-2', judged_at: '2026-02-01T00:00:00Z', raw: '' });
    await writeSummaries({ store, summariesDir: dir, prices });
    const after = parseYaml(await readFile(join(dir, 'score-history.yaml'), 'utf8')) as typeof history;
    expect(after).toHaveLength(history.length);
    expect(after.filter((h) => h.run_id === rejudged)).toEqual([expect.objectContaining({ result: 'pass', overall: 5, judged_at: '2026-02-01T00:00:00.000Z' })]);
    expect(after.at(-1)?.run_id).toBe(rejudged);
  });

  it('an empty store gives a latest.md that says how to make a batch', async () => {
    const empty = await openStore({});
    try {
      const emptyDir = join(await tempDir('evalflow-summaries-'), 'summaries');
      expect(await writeSummaries({ store: empty, summariesDir: emptyDir, prices: {} })).toMatchObject({ batchId: null });
      expect(await readFile(join(emptyDir, 'latest.md'), 'utf8')).toContain('Run `evalflow run` to make one');
      expect(await readFile(join(emptyDir, 'score-history.yaml'), 'utf8')).toBe('[]\n');
    } finally {
      await empty.close();
    }
  });
});

describe('summaries of a batch where some runs ran uncontained', () => {
  const batchId = 'batch-20260201T000000-dddddd';
  let store: Store;
  let dir: string;

  beforeAll(async () => {
    store = await openStore({});
    dir = join(await tempDir('evalflow-summaries-'), 'summaries');
    await store.upsertBatch({ batch_id: batchId, status: 'completed', spec: {}, created_at: '2026-02-01T00:00:00Z' });
    // alpha: two contained runs; beta: one contained, one `isolation: none`, one of an earlier version (nothing recorded: it ran uncontained).
    const runs: [string, string, Record<string, unknown>][] = [
      ['alpha', 'run-alpha-c@20260201T000000-1', { config: { candidate: { isolation: 'sandbox' } } }],
      ['alpha', 'run-alpha-c@20260201T000000-2', { spec: { candidate: { isolation: 'sandbox' } } }],
      ['beta', 'run-beta-c@20260201T000000-1', { spec: { candidate: { isolation: 'sandbox' } } }],
      ['beta', 'run-beta-c@20260201T000000-2', { spec: { candidate: { isolation: 'none' } }, config: { candidate: { isolation: 'none' } } }],
      ['beta', 'run-beta-c@20260201T000000-3', { spec: { candidate: {} }, config: {} }],
    ];
    for (const [i, [caseId, runId, recorded]] of runs.entries()) {
      await store.upsertRun(aHistoryRun({ run_id: runId, batch_id: batchId, case_id: caseId, candidate: 'c', status: 'completed', run_dir: join(dirname(dir), 'runs', runId), ...recorded }));
      await store.saveScore(runId, { result: 'pass', compliance: 4, execution_quality: 4, overall: 4, summary: 's', hard_requirements: [], suggestions: ['[workflow] Say which tests to run.'], judge_model: 'judge-model', judged_at: `2026-02-01T00:00:0${i}Z`, raw: '', salvaged: false });
    }
    await writeSummaries({ store, summariesDir: dir, prices: {} });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('latest.md counts the uncontained runs and marks their verdicts', async () => {
    const latest = await readFile(join(dir, 'latest.md'), 'utf8');
    expect(latest).toContain('uncontained: 2 of 5 runs (isolation: none); their verdicts are marked † below.');
    expect(latest).toMatch(/\| alpha \| pass pass \|/);
    expect(latest).toMatch(/\| beta \| pass pass† pass† \|/);
  });

  it('latest-stats.yaml has uncontained_runs overall and per case', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a YAML file read back to check its numbers
    const stats = parseYaml(await readFile(join(dir, 'latest-stats.yaml'), 'utf8')) as Record<string, any>;
    expect(stats.overall).toMatchObject({ runs: 5, uncontained_runs: 2 });
    expect(stats.cases.alpha.uncontained_runs).toBe(0);
    expect(stats.cases.beta.uncontained_runs).toBe(2);
  });

  it('batch-insights.md says how many runs were uncontained', async () => {
    expect(await readFile(join(dir, 'batch-insights.md'), 'utf8')).toContain('uncontained: 2 of 5 runs (isolation: none).');
  });
});

describe('summaries after a follow-up batch over other cases', () => {
  const full = 'batch-20260301T000000-ffffff';
  const followUp = 'batch-20260302T000000-111111';
  let store: Store;
  let dir: string;
  let report: Awaited<ReturnType<typeof writeSummaries>>;

  beforeAll(async () => {
    store = await openStore({});
    dir = join(await tempDir('evalflow-summaries-'), 'summaries');
    await store.upsertBatch({ batch_id: full, status: 'completed', spec: { arms: [{ name: 'with', change: 'base' }, { name: 'none', change: 'workflow=none' }] }, created_at: '2026-03-01T00:00:00Z' });
    await store.upsertBatch({ batch_id: followUp, status: 'completed', spec: {}, created_at: '2026-03-02T00:00:00Z' });
    // The full A/B batch: three cases, one run an arm; then one run of `gamma` alone.
    const runs: [string, string, string | null, 'pass' | 'fail'][] = [
      [full, 'alpha', 'with', 'pass'],
      [full, 'alpha', 'none', 'pass'],
      [full, 'beta', 'with', 'pass'],
      [full, 'beta', 'none', 'fail'],
      [full, 'gamma', 'with', 'fail'],
      [full, 'gamma', 'none', 'fail'],
      [followUp, 'gamma', null, 'pass'],
    ];
    for (const [i, [batchId, caseId, arm, result]] of runs.entries()) {
      const runId = `run-${caseId}-c@${batchId.slice(6, 21)}-${arm ?? 'x'}`;
      await store.upsertRun(aHistoryRun({ run_id: runId, batch_id: batchId, case_id: caseId, candidate: 'c', status: 'completed', arm, run_dir: join(dirname(dir), 'runs', runId) }));
      await store.saveScore(runId, { result, overall: result === 'pass' ? 4 : 1, suggestions: [`[eval] Look at ${caseId} again.`], judge_model: 'judge-model', judged_at: `2026-03-0${i < 6 ? 1 : 2}T00:00:0${i}Z` });
    }
    report = await writeSummaries({ store, summariesDir: dir, prices: {}, batchId: followUp });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('keeps the headline on the full batch: latest.md, latest-stats.yaml and batch-insights.md do not shrink to the one case', async () => {
    expect(report).toMatchObject({ batchId: followUp, headlineBatchId: full });
    const latest = await readFile(join(dir, 'latest.md'), 'utf8');
    expect(latest).toContain(`# Latest batch: ${full}`);
    for (const caseId of ['alpha', 'beta', 'gamma']) expect(latest).toMatch(new RegExp(`^\\| ${caseId} \\|`, 'm'));
    // No pooled rate over the two batches, nor a comparison with the follow-up.
    expect(latest).not.toContain(followUp);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a YAML file read back to check its numbers
    const stats = parseYaml(await readFile(join(dir, 'latest-stats.yaml'), 'utf8')) as Record<string, any>;
    expect(stats.batch_id).toBe(full);
    expect(Object.keys(stats.arms.with.cases)).toEqual(['alpha', 'beta', 'gamma']);
    const insights = await readFile(join(dir, 'batch-insights.md'), 'utf8');
    expect(insights).toContain(`# Batch insights: ${full}`);
    expect(insights).toContain('Look at alpha again.');
  });

  it('writes the follow-up\'s own summaries under selections/, for its one case', async () => {
    const folder = report.files.find((f) => f.includes(`${join('selections', 'gamma-')}`) && f.endsWith('latest.md'))!;
    expect(folder).toBeDefined();
    const latest = await readFile(folder, 'utf8');
    expect(latest).toContain(`# Latest batch: ${followUp}`);
    expect(latest).toContain('Pass rate 100% (95% interval 21%–100%), 1 of 1 judged runs');
    expect(latest).not.toMatch(/^\| alpha \|/m);
    // Its links to the reviews start from its own folder.
    expect(latest).toContain('(../../../runs/run-gamma-c@20260302T000000-x/review.md)');
    const stats = parseYaml(await readFile(join(dirname(folder), 'latest-stats.yaml'), 'utf8')) as { batch_id: string; cases: Record<string, unknown> };
    expect(stats.batch_id).toBe(followUp);
    expect(Object.keys(stats.cases)).toEqual(['gamma']);
  });

  it('a later batch of the full selection takes the headline again', async () => {
    const again = 'batch-20260303T000000-222222';
    await store.upsertBatch({ batch_id: again, status: 'completed', spec: {}, created_at: '2026-03-03T00:00:00Z' });
    for (const caseId of ['alpha', 'beta', 'gamma']) {
      const runId = `run-${caseId}-c@20260303T000000-1`;
      await store.upsertRun(aHistoryRun({ run_id: runId, batch_id: again, case_id: caseId, candidate: 'c', status: 'completed', run_dir: join(dirname(dir), 'runs', runId) }));
      await store.saveScore(runId, { result: 'pass', overall: 4, judge_model: 'judge-model', judged_at: '2026-03-03T00:00:00Z' });
    }
    expect(await writeSummaries({ store, summariesDir: dir, prices: {} })).toMatchObject({ batchId: again, headlineBatchId: again });
    expect(await readFile(join(dir, 'latest.md'), 'utf8')).toContain(`# Latest batch: ${again}`);
  });
});
