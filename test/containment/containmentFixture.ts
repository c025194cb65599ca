import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess, type ProcessRequest } from '../../src/candidates/processRunner.js';
import { candidateView, checkView, privatePlaces, type SandboxView } from '../../src/containment/index.js';

/**
 * A host laid out as a user's would be, in one temp folder: a HOME with an ssh key, a project
 * repository with a commit, a workspace with its `.env`, evalflow's state and runs, a sandbox
 * root holding this run's clone and another run's, a file in the host's /tmp, a process with a
 * secret in its environment, and a listener on a host loopback port. Every secret is a
 * random token, so a test can tell it was read.
 */
export interface HostFixture {
  root: string;
  token: string;
  home: string;
  project: string;
  workspace: string;
  stateDir: string;
  runsDir: string;
  sandboxRoot: string;
  sandboxDir: string;
  homeDir: string;
  otherSandbox: string;
  caseDir: string;
  hostTmpFile: string;
  /** A host process with `EVF_SECRET=<token>` in its environment. */
  secretProcess: ChildProcess;
  /** A host loopback port that answers `<token>` to whoever connects. */
  listenerPort: number;
  view: SandboxView;
  checkView: SandboxView;
  close(): Promise<void>;
}

export async function makeHost(): Promise<HostFixture> {
  const token = `tok${randomBytes(8).toString('hex')}`;
  const root = await mkdtemp(join(tmpdir(), 'evf-contain-'));
  const home = join(root, 'home', 'user');
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_ed25519'), `key ${token}\n`);
  const workspace = join(root, 'workspace');
  const project = join(workspace, 'project');
  await mkdir(project, { recursive: true });
  await writeFile(join(workspace, '.env'), `OPENAI_API_KEY=${token}\n`);
  await writeFile(join(project, 'app.js'), `// ${token}\n`);
  execFileSync('git', ['init', '-q', '-b', 'main', project]);
  execFileSync('git', ['-C', project, 'add', '-A']);
  execFileSync('git', ['-C', project, '-c', 'user.name=u', '-c', 'user.email=u@x', 'commit', '-qm', 'a']);
  const stateDir = join(workspace, '.evalflow');
  await mkdir(join(stateDir, 'pglite'), { recursive: true });
  await writeFile(join(stateDir, 'pglite', 'PG_VERSION'), `${token}\n`);
  const runsDir = join(workspace, 'runs');
  await mkdir(join(runsDir, 'run-1'), { recursive: true });
  await writeFile(join(runsDir, 'run-1', 'score.yaml'), `result: pass # ${token}\n`);
  const caseDir = join(workspace, 'eval_sets', 'case-a');
  await mkdir(caseDir, { recursive: true });
  await writeFile(join(caseDir, 'rubric.md'), `hidden ${token}\n`);
  const sandboxRoot = join(root, 'sandboxes');
  const sandboxDir = join(sandboxRoot, 'run-1', 'work');
  const homeDir = join(sandboxRoot, 'run-1', 'home');
  const otherSandbox = join(sandboxRoot, 'run-2', 'work');
  for (const dir of [sandboxDir, homeDir, otherSandbox]) await mkdir(dir, { recursive: true });
  await writeFile(join(otherSandbox, 'answer.txt'), `other run ${token}\n`);
  execFileSync('git', ['init', '-q', '-b', 'main', sandboxDir]);
  const hostTmpFile = join(tmpdir(), `evf-host-${randomBytes(6).toString('hex')}`);
  await writeFile(hostTmpFile, `${token}\n`);
  const secretProcess = spawn('sleep', ['300'], { env: { ...process.env, EVF_SECRET: token }, stdio: 'ignore' });
  const server: Server = createServer((socket) => socket.end(`${token}\n`));
  const listenerPort = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  const hidden = privatePlaces({ env: { HOME: home }, stateDir, sandboxRoot, workspaceDir: workspace, runsDir, project, workflowDir: join(workspace, 'workflow'), caseDir });
  return {
    root,
    token,
    home,
    project,
    workspace,
    stateDir,
    runsDir,
    sandboxRoot,
    sandboxDir,
    homeDir,
    otherSandbox,
    caseDir,
    hostTmpFile,
    secretProcess,
    listenerPort,
    view: candidateView({ hidden, sandboxDir, homeDir, readable: [] }),
    checkView: checkView({ hidden, sandboxDir, homeDir, readable: [], caseDir, runDir: join(runsDir, 'run-1'), network: 'loopback' }),
    async close() {
      secretProcess.kill('SIGKILL');
      await new Promise<void>((resolve) => server.close(() => resolve()));
      execFileSync('rm', ['-rf', root, hostTmpFile]);
    },
  };
}

/** A candidate's shell command in the host's sandbox with a scrubbed environment (contained when `request` names a view); its output lines joined. */
export async function shellAsCandidate(host: HostFixture, script: string, request: Partial<ProcessRequest> = {}) {
  const lines: string[] = [];
  const result = await runProcess({
    command: 'bash',
    args: ['-c', script],
    cwd: host.sandboxDir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: host.homeDir },
    timeoutMs: 30_000,
    onStdoutLine: (line) => lines.push(line),
    onStderrLine: (line) => lines.push(line),
    ...request,
  });
  return { ...result, output: lines.join('\n') };
}

export { processesWith, survivorsOf } from '../support/processes.js';
