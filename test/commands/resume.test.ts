import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/commands/io.js';
import { run as resume } from '../../src/commands/resume.js';
import { run } from '../../src/commands/run.js';
import { startMockServer, type MockServer } from '../../src/llm/mock/server.js';
import type { MockReply, MockRequest } from '../../src/llm/mock/types.js';
import { openStore } from '../../src/store/index.js';
import { cliEnv, copyExamples, writeCliConfig } from '../support/cliFolder.js';
import { passingJudgeAnswer } from '../support/judgeAnswer.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

/**
 * A long outage of the examiner's endpoint after the candidate's first turn: the run becomes
 * infra_error with its sandbox kept, and `evalflow resume` continues it on the same host
 * without running the finished turn again.
 */
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
        if (request.model === 'resume-judge') return { text: passingJudgeAnswer(['progress.txt has both steps']) };
        if (examinerDown) return { status: 503, errorMessage: 'examiner endpoint down' };
        const turns = request.messages.filter((m) => m.role === 'assistant').length;
        return { text: turns >= 2 ? '<<END>>' : 'Now step two.' };
      },
    });
    root = await mkdtemp(join(tmpdir(), 'evalflow-resume-'));
    await copyExamples(root);
    const caseDir = join(root, 'eval_sets', 'two-steps');
    await mkdir(caseDir, { recursive: true });
    await writeFile(join(caseDir, 'meta.yaml'), 'id: two-steps\nversion: v1\ntarget_workflow: t\ncategory: c\npurpose: Two steps.\nmax_turns: 3\n');
    await writeFile(join(caseDir, 'task.md'), '## Prompt\n\n> Do step one.\n\n## Scenario\n\nA user.\n\n## Guidance\n\nAsk for step two, then end.\n');
    await writeFile(join(caseDir, 'rubric.md'), '## Hard requirements\n\n- progress.txt has both steps\n\n## Quality\n\n## Common failures\n');
    await writeFile(
      join(caseDir, 'env.yaml'),
      'postconditions:\n  - description: both steps, once each\n    check: test "$(cat "${SANDBOX_DIR}/progress.txt")" = "$(printf \'step 1\\nstep 2\')"\n    severity: hard\n',
    );
    await writeFile(
      join(root, 'agent.sh'),
      ['#!/usr/bin/env bash', 'cat > /dev/null', `echo "turn $EVALFLOW_TURN" >> ${root}/agent.log`, 'echo "step $EVALFLOW_TURN" >> progress.txt', 'echo "did step $EVALFLOW_TURN"', ''].join('\n'),
    );
    await chmod(join(root, 'agent.sh'), 0o755);
    await writeCliConfig(root, {
      candidates: { agent: './agent.sh' },
      mockUrl: mock.url,
      examiner: 'resume-examiner',
      judge: 'resume-judge',
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

  it('continues an infra_error run from its kept sandbox, asking only what was not answered', async () => {
    const first = memoryIo(root, env);
    expect(await run({ candidate: 'agent' }, first)).toBe(1);
    const runId = /(run-two-steps-agent@\d{8}T\d{6})/.exec(first.stdout.join('\n'))![1]!;
    expect(first.stdout.join('\n')).toMatch(/two-steps\s+infra_error/);
    expect(readFileSync(join(root, 'agent.log'), 'utf8')).toBe('turn 1\n');
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
    expect(readFileSync(join(root, 'agent.log'), 'utf8')).toBe('turn 1\nturn 2\n');
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
