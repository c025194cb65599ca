import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { openRuntime, type EvalRuntime } from '../../src/cli/runtime.js';
import { loadSettings } from '../../src/config.js';
import { loadEvalBank } from '../../src/evalset/index.js';
import { selectionDigest } from '../../src/run/batchPlan.js';
import type { BatchInput, BatchResult } from '../../src/run/batchInput.js';
import { SHARED_TASK_QUEUE, searchAttributes } from '../../src/temporal/names.js';
import { teamDatabaseOf } from '../../src/temporal/teamSchema.js';
import { locateTeamBinaries, startTeamServer, type TeamServer } from '../../src/temporal/teamServer.js';
import { runTemplateOf } from '../../src/cli/batch/start.js';
import { resolveCandidate } from '../../src/config.js';
import { knownAdapterNames } from '../../src/candidates/index.js';
import { createBatchFixture, type BatchFixture } from '../support/batchFixture.js';
import { dropSchema, postgresUrl, rawPostgres, randomSchema } from '../support/postgres.js';
import { freePort, freeTeamPorts } from '../support/temporalServer.js';

describe('team mode: the Temporal server on PostgreSQL, with the Web UI server', () => {
  const database = `evalflow_team_${randomBytes(4).toString('hex')}`;
  let dir: string;
  let server: TeamServer;
  let fixture: BatchFixture;
  let runtime: EvalRuntime;
  let schema: string;
  let env: NodeJS.ProcessEnv;
  let startMs: number;

  beforeAll(async () => {
    const url = new URL(await postgresUrl());
    url.pathname = `/${database}`;
    dir = await mkdtemp(join(tmpdir(), 'evalflow-team-'));
    const { port, uiPort } = await freeTeamPorts();
    const started = Date.now();
    server = await startTeamServer({ binaries: await locateTeamBinaries(() => undefined), database: teamDatabaseOf(url.toString()), dir, port, uiPort, namespace: 'default', say: () => undefined });
    startMs = Date.now() - started;
    fixture = await createBatchFixture({ slowSeconds: 4 });
    schema = randomSchema();
    env = { ...fixture.env, TEMPORAL_ADDRESS: server.address, DATABASE_URL: await postgresUrl(), EVALFLOW_STORE_SCHEMA: schema };
    runtime = await openRuntime(await loadSettings(fixture.root, env), memoryIo(fixture.root, env), { worker: true, sandboxRoot: join(fixture.root, 'sandboxes') });
  }, 300_000);
  afterAll(async () => {
    await runtime?.close();
    await server?.stop();
    await fixture?.close();
    if (schema) await dropSchema(schema);
    for (const name of [database, `${database}_visibility`]) await rawPostgres(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a batch survives kill -9 of the server mid-batch: it completes with nothing run twice, its history in PostgreSQL, listed by the Web UI server', { timeout: 300_000 }, async () => {
    console.log(`team server (schemas, configs, server, UI) up in ${startMs} ms`);
    const settings = await loadSettings(fixture.root, env);
    const bank = await loadEvalBank([settings.evalSets], { only: ['tiny'] });
    const candidate = resolveCandidate({ ...settings, defaultCandidate: 'slow' }, 'slow', knownAdapterNames, env);
    const input: BatchInput = {
      batchId: 'batch-20261201T000000-team',
      stamp: '20261201T000000',
      selection: { paths: [settings.evalSets], only: ['tiny'], runsPerCase: 3, digest: selectionDigest(bank.cases) },
      total: null,
      template: runTemplateOf(settings, candidate),
      parallelism: 3,
      offset: 0,
      counts: { finished: 0, passed: 0, failed: 0 },
      recent: [],
    };
    const handle = await runtime.temporal.client.workflow.start('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input], typedSearchAttributes: [{ key: searchAttributes.batchId, value: input.batchId }] });
    await fixture.waitForTurns(3);
    // All three candidate turns are under way: the server dies, as a crash would, and comes back.
    process.kill(server.pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 1_000));
    const down = Date.now();
    await server.restart();
    console.log(`team server back in ${Date.now() - down} ms after kill -9`);

    const result = (await handle.result()) as BatchResult;
    expect(result.counts).toMatchObject({ finished: 3, passed: 3, completed: 3 });
    expect(fixture.startedTurns()).toBe(3);
    const runs = await runtime.store.listRuns({ batchId: input.batchId });
    expect(runs.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);

    const history = new pg.Client({ connectionString: (() => {
      const url = new URL(env.DATABASE_URL!);
      url.pathname = `/${database}`;
      return url.toString();
    })() });
    await history.connect();
    try {
      const executions = await history.query<{ n: string }>('SELECT count(*) AS n FROM executions');
      const nodes = await history.query<{ n: string }>('SELECT count(*) AS n FROM history_node');
      expect(Number(executions.rows[0]!.n)).toBeGreaterThanOrEqual(4);
      expect(Number(nodes.rows[0]!.n)).toBeGreaterThan(10);
    } finally {
      await history.end();
    }

    const listed = (await (await fetch(`${server.uiUrl}/api/v1/namespaces/default/workflows?query=${encodeURIComponent(`EvalBatch="${input.batchId}"`)}`)).json()) as { executions?: { execution: { workflowId: string } }[] };
    expect((listed.executions ?? []).map((e) => e.execution.workflowId).sort()).toEqual([input.batchId, ...runs.map((r) => r.run_id)].sort());
  });
});

describe('team mode, bad input', () => {
  it('a database URL that is none, a PostgreSQL that does not answer, a role it refuses: one line each, nothing created', { timeout: 60_000 }, async () => {
    const { prepareTeamSchemas } = await import('../../src/temporal/teamSchema.js');
    const tools = { sql: '/nonexistent/sql', schemaDir: '/nonexistent' };
    expect(() => teamDatabaseOf('mysql://x@h/db')).toThrow('--database-url: expected a postgres:// URL, found mysql://…');
    expect(() => teamDatabaseOf('postgres://x@h/Temporal-DB')).toThrow(`--database-url: the database name must be lowercase letters, digits and '_', found "Temporal-DB"`);
    expect(teamDatabaseOf('postgres://alice:s3cret@db.example:6543/nightly')).toEqual({ host: 'db.example', port: 6543, user: 'alice', password: 's3cret', database: 'nightly', visibility: 'nightly_visibility' });
    const closed = await freePort();
    await expect(prepareTeamSchemas(teamDatabaseOf(`postgres://root@127.0.0.1:${closed}/never`), tools, () => undefined)).rejects.toThrow(
      new RegExp(`^PostgreSQL at 127\\.0\\.0\\.1:${closed} as root: .*ECONNREFUSED.*; start it, or give a URL of a role that may create databases`),
    );
    const url = new URL(await postgresUrl());
    await expect(prepareTeamSchemas(teamDatabaseOf(`postgres://no_such_role_here@${url.host}/never`), tools, () => undefined)).rejects.toThrow(/^PostgreSQL at 127\.0\.0\.1:5432 as no_such_role_here: .*role "no_such_role_here" does not exist/);
    expect(await rawPostgres("SELECT datname FROM pg_database WHERE datname LIKE 'never%'")).toEqual([]);
  });
});
