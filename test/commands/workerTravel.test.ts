import { existsSync } from 'node:fs';
import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { Client, type Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEvalBank } from '../../src/evalset/index.js';
import type { BatchResult } from '../../src/run/batchInput.js';
import { saveCaseSet } from '../../src/run/caseFolder.js';
import { pinSources } from '../../src/run/pinSources.js';
import { readEnvChecklist } from '../../src/run/runFiles.js';
import type { Store } from '../../src/store/index.js';
import { SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { startCli, type CliProcess } from '../support/cliProcess.js';
import type { CrashFixture } from '../support/crashFixture.js';
import { startCrashHarness, type CrashHarness } from '../support/crashHarness.js';

/**
 * A worker host with nothing at the client's paths: its own working folder and HOME, no copy
 * of the eval bank (the client's is moved away once the batch's cases are saved), and a runs
 * dir of its own. The batch's cases travel through the store, the project and workflow can be
 * git URLs it mirrors; the batch completes there.
 */
describe('evalflow worker without the eval bank', () => {
  let harness: CrashHarness;
  let fixture: CrashFixture;
  let store: Store;
  let connection: Connection;
  let worker: CliProcess | undefined;

  beforeAll(async () => {
    harness = await startCrashHarness({
      models: { examiner: 'travel-examiner', judge: 'travel-judge' },
      modelDelayMs: 0,
      agentTurn: ['echo "turn $EVALFLOW_TURN" >> progress.txt', 'echo "did turn $EVALFLOW_TURN"'],
      progressPostcondition: false,
    });
    ({ fixture, store, connection } = harness);
  }, 180_000);

  afterAll(async () => {
    worker?.kill('SIGKILL');
    await worker?.exited;
    await harness?.close();
  });

  it('plans and runs the batch from the cases the client saved, writing run dirs where the worker says', async () => {
    const bank = join(fixture.root, 'eval_sets');
    const input = fixture.batchInput({ name: 'travel', stamp: '20260503T000000', runsPerCase: 1, parallelism: 1, turnTimeoutS: 60, recovery: { modelOutageS: 60, hostLostAfterS: 300 } });
    // The client's side: validate the bank, save its cases, then the bank is gone from the client's path.
    const { cases, problems } = await loadEvalBank([bank]);
    expect(problems).toEqual([]);
    input.selection.caseSet = await saveCaseSet(store, cases);
    await rename(bank, join(fixture.root, 'bank-moved-away'));

    const elsewhere = join(fixture.root, 'host-t');
    await mkdir(join(elsewhere, 'home'), { recursive: true });
    const hostRuns = join(elsewhere, 'runs');
    worker = startCli(['worker', '--slots', '1'], {
      cwd: elsewhere,
      env: { ...fixture.env, HOME: join(elsewhere, 'home'), EVALFLOW_HOME: join(elsewhere, '.evalflow'), EVALFLOW_SANDBOX_ROOT: join(elsewhere, 'sandboxes'), EVALFLOW_HOST_ID: 'host-t', EVALFLOW_RUNS_DIR: hostRuns },
    });
    await worker.waitForLine(/^worker on /, 150_000);

    const client = new Client({ connection });
    const result = (await client.workflow.execute('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] })) as BatchResult;
    expect(result.counts).toMatchObject({ finished: 1, completed: 1 });
    const [run] = await store.listRuns({ batchId: input.batchId });
    // The run dir is the worker's, recorded in the store; nothing was written at the client's runs dir.
    expect(run?.run_dir).toBe(join(hostRuns, run!.run_id));
    expect(existsSync(join(run!.run_dir, 'config.yaml'))).toBe(true);
    expect(existsSync(input.template.runsDir)).toBe(false);
    // The run keeps the client's case folder as its identity.
    expect((run?.spec as { evalCase?: { dir?: string } }).evalCase?.dir).toBe(cases[0]!.dir);
  }, 400_000);

  it('prepares a project and workflow given as file:// git URLs from its own mirror, at the commits pinned when the batch started', async () => {
    // The client's side: the project and workflow are repositories served at URLs; the batch pins them, then the remotes move on.
    const remotes = await Promise.all(['project', 'workflow'].map((name) => servedRepository(join(fixture.root, name), join(fixture.root, 'remotes', `${name}.git`))));
    const [project, workflow] = remotes as [Served, Served];
    const base = fixture.batchInput({ name: 'travel-urls', stamp: '20260503T000100', runsPerCase: 1, parallelism: 1, turnTimeoutS: 60, recovery: { modelOutageS: 60, hostLostAfterS: 300 } });
    const input = { ...base, template: await pinSources({ ...base.template, project: project.url, workflowDir: workflow.url }) };
    expect(input.template.projectCommit).toBe(project.first);
    expect(input.template.workflowRev).toBe(workflow.first);
    await Promise.all(remotes.map((remote) => remote.moveOn()));
    // Nothing at the client's paths: the worker reads the URLs alone.
    for (const name of ['project', 'workflow']) await rename(join(fixture.root, name), join(fixture.root, `${name}-moved-away`));
    const { cases } = await loadEvalBank([join(fixture.root, 'bank-moved-away')]);
    input.selection.caseSet = await saveCaseSet(store, cases);

    const client = new Client({ connection });
    const result = (await client.workflow.execute('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] })) as BatchResult;
    expect(result.counts).toMatchObject({ finished: 1, completed: 1 });
    const [run] = await store.listRuns({ batchId: input.batchId });
    const checklist = await readEnvChecklist(run!.run_dir);
    expect(checklist).toMatchObject({ project_url: project.url, project_rev: project.first, workflow_url: workflow.url, workflow_rev: workflow.first });
    expect(checklist?.project_repo.startsWith(join(fixture.root, 'host-t', '.evalflow', 'mirrors'))).toBe(true);
    expect(await readFile(join(run!.run_dir, 'config.yaml'), 'utf8')).toContain(`project: ${project.url}\n`);
  }, 400_000);
});

interface Served {
  url: string;
  /** The commit the remote's HEAD was at when served. */
  first: string;
  /** Pushes one more commit to the remote's main branch. */
  moveOn(): Promise<void>;
}

/** `folder` committed into a bare repository at `bare`, served as a file:// URL (no network). */
async function servedRepository(folder: string, bare: string): Promise<Served> {
  const git = async (cwd: string, args: string[]) => String((await execa('git', args, { cwd, env: { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' } })).stdout).trim();
  if (!existsSync(join(folder, '.git'))) {
    await git(folder, ['init', '-q', '-b', 'main']);
    await git(folder, ['add', '-A']);
    await git(folder, ['commit', '-q', '-m', 'served']);
  }
  await mkdir(join(bare, '..'), { recursive: true });
  await git(folder, ['clone', '-q', '--bare', folder, bare]);
  return {
    url: pathToFileURL(bare).href,
    first: await git(folder, ['rev-parse', 'HEAD']),
    async moveOn() {
      await git(folder, ['commit', '-q', '--allow-empty', '-m', 'later']);
      await git(folder, ['push', '-q', bare, 'HEAD:main']);
    },
  };
}
