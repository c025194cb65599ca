import { chmod, mkdtemp, readFile, rm, writeFile, mkdir, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { storeOptions } from '../../src/cli/storeOptions.js';
import { run } from '../../src/commands/run.js';
import { loadSettings } from '../../src/config.js';
import { UsageError } from '../../src/errors.js';
import { startMockServer, type MockServer } from '../../src/llm/mock/server.js';
import { openStore } from '../../src/store/index.js';
import { cliEnv, copyExamples, writeCliConfig } from '../support/cliFolder.js';
import { greetingCase } from '../support/greetingCase.js';
import { passingJudgeAnswer } from '../support/judgeAnswer.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';
import { aRun } from '../store/builders.js';

/**
 * `run --changed-only REV` against a workflow repository whose last commit touches one skill
 * (skills/node-test): the cases that expect it or whose recorded runs used it run, no other.
 */
describe('evalflow run --changed-only', () => {
  let temporal: TestTemporal;
  let mock: MockServer;
  let root: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    mock = await startMockServer({ script: (request) => ({ text: request.model === 'cfg-examiner' ? '<<END>>' : passingJudgeAnswer(['greeting.txt exists'], 'write') }) });
    root = await mkdtemp(join(tmpdir(), 'evalflow-changed-only-'));
    await copyExamples(root);
    const workflow = join(root, 'workflow');
    const git = (...args: string[]) => execa('git', args, { cwd: workflow, env: { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' } });
    await git('init', '-q');
    await git('add', '-A');
    await git('commit', '-qm', 'the workflow');
    await appendFile(join(workflow, 'skills/node-test/SKILL.md'), '\nAlso run the tests once more before you finish.\n');
    await git('commit', '-qam', 'node-test: run the tests again');

    const expecting = { 'expects-node-test': 'skills/node-test', 'expects-reviewer': 'agents/reviewer' } as Record<string, string>;
    for (const id of ['expects-node-test', 'used-node-test', 'expects-reviewer', 'plain']) {
      const dir = join(root, 'eval_sets', id);
      await mkdir(dir, { recursive: true });
      for (const [file, text] of Object.entries(greetingCase(id))) await writeFile(join(dir, file), file === 'meta.yaml' && expecting[id] ? `${text}expect_workflow:\n  must_use: [${expecting[id]}]\n` : text);
    }
    await writeFile(join(root, 'greeter.sh'), '#!/usr/bin/env bash\ncat > /dev/null\necho hello > greeting.txt\necho "Wrote greeting.txt."\n');
    await chmod(join(root, 'greeter.sh'), 0o755);
    await writeCliConfig(root, { mockUrl: mock.url, examiner: 'cfg-examiner', judge: 'cfg-judge', runsDir: 'out/runs', candidates: { greeter: './greeter.sh' } });
    env = cliEnv(root, temporal);

    // Earlier runs recorded what they used: used-node-test invoked the skill, expects-reviewer the subagent only.
    const store = await openStore(storeOptions(await loadSettings(root, env)));
    try {
      const used = (item: string, kind: 'skill' | 'agent', name: string) => ({ item, kind, name, loaded: 'yes', invoked: 'yes', first_turn: 1, evidence: `[Turn 1] ${kind}: ${name}` }) as const;
      await store.upsertRun(aRun({ run_id: 'run-used-node-test-old@20261201T000000', case_id: 'used-node-test' }));
      await store.saveWorkflowUsage('run-used-node-test-old@20261201T000000', [used('skills/node-test', 'skill', 'node-test')]);
      await store.upsertRun(aRun({ run_id: 'run-expects-reviewer-old@20261201T000000', case_id: 'expects-reviewer' }));
      await store.saveWorkflowUsage('run-expects-reviewer-old@20261201T000000', [used('agents/reviewer', 'agent', 'reviewer'), { ...used('skills/node-test', 'skill', 'node-test'), loaded: 'no', invoked: 'no', first_turn: null, evidence: null }]);
    } finally {
      await store.close();
    }
  }, 240_000);
  afterAll(async () => {
    await mock?.close();
    await temporal?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('runs exactly the cases expecting or using the changed skill, says what it skipped, and the gate, JUnit and latest.md say they cover those only', async () => {
    const io = memoryIo(root, env);
    const code = await run({ candidate: 'greeter', changedOnly: 'HEAD~1', gate: 'pass_rate>=0', junit: 'out/junit.xml' }, io);
    const out = io.stdout.join('\n');
    expect(out).toMatch(/^--changed-only HEAD~1 \([0-9a-f]{7}\): changed skills\/node-test$/m);
    expect(out).toContain('  runs   expects-node-test: expect_workflow.must_use names skills/node-test');
    expect(out).toContain('  runs   used-node-test: 1 recorded run used skills/node-test (e.g. run-used-node-test-old@20261201T000000)');
    expect(out).toContain('  skips  expects-reviewer: expects none of the changed items, and no recorded run used one');
    expect(out).toContain('  skips  plain: expects none of the changed items, and no recorded run used one');
    expect(io.stderr.join('\n')).toContain('2 runs of 2 cases with candidate greeter');

    const settings = await loadSettings(root, env);
    const store = await openStore(storeOptions(settings));
    try {
      const batchId = /batch (batch-\S+):/.exec(io.stderr.join('\n'))![1]!;
      expect((await store.listRuns({ batchId })).map((r) => r.case_id).sort()).toEqual(['expects-node-test', 'used-node-test']);
    } finally {
      await store.close();
    }
    expect(out).toMatch(/^gate: covers only the cases of --changed-only HEAD~1 \([0-9a-f]{7}\): 2 of 4 cases, those a change of skills\/node-test can affect; 2 skipped$/m);
    expect(code).toBe(0);
    const junit = await readFile(join(root, 'out/junit.xml'), 'utf8');
    // The runs of the picked cases, then the gate's one check.
    expect([...junit.matchAll(/classname="([^"]+)"/g)].map((m) => m[1]).sort()).toEqual(['expects-node-test', 'gate', 'used-node-test']);
    expect(junit).toMatch(/<property name="evalflow.changed_only" value="--changed-only HEAD~1 \([0-9a-f]{7}\): 2 of 4 cases/);
    expect(junit).toContain('<property name="evalflow.changed_only.skipped.plain" value="expects none of the changed items, and no recorded run used one"/>');
    const latest = await readFile(join(settings.summariesDir, 'latest.md'), 'utf8');
    expect(latest).toMatch(/^Covers only the cases of --changed-only HEAD~1 \([0-9a-f]{7}\): 2 of 4 cases, .*; skipped: expects-reviewer, plain\.$/m);
  }, 300_000);

  it('refuses a revision the workflow repository does not know: one line naming the flag, the value and what is expected, nothing started', async () => {
    const before = mock.requests.length;
    const io = memoryIo(root, env);
    const refused = run({ candidate: 'greeter', changedOnly: 'no-such-rev' }, io);
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow(/^--changed-only no-such-rev: expected a revision of the workflow repository at \S+workflow \(a commit, branch, tag or HEAD~N\), found none there$/);
    expect(io.stdout).toEqual([]);
    expect(mock.requests.length).toBe(before);
  });
});
