import { existsSync } from 'node:fs';
import { lstat, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getCandidateAdapter } from '../../src/candidates/index.js';
import { placeWorkflow, renderWorkflowDocument } from '../../src/sandbox/placeWorkflow.js';
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

const CLAUDE = getCandidateAdapter('claude-code').workflow;
const CODEX = getCandidateAdapter('codex').workflow;

describe('placeWorkflow: native folders', () => {
  it('links each folder where Claude Code discovers it and records the placement', async () => {
    const snapshot = await aSnapshot();
    const sandbox = await tempDir();
    const { placement, placed } = await placeWorkflow(sandbox, snapshot, 'claude-code', CLAUDE);
    expect(placed).toEqual(['.claude/agents', '.claude/commands', '.claude/rules', '.claude/skills']);
    expect(placement).toEqual({
      adapter: 'claude-code',
      folders: [
        { folder: 'agents', mode: 'native', path: '.claude/agents' },
        { folder: 'commands', mode: 'native', path: '.claude/commands' },
        { folder: 'rules', mode: 'native', path: '.claude/rules' },
        { folder: 'skills', mode: 'native', path: '.claude/skills' },
      ],
    });
    expect(await readlink(join(sandbox, '.claude/skills'))).toBe(join(snapshot, 'skills'));
    expect(await readFile(join(sandbox, '.claude/skills/node-test/SKILL.md'), 'utf8')).toBe('# node-test\nRun node --test.');
    expect(existsSync(join(sandbox, 'CLAUDE.md'))).toBe(false);
  });

  it("keeps the project's own files beside the linked folders, replacing only a folder of the same name", async () => {
    const snapshot = await aSnapshot();
    const sandbox = await writeFiles(await tempDir(), { '.claude/settings.json': '{"project":true}', '.claude/rules/own.md': 'own' });
    await placeWorkflow(sandbox, snapshot, 'claude-code', CLAUDE);
    expect(await readFile(join(sandbox, '.claude/settings.json'), 'utf8')).toBe('{"project":true}');
    expect(await readTree(join(sandbox, '.claude/rules'))).toEqual(await readTree(join(snapshot, 'rules')));
  });

  it('is idempotent', async () => {
    const snapshot = await aSnapshot();
    const sandbox = await tempDir();
    const first = await placeWorkflow(sandbox, snapshot, 'claude-code', CLAUDE);
    expect(await placeWorkflow(sandbox, snapshot, 'claude-code', CLAUDE)).toEqual(first);
    expect((await lstat(join(sandbox, '.claude/skills'))).isSymbolicLink()).toBe(true);
  });

  it('inlines what the agent has no place for into its context file, and says so per folder', async () => {
    const snapshot = await aSnapshot();
    const sandbox = await tempDir();
    const { placement, placed } = await placeWorkflow(sandbox, snapshot, 'codex', CODEX);
    expect(placed).toEqual(['.agents/skills', 'AGENTS.md']);
    expect(placement.folders).toEqual([
      { folder: 'agents', mode: 'inlined', path: 'AGENTS.md' },
      { folder: 'commands', mode: 'inlined', path: 'AGENTS.md' },
      { folder: 'rules', mode: 'inlined', path: 'AGENTS.md' },
      { folder: 'skills', mode: 'native', path: '.agents/skills' },
    ]);
    const document = await readFile(join(sandbox, 'AGENTS.md'), 'utf8');
    expect(document).toBe(await renderWorkflowDocument(snapshot, ['agents', 'commands', 'rules']));
    expect(document).not.toContain('skills/');
  });

  it('links the whole snapshot at one path for an agent with no discovery of its own', async () => {
    const snapshot = await aSnapshot();
    const sandbox = await tempDir();
    const { placement, placed } = await placeWorkflow(sandbox, snapshot, 'command', getCandidateAdapter('command').workflow);
    expect(placed).toEqual(['.evalflow-workflow']);
    expect(await readlink(join(sandbox, '.evalflow-workflow'))).toBe(snapshot);
    expect(placement.folders.map((f) => `${f.mode} ${f.path}`)).toEqual(['linked .evalflow-workflow/agents', 'linked .evalflow-workflow/commands', 'linked .evalflow-workflow/rules', 'linked .evalflow-workflow/skills']);
  });
});

describe('renderWorkflowDocument', () => {
  it('renders every file of the snapshot, nested skill folders included, in sorted order', async () => {
    const snapshot = await aSnapshot();
    const document = await renderWorkflowDocument(snapshot);
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

  it("rewrites the project's own context file when placed again", async () => {
    const sandbox = await writeFiles(await tempDir(), { 'AGENTS.md': 'the project\'s own AGENTS.md' });
    const snapshot = await aSnapshot();
    await placeWorkflow(sandbox, snapshot, 'codex', CODEX);
    await placeWorkflow(sandbox, snapshot, 'codex', CODEX);
    expect(await readFile(join(sandbox, 'AGENTS.md'), 'utf8')).toBe(await renderWorkflowDocument(snapshot, ['agents', 'commands', 'rules']));
  });
});
