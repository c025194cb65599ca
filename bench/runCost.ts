// 4. Per-run fixed cost, and the sandbox pool.
// (a) The example cases with an instant candidate and judge: evalflow's prepare + setup +
//     verify + record + cleanup (the activities themselves, on PGlite) against the same git
//     and shell work run bare in one script (worktree add, snapshot copy, the case's checks,
//     worktree remove), alternated. Goal ≤ 1.5×.
// (b) On a generated 20,000-file repository: a sandbox taken from the pool and given back
//     scrubbed, against a fresh `git worktree add` (and its removal), alternated. Goal ≤ 0.2×.
//     Also reported: the time to make the history base of a revision (once per revision).
//
//   node --import tsx bench/runCost.ts
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createActivities, type ActivityDeps } from '../src/activities/index.js';
import { loadEvalBank } from '../src/evalset/index.js';
import { toCaseSnapshot } from '../src/run/caseSnapshot.js';
import { ensureHistoryBase } from '../src/sandbox/historyBase.js';
import { ensureProjectRepo } from '../src/sandbox/projectRepo.js';
import { notePool, poolDirFor, releaseSandbox } from '../src/sandbox/sandboxPool.js';
import { createSandbox } from '../src/sandbox/sandboxRepo.js';
import { openStore } from '../src/store/index.js';
import { FAKE_WORKFLOW_SUPPORT } from '../test/support/fakeWorkflowSupport.js';
import { shellQuote } from '../src/containment/relay.js';
import { row, writeResult } from './support/benchResult.js';
import { exampleRunSpec, finishUnjudged } from './support/exampleRun.js';
import { alternate, median, timeMs } from './support/measure.js';

const REPO = resolve(import.meta.dirname, '..');
const ROUNDS = 5;
const FILES = 20_000;
const started = Date.now();

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'evalflow-bench-runcost-'));
  const store = await openStore({});
  try {
    const { rows: fixed, detail } = await fixedCost(root, store);
    const pool = await poolCost(root);
    writeResult({ name: 'run-cost', title: 'Per-run fixed cost', rows: [...fixed, ...pool], notes: [detail] }, started);
  } finally {
    await store.close();
    await rm(root, { recursive: true, force: true });
  }
}

async function fixedCost(root: string, store: Awaited<ReturnType<typeof openStore>>) {
  await cp(join(REPO, 'examples/project'), join(root, 'project'), { recursive: true });
  await cp(join(REPO, 'examples/workflow'), join(root, 'workflow'), { recursive: true });
  const bank = await loadEvalBank([join(REPO, 'eval_sets')]);
  const cases = bank.cases.map(toCaseSnapshot);
  const stateDir = join(root, '.evalflow');
  const deps: ActivityDeps = {
    store,
    hostId: 'bench-host',
    stateDir,
    sandboxRoot: join(root, 'sandboxes'),
    llmFor: () => ({ chat: () => Promise.reject(new Error('no model in this benchmark')) }),
    candidates: { create: () => ({ runTurn: () => Promise.reject(new Error('no candidate in this benchmark')) }), workflowSupport: () => FAKE_WORKFLOW_SUPPORT, version: async () => null },
    env: { PATH: process.env.PATH },
    log: { info: () => undefined, warn: () => undefined },
    now: () => new Date(),
    version: 'bench',
  };
  const activities = createActivities(deps);
  const project = await ensureProjectRepo(join(root, 'project'), stateDir);
  let serial = 0;

  const evalflowRun = async () => {
    for (const evalCase of cases) {
      const spec = exampleRunSpec(root, evalCase, serial++, { name: 'bench', adapter: 'command', args: [], env: {} });
      await activities.prepareRun(spec);
      await activities.setupSandbox({ spec });
      const postconditions = await activities.verifyRun(spec);
      await finishUnjudged(activities, spec, postconditions, 1, 'nothing was done');
    }
  };

  // The same work as a bare script: one worktree per case, the snapshot copied, every check run, the worktree removed.
  const script = join(root, 'bare.sh');
  const lines = ['#!/usr/bin/env bash', 'set -u', `repo=${JSON.stringify(project.repoDir)}`, `work=${JSON.stringify(join(root, 'bare'))}`, 'mkdir -p "$work"'];
  for (const [i, evalCase] of cases.entries()) {
    const checks = [...evalCase.env.setup_commands, ...evalCase.env.preconditions.map((c) => c.check), ...evalCase.env.postconditions.map((c) => c.check), ...evalCase.env.post_run_cleanup];
    lines.push(`d="$work/${i}-$$"`, 'git -C "$repo" worktree add -q --detach "$d" HEAD', `mkdir -p "$d.run" && cp -r ${JSON.stringify(join(root, 'workflow'))} "$d.run/workflow"`);
    for (const check of checks) lines.push(`SANDBOX_DIR="$d" RUN_DIR="$d.run" CASE_DIR=${JSON.stringify(evalCase.dir)} bash -c ${shellQuote(check)} > /dev/null 2>&1`);
    lines.push('git -C "$repo" worktree remove --force "$d"', 'rm -rf "$d.run"');
  }
  await writeFile(script, `${lines.join('\n')}\n`, { mode: 0o755 });
  const bare = () => execFileSync('bash', [script], { stdio: 'ignore' });

  await evalflowRun(); // warm: the project import, the first checks
  bare();
  const m = await alternate(evalflowRun, bare, ROUNDS);
  return {
    rows: [row(`prepare + setup + verify + record + cleanup, ${cases.length} example cases`, m.ratio, '×', { against: 'the same git and shell work in one script', goal: '<= 1.5', detail: `${m.subjectMs.toFixed(0)} ms vs ${m.baselineMs.toFixed(0)} ms, medians of ${ROUNDS}` })],
    detail: `cases: ${cases.map((c) => c.id).join(', ')}`,
  };
}

async function poolCost(root: string) {
  const repo = join(root, 'big');
  await mkdir(repo, { recursive: true });
  const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' } });
  git(repo, ['init', '-q', '-b', 'main']);
  for (let i = 0; i < FILES; i++) {
    const dir = join(repo, `pkg${i % 100}`, `mod${Math.floor(i / 100) % 20}`);
    if (i < 2000) await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `file${i}.ts`), `export const value${i} = ${i};\n`);
  }
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', 'twenty thousand files']);
  const rev = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
  const sandboxRoot = join(root, 'pool-host');
  const poolDir = poolDirFor(sandboxRoot, repo);
  let serial = 0;

  const pooledRun = async () => {
    const hostDir = join(sandboxRoot, `run-${serial++}`);
    await mkdir(hostDir, { recursive: true });
    await notePool(join(hostDir, 'pool.json'), { poolDir, sandboxRoot, repoDir: repo, rev });
    await createSandbox(repo, join(hostDir, 'work'), rev, { sandboxRoot, poolDir });
    await writeFile(join(hostDir, 'work', 'pkg0', 'mod0', 'file0.ts'), 'changed by the run\n');
    await releaseSandbox(join(hostDir, 'work'), join(hostDir, 'pool.json'), 8);
    await rm(hostDir, { recursive: true, force: true });
  };
  const freshAdd = () => {
    const dir = join(root, 'fresh', String(serial++));
    git(repo, ['worktree', 'add', '-q', '--detach', dir, rev]);
    return dir;
  };
  // Each in a root of its own, so each makes the base from nothing.
  const baseMs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) baseMs.push(await timeMs(() => ensureHistoryBase(join(root, `base-host-${i}`), repo, rev)));
  await pooledRun(); // makes the base and fills the pool with one clone
  let removeMs = 0;
  const m = await alternate(pooledRun, () => {
    const dir = freshAdd();
    const start = performance.now();
    git(repo, ['worktree', 'remove', '--force', dir]);
    removeMs += performance.now() - start;
  }, ROUNDS);
  // The fresh side above includes its removal; its add alone is what the goal compares with.
  const freshAddMs = m.baselineMs - removeMs / ROUNDS;
  return [
    row(`pooled sandbox, taken and given back, ${FILES} files`, m.subjectMs / freshAddMs, '×', { against: 'a fresh git worktree add', goal: '<= 0.2', detail: `${m.subjectMs.toFixed(0)} ms vs ${freshAddMs.toFixed(0)} ms (the add's removal: ${(removeMs / ROUNDS).toFixed(0)} ms more), medians of ${ROUNDS}` }),
    row(`history base of a new revision, ${FILES} files`, median(baseMs), 'ms', { detail: `the pack of the objects the revision reaches, once per revision; median of ${ROUNDS}, slowest ${Math.max(...baseMs).toFixed(0)} ms` }),
  ];
}

await main();
