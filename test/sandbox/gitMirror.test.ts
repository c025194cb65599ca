import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { SourceFetchError } from '../../src/errors.js';
import { ensureMirrorAt, mirrorDirFor, pinGitSource } from '../../src/sandbox/gitMirror.js';
import { ensureProjectRepo } from '../../src/sandbox/projectRepo.js';
import { createSandbox } from '../../src/sandbox/sandboxRepo.js';
import { createGitRemote } from './gitRemoteFixture.js';
import { gitIn, readTree, tempDir } from './sandboxFixture.js';

const out = async (cwd: string, args: string[]) => String((await execa('git', args, { cwd, reject: false })).stdout).trim();
const holds = async (dir: string, commit: string) => (await execa('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: dir, reject: false })).exitCode === 0;

/** A host: its own state folder (EVALFLOW_HOME) and sandbox root. */
async function aHost() {
  const root = await tempDir('evalflow-host-');
  return { stateDir: join(root, 'home'), sandboxRoot: join(root, 'sandboxes') };
}

describe('pinGitSource', () => {
  it("pins the remote's HEAD, a branch, a tag (to its commit) or a commit id as they are now", async () => {
    const remote = await createGitRemote({ 'README.md': 'one\n' });
    const first = await gitIn(remote.work, ['rev-parse', 'HEAD']);
    const tagged = await remote.push({ 'README.md': 'two\n' }, { tag: 'v2' });
    const side = await remote.push({ 'side.txt': 'side\n' }, { branch: 'side' });
    expect(await pinGitSource({ url: remote.url }, 'project')).toBe(tagged);
    expect(await pinGitSource({ url: remote.url, ref: 'v2' }, 'project')).toBe(tagged);
    expect(await pinGitSource({ url: remote.url, ref: 'side' }, 'project')).toBe(side);
    expect(await pinGitSource({ url: remote.url, ref: 'refs/heads/side' }, 'project')).toBe(side);
    expect(await pinGitSource({ url: remote.url, ref: first }, 'project')).toBe(first);
  });

  it('fails as ours, naming the URL and what git said, for a remote that cannot be read or a ref it lacks', async () => {
    const remote = await createGitRemote({ 'README.md': 'one\n' });
    const missing = `${remote.url}-gone`;
    const gone = await pinGitSource({ url: missing }, 'project').catch((err: unknown) => err);
    expect(gone).toBeInstanceOf(SourceFetchError);
    expect((gone as Error).message).toMatch(new RegExp(`^project ${missing}: cannot read its refs \\(git ls-remote\\): .*(does not appear to be a git repository|Could not read from remote)`));
    const noRef = await pinGitSource({ url: remote.url, ref: 'nope' }, 'workflow').catch((err: unknown) => err);
    expect((noRef as Error).message).toBe(`workflow ${remote.url}: no ref nope there`);
  });
});

describe('ensureMirrorAt and a project given by URL', () => {
  it('gives two hosts the commit the batch pinned, with the same files, after the remote moved on', async () => {
    const remote = await createGitRemote({ 'README.md': 'pinned\n', 'src/a.js': 'a\n' });
    const pinned = await pinGitSource({ url: remote.url }, 'project');
    const [hostA, hostB] = [await aHost(), await aHost()];
    const a = await ensureProjectRepo(remote.url, hostA.stateDir, pinned);
    await createSandbox(a.repoDir, join(hostA.sandboxRoot, 'run-1'), a.rev, { sandboxRoot: hostA.sandboxRoot });
    const later = await remote.push({ 'README.md': 'moved on\n' });
    const b = await ensureProjectRepo(`${remote.url}`, hostB.stateDir, pinned);
    await createSandbox(b.repoDir, join(hostB.sandboxRoot, 'run-2'), b.rev, { sandboxRoot: hostB.sandboxRoot });

    expect(a).toEqual({ repoDir: mirrorDirFor(hostA.stateDir, remote.url), rev: pinned, imported: false, url: remote.url });
    expect(b).toEqual({ repoDir: mirrorDirFor(hostB.stateDir, remote.url), rev: pinned, imported: false, url: remote.url });
    expect(a.repoDir.startsWith(join(hostA.stateDir, 'mirrors'))).toBe(true);
    for (const sandbox of [join(hostA.sandboxRoot, 'run-1'), join(hostB.sandboxRoot, 'run-2')]) {
      expect(await out(sandbox, ['rev-parse', 'HEAD'])).toBe(pinned);
      expect(await readTree(sandbox)).toEqual({ 'README.md': 'pinned\n', 'src/a.js': 'a\n' });
    }
    // Host B fetched what was pinned, not what the remote's HEAD is now.
    expect(await pinGitSource({ url: remote.url }, 'project')).toBe(later);
    expect(await holds(b.repoDir, later)).toBe(false);
  });

  it('fetches a pinned commit the mirror lacks, once for parallel prepares, and keeps it by a ref of its own', async () => {
    const remote = await createGitRemote({ 'README.md': 'one\n' });
    const host = await aHost();
    const first = await pinGitSource({ url: remote.url }, 'project');
    const mirror = await ensureMirrorAt(host.stateDir, remote.url, first, 'project');
    const second = await remote.push({ 'README.md': 'two\n' });
    expect(await holds(mirror, second)).toBe(false);
    const dirs = await Promise.all(Array.from({ length: 4 }, () => ensureMirrorAt(host.stateDir, remote.url, second, 'project')));
    expect(new Set(dirs)).toEqual(new Set([mirror]));
    expect(await holds(mirror, second)).toBe(true);
    expect(await out(mirror, ['for-each-ref', '--format=%(refname)', 'refs/evalflow/pinned'])).toBe([`refs/evalflow/pinned/${first}`, `refs/evalflow/pinned/${second}`].sort().join('\n'));
    expect(existsSync(`${mirror}.lock`)).toBe(false);
    // Nothing of the host's git installation went into it, and git's housekeeping never runs there.
    expect(existsSync(join(mirror, 'hooks'))).toBe(false);
    expect(await readFile(join(mirror, 'config'), 'utf8')).toMatch(/auto = 0/);
  });

  it('fails as ours, retryable, naming the URL, the commit and the mirror, when the remote cannot give the commit', async () => {
    const remote = await createGitRemote({ 'README.md': 'one\n' });
    const host = await aHost();
    const absent = 'b'.repeat(40);
    const err = await ensureMirrorAt(host.stateDir, remote.url, absent, 'project').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceFetchError);
    expect((err as SourceFetchError).retryable).toBe(true);
    expect((err as Error).message).toMatch(new RegExp(`^project ${remote.url}: cannot fetch commit ${absent} into this host's mirror ${mirrorDirFor(host.stateDir, remote.url)}: `));
    const unreachable = await ensureProjectRepo(`${remote.url}-gone`, host.stateDir, absent).catch((e: unknown) => e);
    expect(unreachable).toBeInstanceOf(SourceFetchError);
    expect(await ensureProjectRepo(remote.url, host.stateDir).catch((e: Error) => e.message)).toMatch(/a git URL needs the commit its batch pinned/);
  });
});
