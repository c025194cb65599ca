import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../support/cliProcess.js';

/**
 * Flag values refused by the CLI itself, as a user meets them: one line naming the flag, the
 * value and the expected form, exit 2, and nothing started (no store, no Temporal).
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evalflow-usage-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function refused(args: string[]): Promise<{ code: number | null; stderr: string[]; stdout: string[] }> {
  // EVALFLOW_HOME below a missing folder, Temporal on port 1: anything started would fail otherwise.
  const cli = startCli(args, { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, EVALFLOW_HOME: join(dir, 'state'), EVALFLOW_TEMPORAL_PORT: '1' } });
  const code = await cli.exited;
  return { code, stderr: cli.stderr, stdout: cli.stdout };
}

describe('a bad flag value is one line and exit 2', () => {
  it.each([
    [['compare', 'a', 'b', '--tolerance', 'abc'], "error: option '--tolerance <drop>' argument 'abc' is invalid. expected a fraction 0..1, found 'abc'"],
    [['compare', 'a', 'b', '--tolerance', '50'], "error: option '--tolerance <drop>' argument '50' is invalid. expected a fraction 0..1, found '50' (a percent? 50% is 0.5)"],
    [['view', '--port', '99999'], "error: option '--port <n>' argument '99999' is invalid. expected a whole number 1..65535, found '99999'"],
    [['view', '--host', 'http://localhost'], "error: option '--host <address>' argument 'http://localhost' is invalid. expected a host name or IP address such as 127.0.0.1, 0.0.0.0 or localhost (no scheme, no port), found 'http://localhost'"],
    [['run', '--runs-per-case', '0'], "error: option '--runs-per-case <k>' argument '0' is invalid. expected a whole number 1 or more, found '0'"],
  ])('%j', { timeout: 60_000 }, async (args, line) => {
    const { code, stderr, stdout } = await refused(args);
    expect(stderr).toEqual([line]);
    expect(stdout).toEqual([]);
    expect(code).toBe(2);
  });

  it('a gate threshold a metric can never reach is refused before the bank is read', { timeout: 60_000 }, async () => {
    const { code, stderr } = await refused(['run', '--gate', 'pass_rate>=80']);
    expect(stderr).toEqual(["error: --gate 'pass_rate>=80': pass_rate is a fraction 0..1 (0.8 for 80%), found 80"]);
    expect(code).toBe(2);
  });

  it('--help still exits 0', { timeout: 60_000 }, async () => {
    const { code, stdout } = await refused(['compare', '--help']);
    expect(stdout.join('\n')).toContain('--tolerance <drop>');
    expect(code).toBe(0);
  });
});
