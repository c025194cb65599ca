import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamDatabaseOf } from '../../src/temporal/teamSchema.js';
import { advertisedAddress } from '../../src/temporal/teamPorts.js';
import { locateTeamBinaries, startTeamServer, type TeamServer } from '../../src/temporal/teamServer.js';
import { postgresUrl, rawPostgres } from '../support/postgres.js';
import { freePort, freeTeamPorts } from '../support/temporalServer.js';

/** The team server bound beyond loopback, ports placed by hand, on a PostgreSQL role with a password. */
describe('team server: --bind, placed ports, the database password', () => {
  const suffix = randomBytes(4).toString('hex');
  const database = `evalflow_bind_${suffix}`;
  const role = `evalflow_pw_${suffix}`;
  const password = `pw-${randomBytes(6).toString('hex')}`;
  let dir: string;
  let server: TeamServer;
  let metrics: number;
  const lines: string[] = [];

  beforeAll(async () => {
    await rawPostgres(`CREATE ROLE ${role} LOGIN CREATEDB PASSWORD '${password}'`);
    const url = new URL(await postgresUrl());
    url.username = role;
    url.password = password;
    url.pathname = `/${database}`;
    dir = await mkdtemp(join(tmpdir(), 'evalflow-bind-'));
    const { port, uiPort } = await freeTeamPorts();
    metrics = await freePort();
    server = await startTeamServer({ binaries: await locateTeamBinaries(() => undefined), database: teamDatabaseOf(url.toString()), dir, port, uiPort, ports: { metrics }, bind: '0.0.0.0', namespace: 'default', say: (line) => lines.push(line) });
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    for (const name of [database, `${database}_visibility`]) await rawPostgres(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await rawPostgres(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('answers on the host address and the placed metrics port, and keeps the password out of every file it writes', { timeout: 120_000 }, async () => {
    expect(server.ports.metrics).toBe(metrics);
    const external = advertisedAddress('0.0.0.0');
    const connection = await Connection.connect({ address: `${external}:${server.ports.frontend}`, connectTimeout: 10_000 });
    try {
      expect((await connection.workflowService.getSystemInfo({})).serverVersion).toBeTruthy();
    } finally {
      await connection.close();
    }
    const scraped = await fetch(`http://${external}:${metrics}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toMatch(/^# (HELP|TYPE) /m);

    const files = (await readdir(dir, { recursive: true })).map((f) => join(dir, f));
    let read = 0;
    for (const file of files) {
      if (!(await stat(file)).isFile()) continue;
      read++;
      expect(await readFile(file, 'utf8'), file).not.toContain(password);
    }
    expect(read).toBeGreaterThanOrEqual(3); // server config, UI config, logs
    expect((await stat(join(dir, 'config', 'development.yaml'))).mode & 0o077).toBe(0);
    expect(lines.join('\n')).not.toContain(password);
  });
});
