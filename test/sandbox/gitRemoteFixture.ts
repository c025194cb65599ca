import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRepo, gitIn, tempDir, writeFiles } from './sandboxFixture.js';

/** A bare repository served over file:// (no network), and the working clone that pushes to it. */
export interface GitRemote {
  url: string;
  bare: string;
  work: string;
  /** Commits `files` in the working clone and pushes it to `branch` of the remote; returns the commit. */
  push(files: Record<string, string>, options?: { branch?: string; tag?: string }): Promise<string>;
}

export async function createGitRemote(files: Record<string, string>): Promise<GitRemote> {
  const work = await createRepo(files);
  const bare = join(await tempDir('evalflow-remote-'), 'app.git');
  await gitIn(work, ['clone', '-q', '--bare', work, bare]);
  await gitIn(work, ['remote', 'add', 'origin', bare]);
  return {
    url: pathToFileURL(bare).href,
    bare,
    work,
    async push(more, options = {}) {
      const branch = options.branch ?? 'main';
      await gitIn(work, ['checkout', '-q', '-B', branch]);
      await writeFiles(work, more);
      await gitIn(work, ['add', '-A']);
      await gitIn(work, ['commit', '-q', '-m', `change on ${branch}`]);
      if (options.tag) await gitIn(work, ['tag', '-a', options.tag, '-m', options.tag]);
      await gitIn(work, ['push', '-q', 'origin', branch, ...(options.tag ? [options.tag] : [])]);
      const commit = await gitIn(work, ['rev-parse', 'HEAD']);
      await gitIn(work, ['checkout', '-q', 'main']);
      return commit;
    },
  };
}
