import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { run } from '../../src/commands/demo.js';
import { memoryIo } from '../../src/cli/io.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

describe('evalflow demo', () => {
  let temporal: TestTemporal;
  let dir: string;
  beforeAll(async () => {
    temporal = await startTestTemporal();
    dir = await mkdtemp(join(tmpdir(), 'evalflow-demo-'));
  });
  afterAll(async () => {
    await temporal?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs the three example cases with and without the workflow, offline, leaves complete run directories and compares the arms', async () => {
    const io = memoryIo(dir, {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      EVALFLOW_HOME: join(dir, '.evalflow'),
      EVALFLOW_TEMPORAL_PORT: String(temporal.port),
      EVALFLOW_TEMPORAL_UI_PORT: String(temporal.uiPort),
      // A key in the environment must not reach any file the demo writes.
      OPENAI_API_KEY: 'sk-real-key-that-must-not-leak',
    });
    const code = await run({ runsDir: join(dir, 'runs') }, io);
    expect(io.stderr.join('\n')).toContain('[mock LLM]');
    expect(code).toBe(0);
    const runs = (await readdir(join(dir, 'runs'))).sort();
    expect(runs.map((r) => r.replace(/@\d{8}T\d{6}/, ''))).toEqual([
      'run-add-truncate-builtin+no_workflow',
      'run-add-truncate-builtin+with_workflow',
      'run-add-wordcount-test-builtin+no_workflow',
      'run-add-wordcount-test-builtin+with_workflow',
      'run-explain-wordcount-builtin+no_workflow',
      'run-explain-wordcount-builtin+with_workflow',
      'run-fix-slug-dashes-builtin+no_workflow',
      'run-fix-slug-dashes-builtin+with_workflow',
      'run-reading-time-clarify-builtin+no_workflow',
      'run-reading-time-clarify-builtin+with_workflow',
    ]);
    for (const runId of runs) {
      for (const file of ['config.yaml', 'env_checklist.yaml', 'transcript.jsonl', 'score.yaml', 'review.md']) {
        expect(existsSync(join(dir, 'runs', runId, file)), `${runId}/${file}`).toBe(true);
      }
      // The no_workflow arm runs without the team's workflow: no snapshot of it.
      expect(existsSync(join(dir, 'runs', runId, 'workflow/rules/testing.md')), runId).toBe(runId.includes('+with_workflow'));
      for (const file of ['config.yaml', 'env_checklist.yaml', 'transcript.jsonl', 'score.yaml', 'review.md']) {
        expect(await readFile(join(dir, 'runs', runId, file), 'utf8')).not.toContain('sk-real-key-that-must-not-leak');
      }
    }
    const checklist = async (prefix: string, arm = 'with_workflow') =>
      parseYaml(await readFile(join(dir, 'runs', runs.find((r) => r.startsWith(prefix) && r.endsWith(`+${arm}`))!, 'env_checklist.yaml'), 'utf8')) as {
        postconditions: { description: string; passed: boolean }[];
      };
    // The scripted candidate's work is checked for real in the sandbox: the right solutions pass
    // their postconditions and the off-by-one truncate fails its behaviour check.
    expect((await checklist('run-fix-slug-dashes')).postconditions.every((p) => p.passed)).toBe(true);
    expect((await checklist('run-reading-time-clarify')).postconditions.every((p) => p.passed)).toBe(true);
    const truncate = await checklist('run-add-truncate');
    expect(truncate.postconditions.find((p) => p.description === 'truncate behaves as specified')?.passed).toBe(false);
    expect(truncate.postconditions.find((p) => p.description === 'the test suite passes')?.passed).toBe(true);
    // Without the workflow the candidate skipped the regression test, and the case caught it.
    expect((await checklist('run-fix-slug-dashes', 'no_workflow')).postconditions.find((p) => p.description === 'the new tests catch the original bug')?.passed).toBe(false);
    // The skill pair: with the workflow the node-test skill fires where it must (the candidate
    // read its SKILL.md in turn 1) and stays quiet on the near miss; both expectations are hard
    // requirements of their runs. Without the workflow there is nothing to expect.
    const score = async (prefix: string, arm = 'with_workflow') =>
      parseYaml(await readFile(join(dir, 'runs', runs.find((r) => r.startsWith(prefix) && r.endsWith(`+${arm}`))!, 'score.yaml'), 'utf8')) as {
        result: string;
        hard_requirements: { item: string; met: boolean | null; evidence: string }[];
        workflow_usage?: { item: string; loaded: string; invoked: string; first_turn: number | null; evidence: string | null }[];
      };
    const fires = await score('run-add-wordcount-test-');
    expect(fires.result).toBe('pass');
    expect(fires.workflow_usage?.find((row) => row.item === 'skills/node-test')).toEqual({
      item: 'skills/node-test',
      kind: 'skill',
      name: 'node-test',
      loaded: 'yes',
      invoked: 'yes',
      first_turn: 1,
      evidence: '[Turn 1] read: .agents/skills/node-test/SKILL.md (22 lines)',
    });
    expect(fires.hard_requirements.at(-1)).toMatchObject({ item: 'uses skills/node-test (expect_workflow.must_use)', met: true });
    const quiet = await score('run-explain-wordcount-');
    expect(quiet.result).toBe('pass');
    expect(quiet.workflow_usage?.find((row) => row.item === 'skills/node-test')).toMatchObject({ loaded: 'no', invoked: 'no', first_turn: null });
    expect(quiet.hard_requirements.at(-1)).toMatchObject({ item: 'does not use skills/node-test (expect_workflow.must_not_use)', met: true });
    const without = await score('run-add-wordcount-test-', 'no_workflow');
    expect(without.workflow_usage).toBeUndefined();
    expect(without.hard_requirements.some((item) => item.item.includes('expect_workflow'))).toBe(false);
    const review = await readFile(join(dir, 'runs', runs.find((r) => r.startsWith('run-add-wordcount-test-') && r.endsWith('+with_workflow'))!, 'review.md'), 'utf8');
    expect(review).toContain('## Workflow used');
    expect(review).toContain('| skills/node-test | yes | yes | 1 | [Turn 1] read: .agents/skills/node-test/SKILL.md (22 lines) |');
    // The builtin agent has no place for commands, rules and subagents: they were inlined, and the review says what that means.
    expect(review).toContain('Workflow inlined: agents/, commands/ inlined into AGENTS.md; trigger measurement is not meaningful for them');
    const stats = parseYaml(await readFile(join(dir, 'summaries', 'latest-stats.yaml'), 'utf8')) as { trigger_quality?: Record<string, unknown> };
    expect(stats.trigger_quality?.['skills/node-test']).toEqual({ true_positives: 1, false_positives: 0, false_negatives: 0, true_negatives: 1, unknown: 0, precision: 1, recall: 1, f1: 1 });
    const table = io.stdout.join('\n');
    expect(table).toMatch(/add-truncate\s+completed\s+fail\s+2\.0\s+\S+\+with_workflow/);
    expect(table).toMatch(/fix-slug-dashes\s+completed\s+pass\s+5\.0\s+\S+\+with_workflow/);
    expect(table).toMatch(/fix-slug-dashes\s+completed\s+fail\s+2\.5\s+\S+\+no_workflow/);
    expect(table).toMatch(/reading-time-clarify\s+completed\s+pass\s+4\.5\s+\S+\+with_workflow/);
    // The comparison of the arms: one run a side says nothing either way, and says so.
    // The arm without the workflow is the baseline: a positive difference is what the workflow adds.
    const comparison = table.slice(table.indexOf('comparison no_workflow → with_workflow:'));
    expect(comparison).toMatch(/^insufficient_data\s+fix-slug-dashes\s+1\/1\s+0% \(0–79\) → 100% \(21–100\)\s+\+100/m);
    expect(comparison).toContain('too few runs to tell');
    // Once, in one direction: never the same comparison again with the opposite sign.
    expect(table.match(/^insufficient_data\s+fix-slug-dashes\s/gm)).toHaveLength(1);
    expect(table).not.toContain('100% (21–100) → 0% (0–79)');
    expect(table).toContain('  skills/node-test  precision 1.00  recall 1.00  F1 1.00  (tp 1 fp 0 fn 0 tn 1, 0 unknown)');
    // latest.md and latest-stats.yaml go arm by arm, never pooled.
    const latest = await readFile(join(dir, 'summaries', 'latest.md'), 'utf8');
    expect(latest).toContain('**with_workflow against no_workflow**');
    expect(latest).not.toContain('Pass rate 70%');
    const arms = (stats as { arms?: Record<string, { overall: { completed: number } }> }).arms;
    expect(Object.keys(arms ?? {})).toEqual(['no_workflow', 'with_workflow']);
  });
});
