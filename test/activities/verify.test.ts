import { readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readEnvChecklist } from '../../src/run/runFiles.js';
import { runPaths } from '../../src/run/runPaths.js';
import type { RunSpec } from '../../src/run/runSpec.js';
import { gitIn, readTree, tempDir, writeFiles } from '../sandbox/sandboxFixture.js';
import { passingJudgeAnswer } from '../support/judgeAnswer.js';
import { createActivityFixture, type ActivityFixture } from './activityFixture.js';

const VERDICT = passingJudgeAnswer(['It is done'], '[Turn 1] candidate');

/** The postcondition runs the case's own test: it passes only when the test is the original one. */
const ENV: RunSpec['evalCase']['env'] = {
  setup_commands: [],
  preconditions: [],
  post_run_cleanup: [],
  postconditions: [{ description: 'the case test passes', check: 'sh test/run.sh && test ! -e test/fixtures/extra.txt', severity: 'hard' }],
  protected: ['test/run.sh', 'test/fixtures/'],
};

describe('verifyRun with protected paths', () => {
  let fx: ActivityFixture;
  beforeEach(async () => {
    fx = await createActivityFixture();
    fx.llm = { chat: async () => ({ content: VERDICT, toolCalls: [], model: 'judge-model', finishReason: 'stop' }) };
    const project = join(fx.root, 'project');
    await writeFiles(project, { 'test/run.sh': 'grep -q original test/fixtures/expected.txt\n', 'test/fixtures/expected.txt': 'original\n' });
    await gitIn(project, ['add', '-A']);
    await gitIn(project, ['commit', '-q', '-m', 'case tests']);
  });
  afterEach(() => fx.close());

  it('restores them before the first postcondition, records them in env_checklist.yaml, and the run gets a protected_changed anomaly in the store and review.md', async () => {
    const spec = await fx.preparedSpec({}, { env: ENV });
    const paths = runPaths(spec, join(fx.root, 'sandboxes'));
    const outside = await writeFiles(await tempDir('evalflow-outside-'), { 'expected.txt': 'gamed\n' });
    // The candidate games its verdict: a test that always passes, fixtures swapped for a link out of the sandbox.
    await writeFile(join(paths.sandboxDir, 'test/run.sh'), 'exit 0\n');
    await rm(join(paths.sandboxDir, 'test/fixtures'), { recursive: true });
    await symlink(outside, join(paths.sandboxDir, 'test/fixtures'));
    await writeFile(join(outside, 'extra.txt'), 'made by the candidate\n');

    const postconditions = await fx.activities().verifyRun(spec);
    expect(postconditions.map((p) => [p.description, p.passed])).toEqual([['the case test passes', true]]);
    expect(await readFile(join(paths.sandboxDir, 'test/run.sh'), 'utf8')).toBe('grep -q original test/fixtures/expected.txt\n');
    expect(await readTree(outside)).toEqual({ 'expected.txt': 'gamed\n', 'extra.txt': 'made by the candidate\n' });
    const restored = [
      { path: 'test/run.sh', change: 'changed' },
      { path: 'test/fixtures/', change: 'changed' },
    ];
    expect((await readEnvChecklist(paths.runDir))?.protected_restored).toEqual(restored);

    // A retried verify finds nothing left to restore and keeps what the first attempt did.
    await fx.activities().verifyRun(spec);
    expect((await readEnvChecklist(paths.runDir))?.protected_restored).toEqual(restored);

    const facts = { turnsUsed: 1, maxTurns: 1, turnLimitHit: false, examinerEnded: true };
    const { verdict } = await fx.activities().judgeRun({ spec, facts, postconditions });
    const outcome = await fx.activities().recordRun({ spec, status: 'completed', facts, postconditions, verdict, anomalies: [], error: null });
    const anomaly = { kind: 'protected_changed', paths: restored };
    expect(outcome.anomalies).toEqual([anomaly]);
    expect((await fx.store.getRun(spec.runId))?.anomalies).toEqual([anomaly]);
    expect(await readFile(join(paths.runDir, 'review.md'), 'utf8')).toContain(
      '- Protected paths restored before the postconditions: test/run.sh (changed), test/fixtures/ (changed)',
    );
  });

  it('leaves a run whose protected paths are untouched without an anomaly, and one of a case without any as before', async () => {
    const spec = await fx.preparedSpec({}, { env: ENV });
    const paths = runPaths(spec, join(fx.root, 'sandboxes'));
    await fx.activities().verifyRun(spec);
    expect((await readEnvChecklist(paths.runDir))?.protected_restored).toEqual([]);

    const { protected: _none, ...unprotected } = ENV;
    const plain = await fx.preparedSpec({}, { env: unprotected });
    await fx.activities().verifyRun(plain);
    expect(await readEnvChecklist(runPaths(plain, join(fx.root, 'sandboxes')).runDir)).not.toHaveProperty('protected_restored');
  });

  it('refuses at prepare a protected path the project lacks, naming env.yaml and the field', async () => {
    const failure = await fx.preparedSpec({}, { env: { ...ENV, protected: ['test/run.sh', 'test/missing.test.js'] } }).catch((err: unknown) => err);
    expect(failure).toMatchObject({ type: 'FormatError', nonRetryable: true });
    expect((failure as Error).message).toMatch(new RegExp(`^${join(fx.root, 'case', 'env.yaml')}: protected\\.1: test/missing\\.test\\.js is not in the project at [0-9a-f]{12}; expected a file or folder it has$`));
  });
});
