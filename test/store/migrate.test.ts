import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/errors.js';
import { migrate } from '../../src/store/migrate.js';
import { createPgExecutor } from '../../src/store/pgExecutor.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { BACKENDS, dropSchema, postgresUrl, randomSchema, rawPostgres, storeOptions } from './testBackends.js';
import { structuredAnomalies } from '../../src/store/migrations/006_structured_anomalies.js';
import { migrations } from '../../src/store/migrations/migrations.js';
import { revisionCaseCounts } from '../../src/store/migrations/021_revision_case_counts.js';
import { scoreJudgings } from '../../src/store/migrations/022_score_judgings.js';
import { runsWorkflowInvoked } from '../../src/store/migrations/024_runs_workflow_invoked.js';
import { aRun, aScore } from './builders.js';
import type { SqlExecutor } from '../../src/store/sqlExecutor.js';

const VERSIONS = migrations.map((m) => m.version);
const LATEST = VERSIONS.at(-1);

describe.each(BACKENDS)('migrations on %s', (backend) => {
  const schema = randomSchema();
  const otherSchema = randomSchema();
  afterAll(async () => {
    if (backend === 'postgres') await Promise.all([dropSchema(schema), dropSchema(otherSchema)]);
  });

  it('apply every migration once, in order, and nothing on a second run', async () => {
    const store = await openStore({ ...(await storeOptions(backend, schema)), migrate: false });
    try {
      expect(await store.migrate()).toEqual({ applied: VERSIONS, current: LATEST });
      expect(await store.migrate()).toEqual({ applied: [], current: LATEST });
      // The tables exist and work after a second run.
      expect(await store.listRuns()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('openStore migrates by default', async () => {
    const store = await openStore(await storeOptions(backend, otherSchema));
    try {
      expect(await store.migrate()).toEqual({ applied: [], current: LATEST });
    } finally {
      await store.close();
    }
  });
});

describe('migrations on postgres, concurrently', () => {
  const schema = randomSchema();
  afterAll(() => dropSchema(schema));

  it('four processes migrating one fresh schema at once apply each migration exactly once', async () => {
    const databaseUrl = await postgresUrl();
    // Separate stores = separate pools = separate connections racing for the same schema.
    const stores: Store[] = await Promise.all([1, 2, 3, 4].map(() => openStore({ databaseUrl, schema, migrate: false })));
    try {
      const reports = await Promise.all(stores.map((store) => store.migrate()));
      expect(reports.flatMap((r) => r.applied).sort((a, b) => a - b)).toEqual(VERSIONS);
      expect(reports.every((r) => r.current === LATEST)).toBe(true);
      const recorded = await rawPostgres<{ version: number }>(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`);
      expect(recorded.map((r) => r.version)).toEqual(VERSIONS);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('four stores opening (and so migrating) one fresh schema at once all succeed', async () => {
    const fresh = randomSchema();
    const databaseUrl = await postgresUrl();
    try {
      const stores = await Promise.all([1, 2, 3, 4].map(() => openStore({ databaseUrl, schema: fresh })));
      await Promise.all(stores.map((store) => store.close()));
      const recorded = await rawPostgres<{ n: number }>(`SELECT count(*)::int AS n FROM ${fresh}.schema_migrations`);
      expect(recorded).toEqual([{ n: VERSIONS.length }]);
    } finally {
      await dropSchema(fresh);
    }
  });

  it('refuses a database whose recorded migration has another name', async () => {
    const databaseUrl = await postgresUrl();
    const store = await openStore({ databaseUrl, schema });
    try {
      await rawPostgres(`UPDATE ${schema}.schema_migrations SET name = 'something_else' WHERE version = 2`);
      await expect(store.migrate()).rejects.toThrow(
        new StoreError(
          'store: migrate failed: schema_migrations records version 2 as "something_else", but this evalflow\'s version 2 is "transcript_events"; the database was migrated by a different evalflow build',
        ),
      );
    } finally {
      await rawPostgres(`UPDATE ${schema}.schema_migrations SET name = 'transcript_events' WHERE version = 2`);
      await store.close();
    }
  });
});

describe('migration 006 (structured anomalies) on postgres', () => {
  const schema = randomSchema();
  afterAll(() => dropSchema(schema));

  it('turns the anomaly strings of earlier versions into {kind: other} objects and leaves objects alone', async () => {
    const store = await openStore({ databaseUrl: await postgresUrl(), schema });
    try {
      await store.upsertRun({ run_id: 'r-old', case_id: 'c', case_version: 'v1', case_hash: 'h', candidate: 'x', candidate_adapter: 'x', run_dir: '/r' });
      await store.upsertRun({ run_id: 'r-new', case_id: 'c', case_version: 'v1', case_hash: 'h', candidate: 'x', candidate_adapter: 'x', run_dir: '/r', anomalies: [{ kind: 'infra_retries', count: 2 }] });
      // What an evalflow before migration 006 wrote.
      await rawPostgres(`UPDATE ${schema}.runs SET anomalies = '["infra retries: 1", "timeout: turn 2"]'::jsonb WHERE run_id = 'r-old'`);
      await rawPostgres(`SET search_path TO ${schema}; ${structuredAnomalies.sql}`);
      expect((await store.getRun('r-old'))?.anomalies).toEqual([
        { kind: 'other', detail: 'infra retries: 1' },
        { kind: 'other', detail: 'timeout: turn 2' },
      ]);
      expect((await store.getRun('r-new'))?.anomalies).toEqual([{ kind: 'infra_retries', count: 2 }]);
    } finally {
      await store.close();
    }
  });
});

describe('migration 021 (revision case counts) on postgres', () => {
  const schema = randomSchema();
  afterAll(() => dropSchema(schema));

  it('backfills the counts the triggers keep as runs and verdicts are written', async () => {
    const store = await openStore({ databaseUrl: await postgresUrl(), schema });
    try {
      const statuses = ['completed', 'completed', 'needs_review', 'infra_error', 'completed', 'running'] as const;
      for (const [i, status] of statuses.entries()) {
        const runId = `r-${i}`;
        await store.upsertRun(aRun({ run_id: runId, case_id: `c-${i % 2}`, workflow_rev: i === 5 ? null : 'rev-a', status, case_hash: i === 4 ? 'sha256:other' : 'sha256:h', spec: i === 3 ? { noWorkflow: true } : {} }));
        if (i !== 1) await store.saveScore(runId, aScore({ judged_at: '2029-01-01T00:00:00.000Z', result: i % 3 === 0 ? 'fail' : 'pass', overall: i === 2 ? null : i / 2 + 0.25 }));
      }
      await store.updateRun('r-2', { status: 'completed', result: 'pass' });
      await store.saveScore('r-0', aScore({ judged_at: '2030-01-01T00:00:00.000Z', result: 'pass', overall: 1.5 }));
      const counts = () => rawPostgres(`SELECT * FROM ${schema}.revision_case_counts WHERE runs <> 0 ORDER BY workflow_rev, case_id, candidate, case_hash, status, judged, passed`);
      const kept = await counts();
      expect(kept.length).toBeGreaterThan(3);
      // What the migration's last statement computes from the runs already stored.
      const backfill = revisionCaseCounts.sql.slice(revisionCaseCounts.sql.indexOf('-- The runs already stored.'));
      await rawPostgres(`SET search_path TO ${schema}; DELETE FROM revision_case_counts; ${backfill}`);
      expect(await counts()).toEqual(kept);
    } finally {
      await store.close();
    }
  });
});

describe('migration 022 (score judgings) on postgres', () => {
  const schema = randomSchema();
  afterAll(() => dropSchema(schema));

  it("keeps each verdict's judgings as its history is written, from two writers at once too, and backfills the same", async () => {
    const options = { databaseUrl: await postgresUrl(), schema };
    const [store, other] = [await openStore(options), await openStore(options)];
    const at = (minute: number) => `2029-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
    try {
      for (const i of [0, 1, 2, 3, 4, 5, 6, 7]) await store.upsertRun(aRun({ run_id: `r-${i}`, status: 'completed' }));
      // A sample before the first verdict; a rejudge to another result; samples alike and without a result.
      await store.saveJudgeSample('r-0', aScore({ judged_at: at(1), result: 'fail' }));
      await store.saveScore('r-0', aScore({ judged_at: at(2) }));
      await store.saveScore('r-1', aScore({ judged_at: at(1) }));
      await store.saveScore('r-1', aScore({ judged_at: at(2), result: 'fail' }));
      await store.saveScore('r-2', aScore({ judged_at: at(1) }));
      await store.saveJudgeSample('r-2', aScore({ judged_at: at(2) }));
      await store.saveJudgeSample('r-2', aScore({ judged_at: at(3), result: null }));
      // The same judging saved again with another result; a run with samples only.
      await store.saveScore('r-3', aScore({ judged_at: at(1) }));
      await store.saveScore('r-3', aScore({ judged_at: at(1), result: 'fail' }));
      await store.saveJudgeSample('r-4', aScore({ judged_at: at(1), result: 'fail' }));
      // History taken away: a sample, and a whole run (its verdict and history by the cascade).
      await store.saveScore('r-5', aScore({ judged_at: at(1) }));
      await store.saveJudgeSample('r-5', aScore({ judged_at: at(2), result: 'fail' }));
      await store.saveScore('r-7', aScore({ judged_at: at(1) }));
      await rawPostgres(`SET search_path TO ${schema}; DELETE FROM score_history WHERE run_id = 'r-5' AND sample; DELETE FROM runs WHERE run_id = 'r-7'`);
      // Two connections judging one run at once, verdicts and samples: each counts after the other's commit.
      await store.saveScore('r-6', aScore({ judged_at: at(0) }));
      await Promise.all(
        [1, 2, 3, 4, 5, 6, 7, 8].map((n) => {
          const writer = n % 2 ? store : other;
          const score = aScore({ judged_at: at(n), result: n % 3 ? 'pass' : 'fail' });
          return n % 4 === 0 ? writer.saveScore('r-6', score) : writer.saveJudgeSample('r-6', score);
        }),
      );

      const kept = () => rawPostgres(`SELECT run_id, judgings::int, judging_results::int FROM ${schema}.scores ORDER BY run_id`);
      const recounted = await rawPostgres(
        `SELECT s.run_id, count(h.run_id)::int AS judgings, count(DISTINCT h.result)::int AS judging_results
         FROM ${schema}.scores s LEFT JOIN ${schema}.score_history h ON h.run_id = s.run_id GROUP BY s.run_id ORDER BY s.run_id`,
      );
      expect(await kept()).toEqual(recounted);
      expect(recounted).toEqual([
        { run_id: 'r-0', judgings: 2, judging_results: 2 },
        { run_id: 'r-1', judgings: 2, judging_results: 2 },
        { run_id: 'r-2', judgings: 3, judging_results: 1 },
        { run_id: 'r-3', judgings: 1, judging_results: 1 },
        { run_id: 'r-5', judgings: 1, judging_results: 1 },
        { run_id: 'r-6', judgings: 9, judging_results: 2 },
      ]);
      // What the migration's last statement computes from the history already stored.
      const backfill = scoreJudgings.sql.slice(scoreJudgings.sql.indexOf('-- The verdicts already stored.'));
      await rawPostgres(`SET search_path TO ${schema}; UPDATE scores SET judgings = 0, judging_results = 0; ${backfill}`);
      expect(await kept()).toEqual(recounted);
    } finally {
      await Promise.all([store.close(), other.close()]);
    }
  });
});

describe('migration 023 (verdict run lock) on postgres', () => {
  const schema = randomSchema();
  afterAll(() => dropSchema(schema));

  /** A SQLSTATE, from a driver error or from the StoreError wrapping one; 'ok' when none. */
  const outcome = (err: unknown): string => {
    if (err === undefined) return 'ok';
    const cause = err instanceof StoreError ? err.cause : err;
    return String((cause as { code?: unknown } | undefined)?.code ?? (err as Error).message);
  };

  /**
   * Two writers of one run: a transaction that records a person's review of the run and then
   * the result it decides (its review row takes its share of the run), and, between its two
   * statements, `saveScore` of the same run. Returns how each ended.
   */
  async function reviewBesideVerdict(store: Store, runId: string): Promise<{ review: string; verdict: string }> {
    const reviewer = new pg.Client({ connectionString: await postgresUrl(), options: `-c search_path=${schema}` });
    await reviewer.connect();
    try {
      const [{ pid }] = (await reviewer.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows as [{ pid: number }];
      await reviewer.query('BEGIN');
      await reviewer.query(`INSERT INTO run_reviews (run_id, result, author, note, decided_at) VALUES ($1, 'pass', 'alice', 'read it', now())`, [runId]);
      let verdict: string | undefined;
      const saving = store.saveScore(runId, aScore({ judged_at: '2029-01-01T00:00:00.000Z', result: 'fail', overall: 1 })).then(
        () => (verdict = 'ok'),
        (err: unknown) => (verdict = outcome(err)),
      );
      // The verdict either lands or waits for the review's transaction; then the review goes on.
      for (const deadline = Date.now() + 30_000; verdict === undefined; ) {
        const waiting = await rawPostgres<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid]);
        if (waiting[0]!.n > 0) break;
        if (Date.now() > deadline) throw new Error('saveScore neither landed nor waited for the review within 30 s');
        await new Promise((wait) => setTimeout(wait, 20));
      }
      let review = 'ok';
      try {
        await reviewer.query(`UPDATE runs SET result = 'pass' WHERE run_id = $1`, [runId]);
        await reviewer.query('COMMIT');
      } catch (err) {
        review = outcome(err);
        await reviewer.query('ROLLBACK');
      }
      await saving;
      return { review, verdict: verdict! };
    } finally {
      await reviewer.end();
    }
  }

  it('a verdict written beside a review of its run deadlocked through 022; from 023 on both land and are counted', async () => {
    const databaseUrl = await postgresUrl();
    // The store as 022 left it.
    const sql = createPgExecutor({ connectionString: databaseUrl, schema });
    try {
      await migrate(sql, schema, migrations.filter((m) => m.version <= 22));
    } finally {
      await sql.close();
    }
    const store = await openStore({ databaseUrl, schema, migrate: false });
    try {
      for (const runId of ['r-before', 'r-after']) await store.upsertRun(aRun({ run_id: runId, status: 'completed', workflow_rev: 'rev-a' }));
      // PostgreSQL found the cycle and failed one writer (the verdict waited for the review's share of the run, the review for the verdict's lock).
      const before = await reviewBesideVerdict(store, 'r-before');
      expect([before.review, before.verdict].sort(), JSON.stringify(before)).toEqual(['40P01', 'ok']);

      expect(await store.migrate()).toEqual({ applied: migrations.filter((m) => m.version >= 23).map((m) => m.version), current: migrations.length });
      expect(await reviewBesideVerdict(store, 'r-after')).toEqual({ review: 'ok', verdict: 'ok' });
      // The review's result was written last, over the verdict's.
      expect(await store.getRun('r-after')).toMatchObject({ result: 'pass', overall: 1 });
      expect(await store.getReview('r-after')).toMatchObject({ result: 'pass', author: 'alice' });
      // The counts kept by the triggers are those computed afresh from the rows.
      const counts = () => rawPostgres(`SELECT * FROM ${schema}.revision_case_counts WHERE runs <> 0 ORDER BY workflow_rev, case_id, candidate, case_hash, status, judged, passed`);
      const kept = await counts();
      const backfill = revisionCaseCounts.sql.slice(revisionCaseCounts.sql.indexOf('-- The runs already stored.'));
      await rawPostgres(`SET search_path TO ${schema}; DELETE FROM revision_case_counts; ${backfill}`);
      expect(await counts()).toEqual(kept);
      expect(kept).toContainEqual(expect.objectContaining({ workflow_rev: 'rev-a', status: 'completed', judged: true, passed: true, runs: '1' }));
    } finally {
      await store.close();
    }
  });
});

describe('migration 024 (runs workflow invoked) on postgres', () => {
  const schema = randomSchema();
  afterAll(() => dropSchema(schema));

  it("keeps each run's invocations as its usage is written, from two writers at once too, and backfills the same", async () => {
    const options = { databaseUrl: await postgresUrl(), schema };
    const store = await openStore(options);
    const usage = (item: string, invoked: 'yes' | 'no' | 'unknown') => ({ item, kind: 'skill' as const, name: item.split('/')[1]!, loaded: 'yes' as const, invoked, first_turn: null, evidence: null });
    try {
      for (const i of [0, 1, 2, 3, 4]) await store.upsertRun(aRun({ run_id: `u-${i}` }));
      // Written, then replaced whole; written and emptied; a row changed and one taken away by hand; a run deleted.
      await store.saveWorkflowUsage('u-0', [usage('skills/b', 'yes'), usage('skills/a', 'no')]);
      await store.saveWorkflowUsage('u-0', [usage('skills/b', 'no'), usage('skills/c', 'unknown')]);
      await store.saveWorkflowUsage('u-1', [usage('skills/a', 'yes')]);
      await store.saveWorkflowUsage('u-1', []);
      await store.saveWorkflowUsage('u-2', [usage('skills/a', 'yes'), usage('skills/b', 'yes')]);
      await store.saveWorkflowUsage('u-4', [usage('skills/a', 'yes')]);
      await rawPostgres(`SET search_path TO ${schema}; UPDATE workflow_usage SET invoked = 'no' WHERE run_id = 'u-2' AND item = 'skills/a'; DELETE FROM workflow_usage WHERE run_id = 'u-2' AND item = 'skills/b'; DELETE FROM runs WHERE run_id = 'u-4'`);
      // Two connections adding rows of one run at once: each recounts after the other's commit.
      await Promise.all(['skills/d', 'skills/e', 'skills/f', 'skills/g'].map((item) => rawPostgres(`SET search_path TO ${schema}; INSERT INTO workflow_usage (run_id, item, kind, name, loaded, invoked) VALUES ('u-3', '${item}', 'skill', 'x', 'yes', 'yes')`)));

      const kept = () => rawPostgres(`SELECT run_id, workflow_invoked FROM ${schema}.runs ORDER BY run_id`);
      const recounted = await rawPostgres(
        `SELECT r.run_id, (SELECT jsonb_agg(jsonb_build_array(u.item, u.invoked) ORDER BY u.item) FROM ${schema}.workflow_usage u WHERE u.run_id = r.run_id) AS workflow_invoked
         FROM ${schema}.runs r ORDER BY r.run_id`,
      );
      expect(await kept()).toEqual(recounted);
      expect(recounted).toEqual([
        { run_id: 'u-0', workflow_invoked: [['skills/b', 'no'], ['skills/c', 'unknown']] },
        { run_id: 'u-1', workflow_invoked: null },
        { run_id: 'u-2', workflow_invoked: [['skills/a', 'no']] },
        { run_id: 'u-3', workflow_invoked: [['skills/d', 'yes'], ['skills/e', 'yes'], ['skills/f', 'yes'], ['skills/g', 'yes']] },
      ]);
      // What the migration's last statement computes from the usage already stored.
      const backfill = runsWorkflowInvoked.sql.slice(runsWorkflowInvoked.sql.indexOf('-- The usage already stored.'));
      await rawPostgres(`SET search_path TO ${schema}; UPDATE runs SET workflow_invoked = NULL; ${backfill}`);
      expect(await kept()).toEqual(recounted);
    } finally {
      await store.close();
    }
  });
});

describe('migrate on a current store, on postgres', () => {
  const schema = randomSchema();
  afterAll(() => dropSchema(schema));

  it('reads schema_migrations once and takes no lock or transaction (each is a round trip for a served command)', async () => {
    const { migrate } = await import('../../src/store/migrate.js');
    const { createPgExecutor } = await import('../../src/store/pgExecutor.js');
    const sql = createPgExecutor({ connectionString: await postgresUrl(), schema });
    const statements: string[] = [];
    const counted: SqlExecutor = {
      ...sql,
      query: (text, params) => (statements.push(text), sql.query(text, params)),
      execScript: (script) => (statements.push(script), sql.execScript(script)),
      transaction: (fn) => (statements.push('BEGIN'), sql.transaction(fn)),
    };
    try {
      await rawPostgres(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      expect((await migrate(counted, schema)).applied).toEqual(VERSIONS);
      statements.length = 0;
      expect(await migrate(counted, schema)).toEqual({ applied: [], current: LATEST });
      expect(statements).toEqual(['SELECT version, name FROM schema_migrations ORDER BY version']);
    } finally {
      await sql.close();
    }
  });
});

describe('migration order', () => {
  it('refuses versions out of order, repeated or with a gap', async () => {
    const [first, second, third] = migrations;
    const unused = {} as Parameters<typeof migrate>[0];
    await expect(migrate(unused, undefined, [second!, first!])).rejects.toThrow('store migrations: entry 0 has version 2, expected 1 (versions run 1, 2, 3… with no gaps)');
    await expect(migrate(unused, undefined, [first!, first!])).rejects.toThrow('entry 1 has version 1, expected 2');
    await expect(migrate(unused, undefined, [first!, third!])).rejects.toThrow('entry 1 has version 3, expected 2');
  });
});
