import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../support/cliProcess.js';

describe('evalflow worker flags', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evalflow-worker-flags-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each(['0', '-1', '1.5', 'two', ''])('refuses --slots %j in one line naming the flag and what it expects, exit 2', async (value) => {
    const cli = startCli(['worker', '--slots', value], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir } });
    expect(await cli.exited).toBe(2);
    const said = cli.stderr.join('\n');
    expect(said).toContain('--slots');
    expect(said).toContain(`expected a whole number 1 or more, found '${value}'`);
  }, 60_000);
});
