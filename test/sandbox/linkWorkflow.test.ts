import { lstat, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linkWorkflow, renderWorkflowDocument } from '../../src/sandbox/linkWorkflow.js';
import { snapshotWorkflow } from '../../src/sandbox/workflowSnapshot.js';
import { readTree, tempDir, writeFiles } from './sandboxFixture.js';

const WORKFLOW = {
  'agents/reviewer.md': '# Reviewer\n\nReview every diff.\n',
  'commands/ship.md': 'Ship it.',
  'rules/b-style.md': 'Use tabs.',
  'rules/a-tests.md': 'Write tests first.',
  'skills/node-test/SKILL.md': '# node-test\nRun node --test.',
  'skills/node-test/examples/basic.md': 'assert.equal(1, 1)',
  'skills/git-commit/SKILL.md': '# git-commit',
  'skills/top-level.md': 'A skill file at the top.',
};

async function aSnapshot(files: Record<string, string> = WORKFLOW): Promise<string> {
  const workflow = await writeFiles(await tempDir('evalflow-wf-'), files);
  return (await snapshotWorkflow(workflow, join(await tempDir('evalflow-run-'), 'workflow'))).dir;
}

describe('linkWorkflow: dir links', () => {
  it('places a symlink to the snapshot and reports the path', async () => {
    const snapshot = await aSnapshot();
    const sandbox = await tempDir();
    expect(await linkWorkflow(sandbox, snapshot, [{ path: '.claude', kind: 'dir' }])).toEqual(['.claude']);
    expect((await lstat(join(sandbox, '.claude'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(sandbox, '.claude'))).toBe(snapshot);
    expect(await readFile(join(sandbox, '.claude/skills/node-test/SKILL.md'), 'utf8')).toBe('# node-test\nRun node --test.');
  });

  it('creates parent folders of nested link paths', async () => {
    const snapshot = await aSnapshot();
    const sandbox = await tempDir();
    expect(await linkWorkflow(sandbox, snapshot, [{ path: '.config/agent/workflow', kind: 'dir' }])).toEqual(['.config/agent/workflow']);
    expect(await readlink(join(sandbox, '.config/agent/workflow'))).toBe(snapshot);
  });

  it('is idempotent', async () => {
    const snapshot = await aSnapshot();
    const sandbox = await tempDir();
    await linkWorkflow(sandbox, snapshot, [{ path: '.claude', kind: 'dir' }]);
    expect(await linkWorkflow(sandbox, snapshot, [{ path: '.claude', kind: 'dir' }])).toEqual(['.claude']);
    expect(await readlink(join(sandbox, '.claude'))).toBe(snapshot);
  });

  it("replaces the project's own folder of the same name", async () => {
    const snapshot = await aSnapshot();
    const sandbox = await writeFiles(await tempDir(), { '.claude/settings.json': '{"project":true}', '.claude/rules/own.md': 'own' });
    await linkWorkflow(sandbox, snapshot, [{ path: '.claude', kind: 'dir' }]);
    expect(await readlink(join(sandbox, '.claude'))).toBe(snapshot);
    expect(await readTree(join(sandbox, '.claude'))).toEqual(await readTree(snapshot));
  });
});

describe('linkWorkflow: file links', () => {
  it('renders every file of the snapshot, nested skill folders included, in sorted order', async () => {
    const snapshot = await aSnapshot();
    const sandbox = await tempDir();
    expect(await linkWorkflow(sandbox, snapshot, [{ path: 'AGENTS.md', kind: 'file' }, { path: '.qwen', kind: 'dir' }])).toEqual(['AGENTS.md', '.qwen']);
    const document = await readFile(join(sandbox, 'AGENTS.md'), 'utf8');
    expect(document).toBe(await renderWorkflowDocument(snapshot));
    const headings = document.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toEqual([
      '## agents/reviewer.md',
      '## commands/ship.md',
      '## rules/a-tests.md',
      '## rules/b-style.md',
      '## skills/git-commit/SKILL.md',
      '## skills/node-test/SKILL.md',
      '## skills/node-test/examples/basic.md',
      '## skills/top-level.md',
    ]);
  });

  it('puts each file body under its heading', async () => {
    const document = await renderWorkflowDocument(await aSnapshot({ 'rules/a.md': '\n\nFirst rule.\n\n', 'skills/s/SKILL.md': 'Skill body.' }));
    expect(document).toBe(
      [
        '# Team workflow',
        '',
        "These are the team's agents, commands, rules and skills. Follow them.",
        '',
        '## rules/a.md',
        '',
        'First rule.',
        '',
        '## skills/s/SKILL.md',
        '',
        'Skill body.',
        '',
      ].join('\n'),
    );
  });

  it('rewrites the file when linked again', async () => {
    const sandbox = await writeFiles(await tempDir(), { 'AGENTS.md': 'the project\'s own AGENTS.md' });
    const snapshot = await aSnapshot();
    await linkWorkflow(sandbox, snapshot, [{ path: 'AGENTS.md', kind: 'file' }]);
    await linkWorkflow(sandbox, snapshot, [{ path: 'AGENTS.md', kind: 'file' }]);
    expect(await readFile(join(sandbox, 'AGENTS.md'), 'utf8')).toBe(await renderWorkflowDocument(snapshot));
  });
});
