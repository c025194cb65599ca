import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advertisedAddress } from '../../src/temporal/teamPorts.js';
import { startCli, type CliProcess } from '../support/cliProcess.js';
import { freePort } from '../support/temporalServer.js';

describe('evalflow server --bind', () => {
  let dir: string;
  const processes: CliProcess[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evalflow-server-bind-'));
  });
  afterAll(async () => {
    for (const cli of processes) cli.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  const serve = async (bind: string | undefined) => {
    const port = await freePort();
    // The real HOME: the provisioned temporal binary lives in its cache.
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, EVALFLOW_HOME: join(dir, `state-${port}`), EVALFLOW_TEMPORAL_PORT: String(port), EVALFLOW_TEMPORAL_UI_PORT: String(await freePort()) };
    const cli = startCli(['server', ...(bind ? ['--bind', bind] : [])], { cwd: dir, env });
    processes.push(cli);
    await cli.waitForLine(/Ctrl-C stops it/, 120_000);
    return { cli, port };
  };

  it('beyond loopback: says the address other hosts use, warns that it has no TLS, and answers there', { timeout: 240_000 }, async () => {
    const { cli, port } = await serve('0.0.0.0');
    const external = advertisedAddress('0.0.0.0');
    expect(cli.stdout).toContain(`workers and CLIs on other machines: TEMPORAL_ADDRESS=${external}:${port}`);
    // stderr is its own pipe: the warning may arrive after the last stdout line.
    const warning = await cli.waitForLine(/warning: bound to/, 10_000);
    expect(warning).toContain(`warning: bound to 0.0.0.0 without TLS or authentication: anyone who reaches port ${port} can run commands on your workers`);
    expect(cli.stderr).toContain(warning);
    const connection = await Connection.connect({ address: `${external}:${port}`, connectTimeout: 10_000 });
    await connection.close();
    cli.kill('SIGINT');
    expect(await cli.exited).toBe(0);
  });

  it('by default: this machine only, no warning', { timeout: 240_000 }, async () => {
    const { cli } = await serve(undefined);
    expect(cli.stdout.some((line) => line.startsWith('reachable from this machine only (--bind 127.0.0.1)'))).toBe(true);
    expect(cli.lines.some((line) => line.includes('warning: bound to'))).toBe(false);
    cli.kill('SIGINT');
    const code = await cli.exited;
    expect({ code, signal: cli.exitSignal, tail: code === 0 ? [] : cli.lines.slice(-20) }).toEqual({ code: 0, signal: null, tail: [] });
  });
});
