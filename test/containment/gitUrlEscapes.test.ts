import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityDeps } from '../../src/activities/deps.js';
import { runViewsOf } from '../../src/activities/runViews.js';
import { whyCannotContain, type SandboxView } from '../../src/containment/index.js';
import { isInside } from '../../src/containment/isInside.js';
import type { RunPaths } from '../../src/run/runPaths.js';
import type { RunSpec } from '../../src/run/runSpec.js';
import { ensureMirrorAt, mirrorDirFor } from '../../src/sandbox/gitMirror.js';
import { makeHost, shellAsCandidate, type HostFixture } from './containmentFixture.js';

/**
 * A run whose project is a `file://` URL: the remote's folder holds the history past the run's
 * commit, and this host's mirror of it holds the same. The views the worker builds for the run
 * (runViewsOf, as prepare and the candidate's turn build them) must hide both.
 *
 * The remote and the state folder live outside the host's /tmp and HOME (hidden as a whole),
 * so what hides them is the run's own view of them, not a neighbour.
 */
let host: HostFixture;
let outside: string;
let remote: string;
let url: string;
let stateDir: string;
let mirror: string;
beforeAll(async () => {
  host = await makeHost();
  const base = resolve(import.meta.dirname, '..', '..', 'test-output');
  await mkdir(base, { recursive: true });
  outside = await mkdtemp(join(base, 'evf-remote-'));
  const work = join(outside, 'work');
  await mkdir(work);
  await writeFile(join(work, 'app.js'), '// pinned\n');
  const git = (args: string[]) => execFileSync('git', ['-C', work, '-c', 'user.name=u', '-c', 'user.email=u@x', ...args], { encoding: 'utf8' }).trim();
  git(['init', '-q', '-b', 'main']);
  git(['add', '-A']);
  git(['commit', '-qm', 'pinned']);
  const pinned = git(['rev-parse', 'HEAD']);
  // A later commit the run must never see: the answer to its case, say.
  await writeFile(join(work, 'answer.js'), `// ${host.token}\n`);
  git(['add', '-A']);
  git(['commit', '-qm', `answer ${host.token}`]);
  remote = join(outside, 'app.git');
  execFileSync('git', ['clone', '-q', '--bare', work, remote]);
  await rm(work, { recursive: true });
  url = pathToFileURL(remote).href;
  stateDir = join(outside, 'state');
  mirror = await ensureMirrorAt(stateDir, url, pinned, 'project');
  // The mirror fetched the remote's refs: the later commit is in it too.
  execFileSync('git', ['--git-dir', mirror, 'fetch', '-q', url, '+refs/heads/*:refs/remotes/origin/*']);
});
afterAll(async () => {
  await host?.close();
  if (outside) await rm(outside, { recursive: true, force: true });
});

/** The candidate's view the worker builds for a run of `project` on this host. */
async function viewFor(project: string): Promise<SandboxView> {
  const deps = { env: { HOME: host.home, PATH: process.env.PATH }, stateDir, sandboxRoot: host.sandboxRoot } as unknown as ActivityDeps;
  const spec = { runId: 'run-1', candidate: { kind: 'command', isolation: 'sandbox' }, project, workflowDir: 'https://example.invalid/workflow.git', evalCase: { id: 'case-a', dir: host.caseDir } } as unknown as RunSpec;
  const paths = { runDir: join(host.runsDir, 'run-1'), workflowSnapshot: join(host.root, 'snapshot'), sandboxDir: host.sandboxDir, homeDir: host.homeDir } as unknown as RunPaths;
  const views = await runViewsOf(deps, spec, paths);
  return views!.candidate;
}

function asCandidate(script: string, view: SandboxView | undefined) {
  return shellAsCandidate(host, script, view ? { view } : {});
}

const READS: [string, () => string][] = [
  ["the file:// remote's folder (its later commits)", () => `git --git-dir=${remote} log --all --format=%s | grep ${host.token}`],
  ["the file:// remote's objects", () => `cat ${remote}/HEAD && git --git-dir=${remote} cat-file --batch-all-objects --batch | grep -a ${host.token}`],
  ["this host's mirror under EVALFLOW_HOME/mirrors", () => `git --git-dir=${mirror} log --all --format=%s | grep ${host.token}`],
];

describe.runIf(whyCannotContain() === null)('a contained candidate of a run whose project is a file:// URL (bubblewrap)', () => {
  it('the mirror is where the worker keeps it', () => {
    expect(mirror).toBe(mirrorDirFor(stateDir, url));
  });

  describe.each(READS)('reads %s', (_what, script) => {
    it('uncontained (isolation: none): it can (so this test can fail)', async () => {
      const run = await asCandidate(script(), undefined);
      expect(run.exitCode, run.output).toBe(0);
      expect(run.output).toContain(host.token);
    });
    it('contained: it cannot', async () => {
      const run = await asCandidate(script(), await viewFor(url));
      expect(run.spawnError).toBeUndefined();
      expect(run.output).not.toContain(host.token);
      expect(run.exitCode).not.toBe(0);
    });
  });

  it("what hides the remote is its URL read as a folder: a run of another project's view leaves it readable", async () => {
    const [own, other] = [await viewFor(url), await viewFor('https://example.invalid/other.git')];
    expect(own.hidden).toContain(remote);
    const hiddenForEveryRun = other.hidden.filter((place) => isInside(remote, place));
    // Only a checkout under a place hidden from every run (/tmp, a HOME) puts the remote there too:
    // then the other view hides it for that reason alone, and reading it cannot tell the two apart.
    if (hiddenForEveryRun.length > 0) {
      expect(hiddenForEveryRun.every((place) => ['/tmp', '/root', '/home', host.home].some((wide) => isInside(place, wide)))).toBe(true);
      return;
    }
    const run = await asCandidate(READS[0]![1](), other);
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).toContain(host.token);
  });
});
