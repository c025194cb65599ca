import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { run } from '../../src/commands/demo.js';
import { memoryIo } from '../../src/commands/io.js';
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
    const table = io.stdout.join('\n');
    expect(table).toMatch(/add-truncate\s+completed\s+fail\s+2\.0\s+\S+\+with_workflow/);
    expect(table).toMatch(/fix-slug-dashes\s+completed\s+pass\s+5\.0\s+\S+\+with_workflow/);
    expect(table).toMatch(/fix-slug-dashes\s+completed\s+fail\s+2\.5\s+\S+\+no_workflow/);
    expect(table).toMatch(/reading-time-clarify\s+completed\s+pass\s+4\.5\s+\S+\+with_workflow/);
    // The comparison of the arms: one run a side says nothing either way, and says so.
    const comparison = table.slice(table.indexOf('comparison with_workflow → no_workflow:'));
    expect(comparison).toMatch(/^insufficient_data\s+fix-slug-dashes\s+1\/1\s+100% \(21–100\) → 0% \(0–79\)\s+−100/m);
    expect(comparison).toContain('too few runs to tell');
    expect(existsSync(join(dir, 'summaries', 'latest.md'))).toBe(true);
  });
});
