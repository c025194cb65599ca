import { existsSync } from 'node:fs';
import { rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../src/errors.js';
import { snapshotWorkflow, snapshotWorkflowAt, WORKFLOW_FOLDERS } from '../../src/sandbox/workflowSnapshot.js';
import { createRepo, gitIn, readTree, tempDir, writeFiles } from './sandboxFixture.js';

const WORKFLOW = {
  'agents/reviewer.md': '# reviewer',
  'commands/ship.md': '# ship',
  'rules/style.md': '# style',
  'skills/node-test/SKILL.md': '# node test skill',
  'skills/node-test/scripts/run.sh': '#!/bin/sh\nnode --test\n',
  'README.md': 'not part of the workflow',
  'notes/todo.md': 'not part of the workflow either',
};

describe('snapshotWorkflow', () => {
  it('copies only agents/, commands/, rules/ and skills/, read-only', async () => {
    const workflow = await writeFiles(await tempDir('evalflow-wf-'), WORKFLOW);
    const target = join(await tempDir(), 'workflow');
    const snapshot = await snapshotWorkflow(workflow, target);
    expect(snapshot.dir).toBe(target);
    expect(snapshot.folders).toEqual([...WORKFLOW_FOLDERS]);
    expect(snapshot.files).toBe(5);
    expect(await readTree(target)).toEqual({
      'agents/reviewer.md': '# reviewer',
      'commands/ship.md': '# ship',
      'rules/style.md': '# style',
      'skills/node-test/SKILL.md': '# node test skill',
      'skills/node-test/scripts/run.sh': '#!/bin/sh\nnode --test\n',
    });
    for (const file of Object.keys(await readTree(target))) expect((await stat(join(target, file))).mode & 0o777).toBe(0o444);
  });

  it('a retry after a copy that failed midway snapshots every file, with no leftovers', async () => {
    const files = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`rules/r${i}.md`, `rule ${i}`]));
    const workflow = await writeFiles(await tempDir('evalflow-wf-'), files);
    // A FIFO cannot be copied: the first copy stops after some of the files, as a crash would.
    await execa('mkfifo', [join(workflow, 'rules', 'pipe')]);
    const target = join(await tempDir(), 'workflow');
    await expect(snapshotWorkflow(workflow, target)).rejects.toThrow(/FIFO/);
    await rm(join(workflow, 'rules', 'pipe'));
    await snapshotWorkflow(workflow, target);
    expect(await readTree(target)).toEqual(files);
  });

  it('copies only the folders that exist', async () => {
    const workflow = await writeFiles(await tempDir('evalflow-wf-'), { 'rules/a.md': 'a', 'skills/s/SKILL.md': 's' });
    const snapshot = await snapshotWorkflow(workflow, join(await tempDir(), 'workflow'));
    expect(snapshot.folders).toEqual(['rules', 'skills']);
    expect(existsSync(join(snapshot.dir, 'agents'))).toBe(false);
  });

  it("snapshots a commit of a workflow folder that is its repository's root (a pinned workflow_rev)", async () => {
    const workflow = await createRepo(WORKFLOW);
    const rev = await gitIn(workflow, ['rev-parse', 'HEAD']);
    await writeFile(join(workflow, 'rules/style.md'), '# changed after the commit');
    const snapshot = await snapshotWorkflowAt(workflow, rev, join(await tempDir(), 'workflow'));
    expect(snapshot).toMatchObject({ workflowRev: rev, dirty: false, folders: ['agents', 'commands', 'rules', 'skills'] });
    expect(await readTree(snapshot.dir)).toMatchObject({ 'rules/style.md': '# style' });
  });

  it('uses the git HEAD of a clean workflow repository as workflowRev', async () => {
    const workflow = await createRepo(WORKFLOW);
    const snapshot = await snapshotWorkflow(workflow, join(await tempDir(), 'workflow'));
    expect(snapshot.workflowRev).toBe(await gitIn(workflow, ['rev-parse', 'HEAD']));
  });

  it('ignores changes outside the workflow folders', async () => {
    const workflow = await createRepo(WORKFLOW);
    await writeFile(join(workflow, 'README.md'), 'edited');
    await writeFile(join(workflow, 'scratch.txt'), 'new');
    const snapshot = await snapshotWorkflow(workflow, join(await tempDir(), 'workflow'));
    expect(snapshot.workflowRev).toBe(await gitIn(workflow, ['rev-parse', 'HEAD']));
  });

  it('marks the revision +dirty when a workflow folder has local changes', async () => {
    const head = async (repo: string) => gitIn(repo, ['rev-parse', 'HEAD']);
    const edited = await createRepo(WORKFLOW);
    await writeFile(join(edited, 'rules/style.md'), '# style, edited');
    expect((await snapshotWorkflow(edited, join(await tempDir(), 'w'))).workflowRev).toBe(`${await head(edited)}+dirty`);

    const added = await createRepo(WORKFLOW);
    await writeFiles(added, { 'skills/new-skill/SKILL.md': 'new' });
    expect((await snapshotWorkflow(added, join(await tempDir(), 'w'))).workflowRev).toBe(`${await head(added)}+dirty`);
  });

  it('uses the commit of the enclosing repository for a workflow folder inside one', async () => {
    const repo = await createRepo(Object.fromEntries(Object.entries(WORKFLOW).map(([p, c]) => [`team/workflow/${p}`, c])));
    const snapshot = await snapshotWorkflow(join(repo, 'team/workflow'), join(await tempDir(), 'workflow'));
    expect(snapshot.workflowRev).toBe(await gitIn(repo, ['rev-parse', 'HEAD']));
    await writeFile(join(repo, 'team/workflow/agents/reviewer.md'), 'edited');
    const dirty = await snapshotWorkflow(join(repo, 'team/workflow'), join(await tempDir(), 'workflow'));
    expect(dirty.workflowRev).toBe(`${await gitIn(repo, ['rev-parse', 'HEAD'])}+dirty`);
  });

  it('hashes the content of a folder that is not a repository, stably', async () => {
    const a = await snapshotWorkflow(await writeFiles(await tempDir('evalflow-wf-'), WORKFLOW), join(await tempDir(), 'w'));
    const b = await snapshotWorkflow(await writeFiles(await tempDir('evalflow-wf-'), WORKFLOW), join(await tempDir(), 'w'));
    expect(a.workflowRev).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(b.workflowRev).toBe(a.workflowRev);
    const changed = await snapshotWorkflow(
      await writeFiles(await tempDir('evalflow-wf-'), { ...WORKFLOW, 'rules/style.md': '# style v2' }),
      join(await tempDir(), 'w'),
    );
    expect(changed.workflowRev).not.toBe(a.workflowRev);
    const outside = await snapshotWorkflow(await writeFiles(await tempDir('evalflow-wf-'), { ...WORKFLOW, 'README.md': 'other' }), join(await tempDir(), 'w'));
    expect(outside.workflowRev).toBe(a.workflowRev);
  });

  it('keeps the first snapshot when a retried prepare snapshots again', async () => {
    const workflow = await writeFiles(await tempDir('evalflow-wf-'), WORKFLOW);
    const target = join(await tempDir(), 'workflow');
    const first = await snapshotWorkflow(workflow, target);
    await writeFile(join(workflow, 'rules/style.md'), 'changed after the run started');
    const second = await snapshotWorkflow(workflow, target);
    expect((await readTree(target))['rules/style.md']).toBe('# style');
    expect(second.workflowRev).toBe(first.workflowRev);
  });

});

describe('snapshotWorkflow: not a workflow folder', () => {
  const expected = 'expected a folder holding at least one of agents/, commands/, rules/, skills/';
  const refused = async (workflow: string, found: string) => {
    const target = join(await tempDir(), 'w');
    await expect(snapshotWorkflow(workflow, target)).rejects.toThrow(new SandboxError(`workflow folder ${workflow}: ${expected}, found ${found}`));
    expect(existsSync(target)).toBe(false);
  };

  it('fails when none of the workflow folders exist, saying what the folder holds', async () => {
    await refused(await writeFiles(await tempDir('evalflow-wf-'), { 'README.md': 'x', 'prompts/a.md': 'a' }), 'none of them (it holds README.md, prompts)');
    const many = { 'a.md': '', 'b.md': '', 'c.md': '', 'd.md': '' };
    await refused(await writeFiles(await tempDir('evalflow-wf-'), many), 'none of them (it holds a.md, b.md, c.md, …)');
  });

  it('fails when the workflow folder is empty, a file or missing', async () => {
    await refused(await tempDir('evalflow-wf-'), 'an empty folder');
    await refused(join(await writeFiles(await tempDir(), { 'workflow.md': 'x' }), 'workflow.md'), 'a file');
    await refused(join(await tempDir(), 'missing'), 'no such file or folder');
  });
});
