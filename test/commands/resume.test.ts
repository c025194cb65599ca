import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { run as resume } from '../../src/commands/resume.js';
import { run } from '../../src/commands/run.js';
import { startMockServer, type MockServer } from '../../src/llm/mock/server.js';
import type { MockReply, MockRequest } from '../../src/llm/mock/types.js';
import { openStore } from '../../src/store/index.js';
import { cliEnv, copyExamples, writeCliConfig } from '../support/cliFolder.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';
import { beaconTurns, turnBeaconLines } from '../support/turnBeacon.js';
import { twoStepsExaminer, TWO_STEPS_VERDICT, writeTwoStepsCase } from '../support/twoStepsCase.js';

/**
 * A long outage of the examiner's endpoint after the candidate's first turn: the run becomes
 * infra_error with its sandbox kept, and `evalflow resume` continues it on the same host
 * without running the finished turn again.
 */
/** The model name the contained agent's turn beacon asks for. */
const TURN_BEACON = 'resume-turn';

describe('evalflow resume', () => {
  let temporal: TestTemporal;
  let mock: MockServer;
  let root: string;
  let env: NodeJS.ProcessEnv;
  let examinerDown = true;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    mock = await startMockServer({
      script: (request: MockRequest): MockReply => {
        if (request.model === TURN_BEACON) return { text: 'noted' };
        if (request.model === 'resume-judge') return { text: TWO_STEPS_VERDICT };
        if (examinerDown) return { status: 503, errorMessage: 'examiner endpoint down' };
        return twoStepsExaminer(request);
      },
    });
    root = await mkdtemp(join(tmpdir(), 'evalflow-resume-'));
    await copyExamples(root);
    await writeTwoStepsCase(join(root, 'eval_sets'), { progressPostcondition: true });
    await writeFile(
      join(root, 'agent.sh'),
      ['#!/usr/bin/env bash', 'cat > /dev/null', ...turnBeaconLines(mock, TURN_BEACON), 'echo "turn $EVALFLOW_TURN" >> progress.txt', 'echo "did turn $EVALFLOW_TURN"', ''].join('\n'),
    );
    await chmod(join(root, 'agent.sh'), 0o755);
    await writeCliConfig(root, {
      candidates: { agent: './agent.sh' },
      mockUrl: mock.url,
      examiner: 'resume-examiner',
      judge: 'resume-judge',
      candidateBaseUrl: mock.url,
      // A short window, so the test need not wait an hour for the outage to count as one.
      extra: ['recovery: { model_outage_s: 3 }'],
    });
    env = cliEnv(root, temporal);
  });
  afterAll(async () => {
    await mock?.close();
    await temporal?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('continues an infra_error run from its kept sandbox, asking only what was not answered', { timeout: 240_000 }, async () => {
    const first = memoryIo(root, env);
    expect(await run({ candidate: 'agent' }, first)).toBe(1);
    const runId = /(run-two-steps-agent@\d{8}T\d{6})/.exec(first.stdout.join('\n'))![1]!;
    expect(first.stdout.join('\n')).toMatch(/two-steps\s+infra_error/);
    expect(beaconTurns(mock, TURN_BEACON)).toEqual(['turn 1']);
    expect(existsSync(join(root, 'sandboxes', runId, 'work', 'progress.txt'))).toBe(true);
    const store = await openStore({ pgliteDir: join(root, '.evalflow', 'pglite') });
    try {
      const row = await store.getRun(runId);
      expect(row).toMatchObject({ status: 'infra_error', parked_host: expect.any(String) });
      expect(row?.error).toMatch(/examinerTurn failed: LlmError: .*examiner endpoint down \(still failing after 3 s of retries; the outage window is 3 s\)/);
      expect(row?.anomalies.some((a) => a.kind === 'infra_retries')).toBe(false);
    } finally {
      await store.close();
    }

    examinerDown = false;
    const examinerCalls = mock.requests.filter((r) => r.model === 'resume-examiner').length;
    const resumed = memoryIo(root, env);
    expect(await resume({ runId }, resumed)).toBe(0);
    expect(resumed.stdout.join('\n')).toMatch(/two-steps\s+completed\s+pass/);
    // Turn 1 was not run again: only turn 2 ran, in the sandbox turn 1 left.
    expect(beaconTurns(mock, TURN_BEACON)).toEqual(['turn 1', 'turn 2']);
    // The examiner was asked for turn 2 again (it never answered) and for turn 3.
    expect(mock.requests.filter((r) => r.model === 'resume-examiner').length - examinerCalls).toBe(2);
    expect(existsSync(join(root, 'sandboxes', runId))).toBe(false);

    const again = memoryIo(root, env);
    await expect(resume({ runId }, again)).rejects.toThrow(`run ${runId} ended completed: only an infra_error run can be resumed`);
  });

  it('refuses a run that never worked, and an unknown run, in one line', async () => {
    const io = memoryIo(root, env);
    await expect(resume({ runId: 'run-nope@20200101T000000' }, io)).rejects.toThrow('no run run-nope@20200101T000000 in the store');
  });
});
