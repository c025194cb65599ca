import { chmod, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/commands/io.js';
import { run } from '../../src/commands/run.js';
import { run as rejudge } from '../../src/commands/rejudge.js';
import { run as show } from '../../src/commands/show.js';
import { startMockServer, type MockServer } from '../../src/llm/mock/server.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

const REPO = resolve(import.meta.dirname, '../..');

describe('evalflow run', () => {
  let temporal: TestTemporal;
  let mock: MockServer;
  let root: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    mock = await startMockServer({
      script: (request) =>
        request.model === 'cfg-examiner'
          ? { text: '<<END>>' }
          : {
              text: [
                "reasoning: 'The hard postconditions passed.'",
                'result: pass',
                'compliance: 4',
                'execution_quality: 4',
                'overall: 4',
                "summary: 'ok'",
                'hard_requirements:',
                ...[1, 2, 3].map((i) => `  - item: 'item ${i}'\n    met: true\n    evidence: 'postcondition'`),
                'suggestions: []',
              ].join('\n'),
            },
    });
    root = await mkdtemp(join(tmpdir(), 'evalflow-run-'));
    await cp(join(REPO, 'eval_sets'), join(root, 'eval_sets'), { recursive: true });
    await cp(join(REPO, 'examples/project'), join(root, 'project'), { recursive: true });
    await cp(join(REPO, 'examples/workflow'), join(root, 'workflow'), { recursive: true });
    // A command candidate that fixes the slug bug the way the reference solution does.
    await writeFile(
      join(root, 'fixer.sh'),
      [
        '#!/usr/bin/env bash',
        'cat > /dev/null',
        "cat > src/slug.js <<'JS'",
        "export function slugify(title) { return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, ''); }",
        'JS',
        "cat >> test/slug.test.js <<'JS'",
        "test('regression', () => { assert.equal(slugify('Hello, World!'), 'hello-world'); });",
        'JS',
        'echo "Fixed slugify and added a regression test."',
        '',
      ].join('\n'),
    );
    await chmod(join(root, 'fixer.sh'), 0o755);
    await writeFile(
      join(root, 'evalflow.config.yaml'),
      [
        'project: project',
        'workflow_dir: workflow',
        'runs_dir: out/runs',
        'candidates:',
        '  fixer:',
        '    adapter: command',
        '    args: [./fixer.sh]',
        'examiner:',
        '  model: cfg-examiner',
        `  base_url: ${mock.url}`,
        'judge:',
        '  model: cfg-judge',
        `  base_url: ${mock.url}`,
        '',
      ].join('\n'),
    );
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      OPENAI_API_KEY: 'sk-test',
      EVALFLOW_HOME: join(root, '.evalflow'),
      EVALFLOW_SANDBOX_ROOT: join(root, 'sandboxes'),
      EVALFLOW_TEMPORAL_PORT: String(temporal.port),
      EVALFLOW_TEMPORAL_UI_PORT: String(temporal.uiPort),
    };
  });
  afterAll(async () => {
    await mock?.close();
    await temporal?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('runs the selected case with a configured candidate and prints the table', async () => {
    const io = memoryIo(root, env);
    const code = await run({ only: 'fix-slug-dashes', candidate: 'fixer' }, io);
    expect(io.stderr.join('\n')).toContain('1 run of 1 case with candidate fixer');
    expect(code).toBe(0);
    const table = io.stdout.join('\n');
    expect(table).toMatch(/^case\s+status\s+result\s+overall\s+run dir$/m);
    expect(table).toMatch(/fix-slug-dashes\s+completed\s+pass\s+4\.0\s+out\/runs\/run-fix-slug-dashes-fixer@\d{8}T\d{6}/);
    expect(table).toContain('1 runs: 1/1 passed');

    const runId = /(run-fix-slug-dashes-fixer@\d{8}T\d{6})/.exec(table)![1]!;
    const shown = memoryIo(root, env);
    expect(await show({ runId }, shown)).toBe(0);
    expect(shown.stdout.join('\n')).toContain('status    completed, pass, overall 4');
    expect(shown.stdout.join('\n')).toContain('✓ out/runs/' + runId + '/review.md');

    // Judge it again with another model: the candidate script is not run again.
    const judged = mock.requests.filter((r) => r.model === 'cfg-judge-2').length;
    const again = memoryIo(root, env);
    expect(await rejudge({ runIds: [runId], judgeModel: 'cfg-judge-2' }, again)).toBe(0);
    expect(mock.requests.filter((r) => r.model === 'cfg-judge-2').length).toBe(judged + 1);
    expect(again.stdout.join('\n')).toMatch(/fix-slug-dashes\s+completed\s+pass\s+4\.0/);
    const missing = memoryIo(root, env);
    await expect(rejudge({ runIds: ['run-nope-x@20200101T000000'] }, missing)).rejects.toThrow('no such run in the store: run-nope-x@20200101T000000');
  });

  it('refuses to start when a selected case is invalid, naming the file and field', async () => {
    await mkdir(join(root, 'eval_sets', 'broken'), { recursive: true });
    await cp(join(root, 'eval_sets', 'add-truncate'), join(root, 'eval_sets', 'broken'), { recursive: true });
    await writeFile(join(root, 'eval_sets', 'broken', 'meta.yaml'), 'id: broken\nversion: v1\ntarget_workflow: x\ncategory: y\npurpose: z\nmax_turns: 0\nmodel: gpt-4o\n');
    const io = memoryIo(root, env);
    const code = await run({ candidate: 'fixer' }, io);
    expect(code).toBe(1);
    const errors = io.stderr.join('\n');
    expect(errors).toContain('eval_sets/broken/meta.yaml');
    expect(errors).toContain('max_turns');
    expect(errors).toContain('model');
    expect(errors).toContain('nothing was run');
    await rm(join(root, 'eval_sets', 'broken'), { recursive: true });
  });

  it('names the known candidates when an unknown one is asked for', async () => {
    const io = memoryIo(root, env);
    await expect(run({ candidate: 'nope' }, io)).rejects.toThrow(/unknown candidate 'nope': configured candidates are fixer; adapters usable by name are claude-code, codex/);
  });
});
