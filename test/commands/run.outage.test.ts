// suite group: beside (most of it waits out a 60 s server outage)
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { run as status } from '../../src/commands/status.js';
import { openStore } from '../../src/store/index.js';
import { createBatchFixture, type BatchFixture } from '../support/batchFixture.js';
import { startCli, type CliProcess } from '../support/cliProcess.js';
import { dropSchema, postgresUrl, randomSchema } from '../support/postgres.js';
import { freePort, startRestartableTemporal, type RestartableTemporal } from '../support/temporalServer.js';

const OUTAGE_MS = 60_000;
const STACK_LINE = /^\s+at .+[:(]/;

describe('a Temporal outage mid-batch', () => {
  let temporal: RestartableTemporal;
  let fixture: BatchFixture;
  let env: NodeJS.ProcessEnv;
  let schema: string;
  const processes: CliProcess[] = [];

  beforeAll(async () => {
    temporal = await startRestartableTemporal();
    fixture = await createBatchFixture({ slowSeconds: 3 });
    schema = randomSchema();
    // Two processes share the store: PostgreSQL, as on a team's cluster.
    env = { ...fixture.env, TEMPORAL_ADDRESS: temporal.address, DATABASE_URL: await postgresUrl(), EVALFLOW_STORE_SCHEMA: schema };
  });
  afterAll(async () => {
    for (const cli of processes) cli.kill('SIGKILL');
    await temporal?.stop();
    await fixture?.close();
    if (schema) await dropSchema(schema);
  });

  it('kill -9 of the server for 60 s: the worker and the client stay up, the client says it reconnects, the batch completes', { timeout: 300_000 }, async () => {
    const worker = startCli(['worker'], { cwd: fixture.root, env });
    processes.push(worker);
    await worker.waitForLine(/^worker on /, 90_000);
    const client = startCli(['run', '--only', 'tiny', '--candidate', 'slow', '--runs-per-case', '4', '--parallelism', '1', '--no-worker'], { cwd: fixture.root, env });
    processes.push(client);
    await client.waitForLine(/^\[1\/4\] /, 90_000);
    // Mid-batch: the second run's candidate turn is under way.
    await fixture.waitForTurns(2);

    const killedAt = Date.now();
    await temporal.kill();
    await client.waitForLine(/is unreachable; reconnecting/, 40_000);
    // Meanwhile `status` says what the store knows, and why it cannot say more.
    const looked = memoryIo(fixture.root, env);
    expect(await status({}, looked)).toBe(0);
    expect(looked.stdout.join('\n')).toMatch(/^status {4}running, [12]\/4 finished: [12] pass, 0 fail \(the store's last word, .+\)$/m);
    expect(looked.stdout).toContain(`waiting   Temporal at ${temporal.address} (TEMPORAL_ADDRESS) is unreachable: start that server or point TEMPORAL_ADDRESS at a running one (unset it to use the embedded dev server); the batch goes on in Temporal once it is back`);
    await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (Date.now() - killedAt))));
    expect(worker.child.exitCode).toBeNull();
    expect(client.child.exitCode).toBeNull();
    await temporal.restart();

    expect(await client.exited).toBe(0);
    const said = client.lines.join('\n');
    expect(said).toContain(`Temporal at ${temporal.address} is unreachable; reconnecting (the batch goes on in Temporal)…`);
    expect(client.lines.filter((l) => l.includes('is unreachable')).length).toBe(1);
    expect(said).toMatch(/^reconnected to Temporal at /m);
    expect(said).toContain('4 runs: 4/4 passed');
    expect(said).not.toContain('internal error');
    expect(said).not.toContain('Channel has been shut down');
    expect(client.lines.filter((l) => STACK_LINE.test(l))).toEqual([]);
    // One progress line per run, numbered in finishing order.
    expect(client.lines.flatMap((l) => /^\[(\d)\/4\] /.exec(l)?.[1] ?? [])).toEqual(['1', '2', '3', '4']);

    expect(worker.child.exitCode).toBeNull();
    expect(worker.lines.filter((l) => l.includes('is unreachable')).length).toBe(1);
    // The worker notices the server is back at its next probe, which may come after the batch ended.
    await worker.waitForLine(/^reconnected to Temporal at /, 30_000);
    expect(worker.lines.filter((l) => STACK_LINE.test(l))).toEqual([]);
    worker.kill('SIGINT');
    expect(await worker.exited).toBe(0);

    const store = await openStore({ databaseUrl: env.DATABASE_URL!, schema });
    try {
      const runs = await store.listRuns({});
      expect(runs.map((r) => r.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
      expect(new Set(runs.map((r) => r.run_id)).size).toBe(4);
    } finally {
      await store.close();
    }
  });

  it('a dead TEMPORAL_ADDRESS at start is one line naming it, exit 69, nothing started', { timeout: 60_000 }, async () => {
    const dead = `127.0.0.1:${await freePort()}`;
    const client = startCli(['run', '--only', 'tiny', '--candidate', 'quick'], { cwd: fixture.root, env: { ...env, TEMPORAL_ADDRESS: dead } });
    processes.push(client);
    expect(await client.exited).toBe(69);
    expect(client.stderr.filter((l) => l.startsWith('error: '))).toEqual([
      `error: Temporal at ${dead} (TEMPORAL_ADDRESS) is unreachable: start that server or point TEMPORAL_ADDRESS at a running one (unset it to use the embedded dev server)`,
    ]);
    expect(client.lines.filter((l) => STACK_LINE.test(l))).toEqual([]);
    expect(client.lines.join('\n')).not.toContain('batch ');
  });

  it('a local port taken by something that is not Temporal is one line naming it, exit 69', { timeout: 60_000 }, async () => {
    // Accepts connections and says nothing, as a stray process on the port would.
    const silent = net.createServer((socket) => socket.on('error', () => undefined));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const local = { ...env, TEMPORAL_ADDRESS: undefined, EVALFLOW_TEMPORAL_PORT: String(port), EVALFLOW_TEMPORAL_UI_PORT: String(await freePort()) };
      const client = startCli(['run', '--only', 'tiny', '--candidate', 'quick'], { cwd: fixture.root, env: local });
      processes.push(client);
      expect(await client.exited).toBe(69);
      expect(client.stderr.filter((l) => l.startsWith('error: '))).toEqual([
        `error: Temporal at 127.0.0.1:${port} is unreachable: port ${port} is open but does not answer as a Temporal server; stop what listens there, or pick another port (EVALFLOW_TEMPORAL_PORT or temporal.port)`,
      ]);
      expect(client.lines.filter((l) => STACK_LINE.test(l))).toEqual([]);
    } finally {
      silent.close();
    }
  });
});
