import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Candidate, TurnRequest } from '../../src/candidates/adapter.js';
import { ConfigError } from '../../src/errors.js';
import { createEvalHarness, type EvalHarness } from '../support/evalHarness.js';
import { greetingCase, judgedGreeting } from '../support/greetingCase.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

/** The case of the failing attempts: junk a failed attempt leaves fails it. */
const NO_JUNK = 'postconditions:\n  - description: no junk from the failed attempt\n    check: test ! -e "${SANDBOX_DIR}/junk.txt"\n    severity: hard\n';

/** Attempt 1 leaves junk in the sandbox and dies like a crashed worker; attempt 2 must not see the junk. */
const flaky: Candidate = {
  async runTurn(request: TurnRequest) {
    const marker = join(request.runDir, 'attempted');
    if (!existsSync(marker)) {
      await writeFile(marker, '1');
      await writeFile(join(request.sandboxDir, 'junk.txt'), 'half-done work\n');
      request.onEvent({ role: 'candidate.assistant_partial', content: 'working on it' });
      throw new Error('simulated worker crash');
    }
    const sawJunk = existsSync(join(request.sandboxDir, 'junk.txt'));
    await writeFile(join(request.sandboxDir, 'greeting.txt'), 'hello\n');
    request.onEvent({ role: 'candidate', content: `done (junk visible: ${sawJunk})` });
    return { reply: 'done', session: {} };
  },
};

/** Runs until cancelled, heartbeating; records that it saw the cancellation. */
const slow: Candidate = {
  async runTurn(request: TurnRequest) {
    await writeFile(join(request.runDir, 'slow-started'), '1');
    while (!request.signal.aborted) {
      request.onActivity?.();
      await new Promise((r) => setTimeout(r, 100));
    }
    await writeFile(join(request.runDir, 'slow-cancelled'), '1');
    throw new Error('cancelled');
  },
};

/** Turn 1 asks for more; turn 2 hits a configuration problem of ours (not the candidate's fault). */
const twoStep: Candidate = {
  async runTurn(request: TurnRequest) {
    if (request.turn === 1) {
      request.onEvent({ role: 'candidate', content: 'KEEP GOING' });
      return { reply: 'KEEP GOING', session: {} };
    }
    throw new ConfigError('candidate "two-step": the second step needs TWO_STEP_TOKEN, which is not set');
  },
};

describe('candidate turns under failure', () => {
  let temporal: TestTemporal;
  let harness: EvalHarness;
  beforeAll(async () => {
    temporal = await startTestTemporal();
    harness = await createEvalHarness({
      backend: 'pglite',
      temporal,
      script: judgedGreeting((request) => ({ text: request.messages.some((m) => m.content.includes('KEEP GOING')) ? 'Go on with the second step.' : '<<END>>' })),
      fakeCandidates: { flaky, slow, twoStep },
    });
    await harness.writeCase('flaky', greetingCase('flaky', { envYaml: NO_JUNK }));
  });
  afterAll(async () => {
    await harness?.close();
    await temporal?.stop();
  });

  it('retries a failed turn from the sandbox state at the start of the turn', async () => {
    const { outcome, spec } = await harness.runCase('flaky', { name: 'flaky', adapter: 'flaky', args: [], env: {} });
    expect(outcome).toMatchObject({ status: 'completed', result: 'pass' });
    expect(outcome.anomalies).toContainEqual({ kind: 'infra_retries', count: 1, detail: 'candidate ×1' });
    const all = await harness.store.getTranscript(spec.runId, { attempts: 'all' });
    expect(all.filter((e) => e.role.startsWith('candidate')).map((e) => [e.attempt, e.content])).toEqual([
      [1, 'working on it'],
      [2, 'done (junk visible: false)'],
    ]);
    // The judge saw only the final attempt.
    const judgePrompt = harness.mock.requests.filter((r) => r.model === 'test-judge').at(-1)!.messages.map((m) => m.content).join('\n');
    expect(judgePrompt).toContain('done (junk visible: false)');
    expect(judgePrompt).not.toContain('working on it');
    expect(await readFile(join(harness.runsDir, spec.runId, 'transcript.jsonl'), 'utf8')).toContain('"attempt":1');
  });

  it('cancels a running turn, kills it, records the run as cancelled and cleans up', async () => {
    await harness.writeCase('slowcase', greetingCase('slowcase', { envYaml: NO_JUNK }));
    const running = harness.runCase('slowcase', { name: 'slow', adapter: 'slow', args: [], env: {} });
    const runDir = () => {
      const runs = harness.store.listRuns({ caseId: 'slowcase' });
      return runs.then((r) => r[0]?.run_dir);
    };
    let dir: string | undefined;
    for (let i = 0; i < 100 && !(dir && existsSync(join(dir, 'slow-started'))); i++) {
      await new Promise((r) => setTimeout(r, 100));
      dir = await runDir();
    }
    expect(dir && existsSync(join(dir, 'slow-started'))).toBe(true);
    const runId = dir!.split('/').at(-1)!;
    await harness.client.workflow.getHandle(runId).cancel();
    await expect(running).rejects.toBeInstanceOf(WorkflowFailedError);
    expect(existsSync(join(dir!, 'slow-cancelled'))).toBe(true);
    expect(await harness.store.getRun(runId)).toMatchObject({ status: 'cancelled' });
    expect(existsSync(join(dir!, 'review.md'))).toBe(true);
    expect(existsSync(join(harness.root, 'sandboxes', runId))).toBe(false);
  });

  it('an infra error in a later turn keeps the turns already used in the record', async () => {
    await harness.writeCase('twostep', greetingCase('twostep', { maxTurns: 3, envYaml: NO_JUNK }));
    const { outcome, spec } = await harness.runCase('twostep', { name: 'two-step', adapter: 'twoStep', args: [], env: {} });
    expect(outcome).toMatchObject({ status: 'infra_error' });
    expect(outcome.error).toContain('TWO_STEP_TOKEN');
    const review = await readFile(join(harness.runsDir, spec.runId, 'review.md'), 'utf8');
    expect(review).toContain('1 of 3 turns, stopped before the examiner ended it');
  });
});
