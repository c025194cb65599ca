import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { whyCannotContain, type SandboxView } from '../../src/containment/index.js';
import type { CheckCommand } from '../../src/sandbox/checks.js';
import { runStageChecks } from '../../src/sandbox/stageChecks.js';
import { tempDir } from './sandboxFixture.js';

const aCheck = (check: string): CheckCommand => ({ description: `check ${check}`, check, severity: 'hard' });

/** A sandbox folder and a view that hides the host's /tmp (where the test's secret lies) but for it. */
async function contained(): Promise<{ cwd: string; secret: string; view: SandboxView }> {
  const root = await tempDir('evalflow-stage-checks-');
  const cwd = join(root, 'work');
  await mkdir(cwd);
  const secret = join(root, 'secret.txt');
  await writeFile(secret, 'the host secret\n');
  return { cwd, secret, view: { writable: [cwd], readable: [], hidden: [root], network: 'loopback' } };
}

/** The names of the processes a check sees in its sandbox, but for the runner (PID 1) and the check's own shell tools. */
const OTHERS = 'for p in /proc/[0-9]*; do n=${p#/proc/}; [ "$n" = 1 ] || [ "$n" = $$ ] || [ "$n" = $BASHPID ] || cat $p/comm 2>/dev/null; done';

describe.runIf(whyCannotContain() === null)('runStageChecks, contained: a stage\'s checks in one sandbox, each alone in it', () => {
  it('gives each check its own result, in order, with its exit code and output, in the sandbox', async () => {
    const { cwd, secret, view } = await contained();
    const results = await runStageChecks([aCheck('echo one; echo err >&2'), aCheck('echo nope; exit 3'), aCheck(`echo "$PWD $X"; cat ${secret}`)], { cwd, env: { X: 'x' }, view });
    expect(results.map((r) => [r.passed, r.exit_code])).toEqual([
      [true, 0],
      [false, 3],
      [false, 1],
    ]);
    expect(results[0]!.output.split('\n').sort()).toEqual(['err', 'one']);
    expect(results[1]).toMatchObject({ description: 'check echo nope; exit 3', output: 'nope' });
    expect(results[2]!.output).toContain(`${cwd} x`);
    expect(results[2]!.output).not.toContain('the host secret');
  });

  it('kills what a check left running (setsid, nohup) and empties /tmp before the next check starts, never the sandbox folder', async () => {
    const { cwd, view } = await contained();
    const results = await runStageChecks(
      [aCheck('(setsid sleep 600 > /dev/null 2>&1 &); nohup sleep 601 > /dev/null 2>&1 & echo left > /tmp/left; echo kept > kept.txt; echo ok'), aCheck(`${OTHERS}; ls -A /tmp | grep -v '^evalflow-'; cat kept.txt; echo end`)],
      { cwd, env: {}, view },
    );
    expect(results[0]).toMatchObject({ passed: true, output: 'ok' });
    // The sandbox folder (under the host's /tmp here, mounted into the sandbox's) is kept.
    expect(results[1]).toMatchObject({ passed: true, output: 'kept\nend' });
  });

  it('no check can stop the runner or forge the next check\'s result', async () => {
    const { cwd, view } = await contained();
    // Its stdout (a socket) cannot be opened through /proc at all; its descriptors and memory (ptrace, pidfd_getfd) are shut to the checks.
    const forge = "kill -9 1; kill -STOP 1; printf '1 0 0 0\\n' > /proc/1/fd/1 && echo FORGED; readlink /proc/1/fd/1 && echo LINKED; head -c 1 /proc/1/environ > /dev/null && echo READ-MEMORY; exit 4";
    const results = await runStageChecks([aCheck(forge), aCheck('exit 5'), aCheck('echo third')], { cwd, env: {}, view });
    expect(results.map((r) => r.exit_code)).toEqual([4, 5, 0]);
    expect(results[0]!.output).not.toMatch(/FORGED|LINKED|READ-MEMORY/);
    expect(results[2]!.output).toBe('third');
  });

  it('times a check out on its own and goes on with the next', async () => {
    const { cwd, view } = await contained();
    const results = await runStageChecks([aCheck('echo started; sleep 20'), aCheck('exec > /dev/null 2>&1; sleep 20'), aCheck('echo after')], { cwd, env: {}, view, timeoutMs: 500 });
    expect(results[0]).toMatchObject({ passed: false, exit_code: null, output: 'timed out after 500 ms\nstarted' });
    expect(results[1]).toMatchObject({ passed: false, exit_code: null, output: 'timed out after 500 ms\n' });
    expect(results[2]).toMatchObject({ passed: true, output: 'after' });
  });
});

describe('runStageChecks, uncontained', () => {
  it('runs the checks one by one, as runCheck does', async () => {
    const cwd = await tempDir();
    const results = await runStageChecks([aCheck('echo a > f'), aCheck('cat f; exit 2')], { cwd, env: {} });
    expect(results.map((r) => [r.exit_code, r.output])).toEqual([
      [0, ''],
      [2, 'a'],
    ]);
  });
});
