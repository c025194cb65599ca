import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { run as plan } from '../../src/commands/plan.js';
import { UsageError } from '../../src/errors.js';
import { openStore, type RoleTokens } from '../../src/store/index.js';
import { tempDir } from '../sandbox/sandboxFixture.js';
import { startCli } from '../support/cliProcess.js';
import { aRun, aScore } from '../store/builders.js';
import { runsToDetect } from '../../src/stats/runsToDetect.js';

/**
 * Per run: examiner 0 tokens (cost 0), candidate and judge 1000 in + 500 out each on model m at
 * $1 in / $2 out per million: 2 × (1000 × 1 + 500 × 2) / 1e6 = $0.004 a run.
 */
const TOKENS: RoleTokens = { examiner: { input_tokens: 0, output_tokens: 0 }, candidate: { input_tokens: 1000, output_tokens: 500 }, judge: { input_tokens: 1000, output_tokens: 500 } };
const MODELS = { examiner: 'm', candidate: 'm', judge: 'm' };

let root: string;
let made = 0;

async function seed(batchId: string, createdAt: string, runs: { caseId: string; arm?: string; outcome: 'pass' | 'fail' | 'infra_error'; priced: boolean }[], arms?: string[]): Promise<void> {
  const store = await openStore({ pgliteDir: join(root, '.evalflow', 'pglite') });
  try {
    await store.upsertBatch({ batch_id: batchId, status: 'completed', created_at: createdAt, spec: arms ? { arms: arms.map((name, i) => ({ name, change: i === 0 ? 'base' : 'model=other' })) } : {} });
    for (const r of runs) {
      made += 1;
      const runId = `run-${r.caseId}-${made}@1`;
      const result = r.outcome === 'infra_error' ? null : r.outcome;
      await store.upsertRun(
        aRun({
          run_id: runId,
          batch_id: batchId,
          case_id: r.caseId,
          arm: r.arm ?? null,
          status: result ? 'completed' : 'infra_error',
          result,
          ...(r.priced ? { tokens: TOKENS, models: MODELS } : {}),
        }),
      );
      if (result) await store.saveScore(runId, aScore({ judged_at: '2026-03-01T10:00:00.000Z', result }));
    }
  } finally {
    await store.close();
  }
}

const times = <T>(n: number, value: T): T[] => Array.from({ length: n }, () => value);

beforeAll(async () => {
  root = await tempDir('evalflow-plan-');
  await writeFile(join(root, 'evalflow.config.yaml'), 'prices:\n  m: { input: 1, output: 2 }\n');
  // The older batch, without arms: half passes 5 of 10.
  await seed('batch-20260301T000000-old', '2026-03-01T00:00:00.000Z', [...times(5, { caseId: 'half', outcome: 'pass' as const, priced: true }), ...times(5, { caseId: 'half', outcome: 'fail' as const, priced: true })]);
  // The newest batch, arms `new` (first, the baseline) and `alt`: only `new` is measured.
  await seed(
    'batch-20260302T000000-ab',
    '2026-03-02T00:00:00.000Z',
    [
      ...times(4, { caseId: 'steady', arm: 'new', outcome: 'pass' as const, priced: true }),
      { caseId: 'steady', arm: 'new', outcome: 'fail', priced: true },
      ...times(5, { caseId: 'steady', arm: 'alt', outcome: 'fail' as const, priced: true }),
      { caseId: 'shaky', arm: 'new', outcome: 'pass', priced: false },
      ...times(9, { caseId: 'shaky', arm: 'new', outcome: 'fail' as const, priced: false }),
      ...times(2, { caseId: 'broken', arm: 'new', outcome: 'infra_error' as const, priced: false }),
    ],
    ['new', 'alt'],
  );
});

describe('evalflow plan --detect D', () => {
  it("plans each case of the latest batch from its first arm's pass rate, with the cost at the configured prices and totals", async () => {
    const io = memoryIo(root, {});
    expect(await plan({ detect: 0.3 }, io)).toBe(0);
    expect(io.stdout[0]).toBe('batch batch-20260302T000000-ab (arm new): runs per side to detect 30 points at power 0.8, alpha 0.05');
    const row = (name: string) => io.stdout.find((line) => line.startsWith(`${name} `))!.split(/\s{2,}/);
    // broken: two infra errors, nothing judged.
    expect(row('broken')).toEqual(['broken', '–', '–', '–', '–', 'no judged runs']);
    // shaky 1/10 = 0.1 cannot fall 30 points, so up to 0.4: p̄ 0.25,
    // (1.959964·√(2·0.25·0.75) + 0.841621·√(0.1·0.9 + 0.4·0.6))² / 0.09 = 31.50 → 32; no usage recorded.
    expect(row('shaky')).toEqual(['shaky', '10% (1/10)', '32', '–', '–', 'no prices']);
    // steady 4/5 = 0.8 down to 0.5: p̄ 0.65,
    // (1.959964·√(2·0.65·0.35) + 0.841621·√(0.8·0.2 + 0.5·0.5))² / 0.09 = 38.48 → 39; 2 × 39 × $0.004 = $0.312.
    expect(row('steady')).toEqual(['steady', '80% (4/5)', '39', '$0.0040', '$0.3120']);
    expect(row('total')).toEqual(['total', '71', '–', '142 runs both sides; no prices; 1 case not planned']);
  });

  it('--batch, --power and --json: snake_case objects with the numbers and the totals', async () => {
    const io = memoryIo(root, {});
    expect(await plan({ detect: 0.3, power: 0.9, batch: 'batch-20260301T000000-old', json: true }, io)).toBe(0);
    const json = JSON.parse(io.stdout.join('\n')) as Record<string, unknown> & { cases: Record<string, unknown>[]; totals: Record<string, unknown> };
    expect(Object.keys(json)).toEqual(['schema_version', 'batch_id', 'arm', 'detect', 'power', 'alpha', 'cases', 'totals']);
    expect(json).toMatchObject({ batch_id: 'batch-20260301T000000-old', arm: null, detect: 0.3, power: 0.9, alpha: 0.05 });
    // half 5/10 = 0.5 down to 0.2, z₀.₉ = 1.281552: p̄ 0.35,
    // (1.959964·√(2·0.35·0.65) + 1.281552·√(0.5·0.5 + 0.2·0.8))² / 0.09 = 51.01 → 52; 2 × 52 × $0.004 = $0.416.
    expect(json.cases).toHaveLength(1);
    const [half] = json.cases;
    expect(Object.keys(half!)).toEqual(['case_id', 'judged', 'passes', 'pass_rate', 'runs_per_side', 'cost_per_run', 'batch_cost', 'note', 'source', 'flip_rate']);
    expect(half).toMatchObject({ case_id: 'half', judged: 10, passes: 5, pass_rate: 0.5, runs_per_side: 52, note: null, source: 'batch', flip_rate: null });
    expect(half!.cost_per_run).toBeCloseTo(0.004, 12);
    expect(half!.batch_cost).toBeCloseTo(0.416, 12);
    expect(json.totals).toMatchObject({ runs_per_side: 52, runs: 104, unplanned: 0 });
    expect(json.totals.cost).toBeCloseTo(0.416, 12);
  });

  it("takes a case's pass rate from the calibration of the version the batch ran, and only of that version", async () => {
    const store = await openStore({ pgliteDir: join(root, '.evalflow', 'pglite') });
    const calibration = { batch_id: 'batch-aa', case_hash: 'sha256:aaaa', candidate: 'builtin', workflow_rev: null, judged_twice: 0, judge_flip: null, cost_per_run: null, calibrated_at: '2026-03-03T00:00:00.000Z' };
    try {
      // shaky's version as the batch ran it: 2 passes of 10 on identical inputs (16 of 45 pairs disagree).
      await store.saveCalibration({ ...calibration, case_id: 'shaky', runs: 10, passes: 2 });
      // steady's calibration is of another version: the batch's own runs stay the measure.
      await store.saveCalibration({ ...calibration, case_id: 'steady', case_hash: 'sha256:other', runs: 10, passes: 0 });
    } finally {
      await store.close();
    }
    const io = memoryIo(root, {});
    expect(await plan({ detect: 0.3 }, io)).toBe(0);
    const row = (name: string) => io.stdout.find((line) => line.startsWith(`${name} `))!.split(/\s{2,}/);
    expect(row('shaky')).toEqual(['shaky', '20% (2/10)', String(runsToDetect(0.2, { detect: 0.3, power: 0.8, alpha: 0.05 })), '–', '–', 'calibrated (flip rate 36%); no prices']);
    expect(row('steady')).toEqual(['steady', '80% (4/5)', '39', '$0.0040', '$0.3120']);
  });

  it('an empty store says there is nothing to plan from', async () => {
    const io = memoryIo(await tempDir('evalflow-plan-empty-'), {});
    expect(await plan({ detect: 0.3 }, io)).toBe(0);
    expect(io.stderr).toEqual(['no batches in the store yet: run a batch first, then plan from its pass rates']);
    expect(io.stdout).toEqual([]);
  });

  it('an unknown --batch is a usage error naming it', async () => {
    await expect(plan({ detect: 0.3, batch: 'batch-nobody' }, memoryIo(root, {}))).rejects.toThrow(new UsageError("--batch 'batch-nobody': no such batch in the store"));
  });
});

describe('evalflow plan refuses a bad value: one line, exit 2', () => {
  it.each([
    [[], "error: required option '--detect <d>' not specified"],
    [['--detect', '0'], "error: option '--detect <d>' argument '0' is invalid. expected a fraction strictly between 0 and 1, found '0'"],
    [['--detect', '30'], "error: option '--detect <d>' argument '30' is invalid. expected a fraction strictly between 0 and 1, found '30' (a percent? 30% is 0.3)"],
    [['--detect', '0.3', '--power', '1'], "error: option '--power <p>' argument '1' is invalid. expected a fraction strictly between 0 and 1, found '1'"],
    [['--detect', '0.3', '--alpha', 'x'], "error: option '--alpha <a>' argument 'x' is invalid. expected a fraction strictly between 0 and 1, found 'x'"],
  ])('%j', { timeout: 60_000 }, async (args, line) => {
    // Temporal on port 1 and no store: anything started would fail otherwise.
    const cli = startCli(['plan', ...args], { cwd: root, env: { PATH: process.env.PATH, HOME: root, EVALFLOW_HOME: join(root, 'state'), EVALFLOW_TEMPORAL_PORT: '1' } });
    const code = await cli.exited;
    expect(cli.stderr).toEqual([line]);
    expect(cli.stdout).toEqual([]);
    expect(code).toBe(2);
  });
});
