import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aCase, writeTree } from '../evalset/caseFixture.js';
import { startCli } from '../support/cliProcess.js';

/**
 * `evalflow run --until-decided` refusing limits that cannot work, as a user runs it: one line,
 * exit 2, before anything is read or started (the state folder lies below a file, so a started
 * run would fail differently).
 */
async function runCli(args: string[], config = 'project: app\nworkflow_dir: team\n') {
  const root = await writeTree({ 'evalflow.config.yaml': config, 'app/index.js': '', 'team/rules/style.md': '', ...aCase('demo', {}, 'eval_sets/'), tripwire: 'not a folder' });
  const cli = startCli(['run', '--candidate', 'command', '--no-worker', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, EVALFLOW_HOME: 'tripwire/state', EVALFLOW_TEMPORAL_PORT: '1' },
  });
  const code = await cli.exited;
  expect(cli.stdout).toEqual([]);
  expect(existsSync(join(root, 'runs'))).toBe(false);
  return { code, stderr: cli.stderr };
}

const TWO_ARMS = ['--arm', 'A=rules/style.md:-', '--arm', 'B=rules/style.md:-'];

describe('evalflow run --until-decided refuses bad input before anything runs', { timeout: 120_000 }, () => {
  it('without two arms, with a limit but no --until-decided, with a budget but no prices, with --runs-per-case', async () => {
    const oneArm = await runCli(['--until-decided', '--arm', 'A=rules/style.md:-']);
    expect(oneArm.stderr).toEqual(['error: --until-decided: expected exactly two --arm flags (A and B), found 1']);
    expect(oneArm.code).toBe(2);

    const limitAlone = await runCli(['--max-runs-per-case', '8', ...TWO_ARMS]);
    expect(limitAlone.stderr).toEqual(['error: --max-runs-per-case 8: expected with --until-decided, found without it']);
    expect(limitAlone.code).toBe(2);

    const noPrices = await runCli(['--until-decided', '--budget-usd', '3', ...TWO_ARMS]);
    expect(noPrices.stderr).toHaveLength(1);
    expect(noPrices.stderr[0]).toMatch(/^error: --budget-usd 3: expected prices in evalflow\.config\.yaml .* found none; use --max-runs instead$/);
    expect(noPrices.code).toBe(2);

    const fixedRuns = await runCli(['--until-decided', '--runs-per-case', '5', ...TWO_ARMS]);
    expect(fixedRuns.stderr).toEqual(['error: --runs-per-case 5: expected without --until-decided (the rounds decide how many runs each case gets; --max-runs-per-case caps them), found both']);
    expect(fixedRuns.code).toBe(2);
  });

  it('with a limit that is not a positive number', async () => {
    const zero = await runCli(['--until-decided', '--max-runs', '0', ...TWO_ARMS]);
    expect(zero.stderr.join('\n')).toMatch(/--max-runs/);
    expect(zero.stderr.join('\n')).toMatch(/0/);
    expect(zero.code).toBe(2);

    const negative = await runCli(['--until-decided', '--budget-usd', '-1', ...TWO_ARMS]);
    expect(negative.stderr.join('\n')).toMatch(/--budget-usd/);
    expect(negative.code).toBe(2);
  });
});
