import { chmod, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { run } from '../../src/commands/run.js';
import { SourceFetchError } from '../../src/errors.js';
import { readEnvChecklist } from '../../src/run/runFiles.js';
import { run as rejudge } from '../../src/commands/rejudge.js';
import { run as show } from '../../src/commands/show.js';
import { RejudgeJson } from '../../src/cli/json/rejudge.js';
import { startMockServer, type MockServer } from '../../src/llm/mock/server.js';
import { cliEnv, copyExamples, writeCliConfig } from '../support/cliFolder.js';
import { passingJudgeAnswer } from '../support/judgeAnswer.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';
import { processesWith, survivorsOf } from '../support/processes.js';

const REPO = resolve(import.meta.dirname, '../..');

describe('evalflow run', () => {
  let temporal: TestTemporal;
  let mock: MockServer;
  let root: string;
  let env: NodeJS.ProcessEnv;
  /** What every config file of this folder says of the models and the runs folder. */
  const models = () => ({ mockUrl: mock.url, examiner: 'cfg-examiner', judge: 'cfg-judge', runsDir: 'out/runs' });

  beforeAll(async () => {
    temporal = await startTestTemporal();
    mock = await startMockServer({
      script: (request) => ({ text: request.model === 'cfg-examiner' ? '<<END>>' : passingJudgeAnswer([1, 2, 3].map((i) => `item ${i}`)) }),
    });
    root = await mkdtemp(join(tmpdir(), 'evalflow-run-'));
    await cp(join(REPO, 'eval_sets'), join(root, 'eval_sets'), { recursive: true });
    await copyExamples(root);
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
    await writeCliConfig(root, { ...models(), candidates: { fixer: './fixer.sh' } });
    env = cliEnv(root, temporal);
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
    expect(await rejudge({ runIds: [runId], judgeModel: 'cfg-judge-2', json: true }, again)).toBe(0);
    expect(mock.requests.filter((r) => r.model === 'cfg-judge-2').length).toBe(judged + 1);
    // --json: the table goes to stderr, stdout is the one document.
    expect(again.stderr.join('\n')).toMatch(/fix-slug-dashes\s+completed\s+pass\s+4\.0/);
    const rejudged = RejudgeJson.parse(JSON.parse(again.stdout.join('\n')));
    expect(rejudged.runs.map((r) => [r.run_id, r.status, r.result, r.overall])).toEqual([[runId, 'completed', 'pass', 4]]);
    expect(rejudged).toMatchObject({ not_rejudged: [], stability: null });
    const missing = memoryIo(root, env);
    await expect(rejudge({ runIds: ['run-nope-x@20200101T000000'] }, missing)).rejects.toThrow('no such run in the store: run-nope-x@20200101T000000');
  });

  it('runs a project given as a git URL at the commit it pinned, and stops at once (SourceFetchError: exit 69) when the URL cannot be read', { timeout: 180_000 }, async () => {
    const work = join(root, 'url-project');
    await cp(join(root, 'project'), work, { recursive: true });
    const git = (cwd: string, ...args: string[]) => execa('git', args, { cwd, env: { ...env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' } });
    await git(work, 'init', '-q', '-b', 'main');
    await git(work, 'add', '-A');
    await git(work, 'commit', '-qm', 'initial');
    const bare = join(root, 'remotes', 'project.git');
    await mkdir(join(root, 'remotes'), { recursive: true });
    await git(root, 'clone', '-q', '--bare', work, bare);
    const url = pathToFileURL(bare).href;
    const io = memoryIo(root, env);
    const code = await run({ only: 'fix-slug-dashes', candidate: 'fixer', project: `${url}#main` }, io);
    expect(io.stderr.join('\n') + io.stdout.join('\n')).toContain('1 runs: 1/1 passed');
    expect(code).toBe(0);
    expect(io.stdout.join('\n')).toContain('1 runs: 1/1 passed');
    const runDir = join(root, /(out\/runs\/run-fix-slug-dashes-fixer@\d{8}T\d{6})/.exec(io.stdout.join('\n'))![1]!);
    const checklist = await readEnvChecklist(runDir);
    expect(checklist).toMatchObject({ project_url: url, project_rev: String((await git(work, 'rev-parse', 'HEAD')).stdout).trim() });

    const gone = memoryIo(root, env);
    const err = await run({ only: 'fix-slug-dashes', candidate: 'fixer', project: `${url}-gone` }, gone).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceFetchError);
    expect((err as Error).message).toMatch(new RegExp(`^project ${url}-gone: cannot read its refs \\(git ls-remote\\): fatal: `));
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

  it('runs k attempts per case: run ids -1..-k, each numbered once in the progress, the table in attempt order', async () => {
    const io = memoryIo(root, env);
    const code = await run({ only: 'fix-slug-dashes', candidate: 'fixer', runsPerCase: 10, parallelism: 5 }, io);
    expect(code).toBe(0);
    const attempts = io.stdout.flatMap((line) => /^fix-slug-dashes\s.*@\d{8}T\d{6}-(\d+)$/.exec(line)?.[1] ?? []).map(Number);
    expect(attempts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const counters = io.stderr.flatMap((line) => /^\[(\d+)\/10\] run-fix-slug-dashes-fixer@/.exec(line)?.[1] ?? []).map(Number);
    // One line per run, numbered in finishing order, also for runs that finish after the last poll.
    expect(counters).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(io.stdout.join('\n')).toContain('10 runs: 10/10 passed');
  });

  it('warns that sandboxes start from the last commit, and says why a run did not complete', async () => {
    const project = join(root, 'git-project');
    await cp(join(root, 'project'), project, { recursive: true });
    const git = (...args: string[]) => execa('git', args, { cwd: project, env: { ...env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' } });
    await git('init', '-q');
    await git('add', '-A');
    await git('commit', '-qm', 'initial');
    await writeFile(join(project, 'src', 'slug.js'), '// work in progress\n');
    const io = memoryIo(root, env);
    // A script whose #! interpreter is missing passes the check before the run and fails to
    // start in its first turn: evalflow's setup, not the candidate's failure, so nothing is judged.
    await writeSetupConfig();
    const judged = mock.requests.filter((r) => r.model === 'cfg-judge').length;
    const code = await run({ config: 'setup.config.yaml', only: 'fix-slug-dashes', candidate: 'broken', project: 'git-project' }, io);
    expect(code).toBe(1);
    expect(io.stderr.join('\n')).toContain(
      'warning: project git-project has 1 uncommitted change (src/slug.js); sandboxes start from its last commit without them: commit them to evaluate them',
    );
    expect(io.stdout.join('\n')).toMatch(
      /^run-fix-slug-dashes-broken@\d{8}T\d{6}: infra_error: candidateTurn failed: CandidateSetupError: broken \(command\) turn 1: could not start \/.*\/broken\.sh: .*broken\.sh: not found \(the file exists: is the interpreter on its #! line installed\?\); args\[0\] .* \(details: evalflow show run-fix-slug-dashes-broken@\d{8}T\d{6}\)$/m,
    );
    expect(mock.requests.filter((r) => r.model === 'cfg-judge').length).toBe(judged);
  });

  it('refuses to start a candidate that cannot start, naming it, the command looked for and how to fix it', async () => {
    await writeSetupConfig();
    const io = memoryIo(root, env);
    await expect(run({ config: 'setup.config.yaml', only: 'fix-slug-dashes', candidate: 'missing' }, io)).rejects.toThrow(
      `candidate "missing" (adapter command) cannot start: ${join(root, 'missing.sh')} does not exist; args[0] (or executable) must name an executable file`,
    );
    await expect(run({ only: 'fix-slug-dashes', candidate: 'command' }, io)).rejects.toThrow(
      'candidate "command": adapter command needs the command to run in args (e.g. args: [./agent.sh]) or executable',
    );
    expect(io.stderr.join('\n')).not.toContain('batch');
  });

  it('Ctrl-C with --on-interrupt cancel cancels the batch; its runs record themselves as cancelled and the command ends', { timeout: 60_000 }, async () => {
    // The candidate is contained: it cannot leave a mark outside its sandbox, but its process is seen.
    const marker = `evf-sleeper-${process.pid}`;
    await writeFile(join(root, 'sleeper.sh'), `#!/usr/bin/env bash\ncat > /dev/null\nexec -a ${marker} sleep 120\n`);
    await chmod(join(root, 'sleeper.sh'), 0o755);
    await writeCliConfig(root, { ...models(), candidates: { sleeper: './sleeper.sh' } }, 'sleepy.config.yaml');
    const io = memoryIo(root, env);
    const running = run({ config: 'sleepy.config.yaml', only: 'fix-slug-dashes', candidate: 'sleeper', onInterrupt: 'cancel' }, io);
    for (let i = 0; i < 300 && processesWith(marker).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(processesWith(marker).length).toBeGreaterThan(0);
    process.emit('SIGINT');
    // The candidate is silent (no output to heartbeat on) and the worker runs in this process.
    expect(await running).toBe(1);
    expect(io.stderr.join('\n')).toContain('cancelling the batch');
    expect(await survivorsOf(marker)).toEqual([]);
    expect(io.stdout.join('\n')).toMatch(/^fix-slug-dashes\s+cancelled\s+-\s+-\s+out\/runs\/run-fix-slug-dashes-sleeper@/m);
  });

  /** Candidates that cannot start: a script whose interpreter is missing, and a script that does not exist. */
  async function writeSetupConfig(): Promise<void> {
    await writeFile(join(root, 'broken.sh'), '#!/nonexistent/bash\necho never\n');
    await chmod(join(root, 'broken.sh'), 0o755);
    await writeCliConfig(root, { ...models(), candidates: { broken: './broken.sh', missing: './missing.sh' } }, 'setup.config.yaml');
  }

  it('names the known candidates when an unknown one is asked for', async () => {
    const io = memoryIo(root, env);
    await expect(run({ candidate: 'nope' }, io)).rejects.toThrow(/unknown candidate 'nope': configured candidates are fixer; adapters usable by name are claude-code, codex/);
  });
});
