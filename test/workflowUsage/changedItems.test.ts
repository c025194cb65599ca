import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedWorkflowItems } from '../../src/workflowUsage/changedItems.js';
import { itemRefOfFile } from '../../src/workflowUsage/workflowItems.js';

describe('itemRefOfFile', () => {
  it('names the item a file belongs to, as listWorkflowItems names it', () => {
    expect(itemRefOfFile('skills/node-test/SKILL.md')).toBe('skills/node-test');
    expect(itemRefOfFile('skills/node-test/scripts/run.sh')).toBe('skills/node-test');
    expect(itemRefOfFile('commands/git/commit.md')).toBe('commands/git/commit');
    expect(itemRefOfFile('agents/reviewer.md')).toBe('agents/reviewer');
    expect(itemRefOfFile('rules/testing.mdc')).toBe('rules/testing');
  });

  it('names none for a loose file beside the skills, a hidden file or a path outside the four folders', () => {
    expect(itemRefOfFile('skills/README.md')).toBeNull();
    expect(itemRefOfFile('skills/node-test/.DS_Store')).toBeNull();
    expect(itemRefOfFile('docs/skills/x.md')).toBeNull();
    expect(itemRefOfFile('README.md')).toBeNull();
  });
});

describe('changedWorkflowItems, on a real git repository', () => {
  let repo: string;
  /** The workflow sits in a subfolder of its repository, as a team's often does. */
  let workflow: string;
  const git = (...args: string[]) => execa('git', args, { cwd: repo, env: { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' } });
  const write = async (path: string, text: string) => {
    await mkdir(dirname(join(workflow, path)), { recursive: true });
    await writeFile(join(workflow, path), text);
  };

  beforeAll(async () => {
    repo = await mkdtemp(join(tmpdir(), 'evalflow-changed-'));
    workflow = join(repo, 'team', 'workflow');
    await git('init', '-q');
    await write('skills/alpha/SKILL.md', 'alpha v1\n');
    await write('skills/beta/SKILL.md', 'beta v1\n');
    await write('rules/style.md', 'style v1\n');
    await write('commands/git/commit.md', 'commit v1\n');
    await write('../notes.md', 'outside the workflow\n');
    await git('add', '-A');
    await git('commit', '-qm', 'first');
    await write('skills/alpha/SKILL.md', 'alpha v2\n');
    await write('../notes.md', 'changed, outside the workflow\n');
    await git('commit', '-qam', 'second: alpha');
  });
  afterAll(async () => {
    await rm(repo, { recursive: true, force: true });
  });

  it('lists the items whose files changed since the revision, with the commit it names', async () => {
    const changed = await changedWorkflowItems(workflow, 'HEAD~1');
    const first = (await git('rev-parse', 'HEAD~1')).stdout.trim();
    expect(changed).toEqual({ commit: first, items: ['skills/alpha'] });
    expect(await changedWorkflowItems(workflow, 'HEAD')).toEqual({ commit: (await git('rev-parse', 'HEAD')).stdout.trim(), items: [] });
  });

  it('counts what a run would snapshot: uncommitted edits, removals and new files too', async () => {
    await write('commands/git/commit.md', 'commit v2, not committed\n');
    await write('agents/reviewer.md', 'new, untracked\n');
    await rm(join(workflow, 'rules/style.md'));
    try {
      expect((await changedWorkflowItems(workflow, 'HEAD'))?.items).toEqual(['agents/reviewer', 'commands/git/commit', 'rules/style']);
    } finally {
      await git('checkout', '-q', '--', '.');
      await rm(join(workflow, 'agents'), { recursive: true, force: true });
    }
  });

  it('is null for a revision the repository does not know, or a folder outside git', async () => {
    expect(await changedWorkflowItems(workflow, 'no-such-branch')).toBeNull();
    expect(await changedWorkflowItems(workflow, '--output=/tmp/x')).toBeNull();
    const outside = await mkdtemp(join(tmpdir(), 'evalflow-nogit-'));
    try {
      expect(await changedWorkflowItems(outside, 'HEAD')).toBeNull();
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
