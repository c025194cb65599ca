import { execa } from 'execa';
import { writeFixtures } from '../fixtureDir.js';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'evalflow test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'evalflow test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
};

/** Git in `cwd`; it never rewrites line endings, so fixtures commit exactly the bytes given. */
export async function git(cwd: string, args: string[]): Promise<string> {
  const result = await execa('git', ['-c', 'core.autocrlf=false', ...args], { cwd, env: GIT_ENV });
  return String(result.stdout).trim();
}

/**
 * A git repository in a temp dir with one commit per entry of `commits` (path→content each,
 * applied on top of the previous, byte for byte: CRLF and lone CR stay). Returns the repo
 * path and the commit shas in order.
 */
export async function createGitRepo(commits: Array<Record<string, string>>, name = 'demo'): Promise<{ repo: string; shas: string[] }> {
  const root = await writeFixtures({});
  const repo = path.join(root, 'src-repos', name);
  await mkdir(repo, { recursive: true });
  await git(repo, ['init', '--quiet', '--initial-branch=main']);
  const shas: string[] = [];
  for (const [index, files] of commits.entries()) {
    for (const [relative, content] of Object.entries(files)) {
      const file = path.join(repo, relative);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content, 'utf8');
    }
    await git(repo, ['add', '--all']);
    await git(repo, ['commit', '--quiet', '-m', `commit ${index}`]);
    shas.push(await git(repo, ['rev-parse', 'HEAD']));
  }
  return { repo, shas };
}
