import { describe, expect, it } from 'vitest';
import { SourceFetchError } from '../../src/errors.js';
import { applyArm, resolveArms } from '../../src/run/arms.js';
import { pinSources } from '../../src/run/pinSources.js';
import type { CandidateSpec, RunTemplate } from '../../src/run/runSpec.js';
import { checkWorkflowFolder } from '../../src/sandbox/workflowSnapshot.js';
import { createGitRemote } from '../sandbox/gitRemoteFixture.js';
import { gitIn } from '../sandbox/sandboxFixture.js';

const BASE: CandidateSpec = { name: 'builtin', adapter: 'builtin', args: [], env: {} };
const TEMPLATE: RunTemplate = { candidate: BASE, examiner: { model: 'e' }, judge: { model: 'j' }, project: '/repo/project', workflowDir: '/repo/workflow', runsDir: '/repo/runs', turnTimeoutS: 60 };

describe('pinSources', () => {
  it('pins a URL project and workflow to their commits now, and leaves paths and a workflow already pinned alone', async () => {
    const project = await createGitRemote({ 'README.md': 'one\n' });
    const workflow = await createGitRemote({ 'rules/r.md': 'r\n' });
    const tagged = await workflow.push({ 'rules/r.md': 'r2\n' }, { tag: 'v2' });
    await workflow.push({ 'rules/r.md': 'r3\n' });
    const pinned = await pinSources({ ...TEMPLATE, project: `${project.url}#main`, workflowDir: `${workflow.url}#v2` });
    expect(pinned).toEqual({ ...TEMPLATE, project: `${project.url}#main`, workflowDir: `${workflow.url}#v2`, projectCommit: await gitIn(project.work, ['rev-parse', 'HEAD']), workflowRev: tagged });
    expect(await pinSources(TEMPLATE)).toEqual(TEMPLATE);
    const scheduled = { ...TEMPLATE, workflowDir: workflow.url, workflowRev: 'f'.repeat(40) };
    expect(await pinSources(scheduled)).toEqual(scheduled);
    await expect(pinSources({ ...TEMPLATE, project: `${project.url}-gone` })).rejects.toBeInstanceOf(SourceFetchError);
  });
});

describe('arms of a workflow given by URL', () => {
  it('pins workflow_rev=REF and workflow=URL at the remote, and names the flag when it cannot', async () => {
    const workflow = await createGitRemote({ 'rules/r.md': 'r\n' });
    const head = await gitIn(workflow.work, ['rev-parse', 'HEAD']);
    const tagged = await workflow.push({ 'rules/r.md': 'r2\n' }, { tag: 'v2' });
    const other = await createGitRemote({ 'skills/s.md': 's\n' });
    const context = { workflowDir: workflow.url, base: BASE, candidateNamed: (name: string) => ({ ...BASE, name }), cwd: '/', checkWorkflowFolder };
    const [, b] = await resolveArms(['A=base', 'B=workflow_rev=v2'], context);
    expect(b).toEqual({ name: 'B', change: 'workflow_rev=v2', workflowRev: tagged });
    const [, c] = await resolveArms(['A=base', `C=workflow=${other.url}`], context);
    expect(c).toEqual({ name: 'C', change: `workflow=${other.url}`, workflowDir: other.url, workflowRev: await gitIn(other.work, ['rev-parse', 'HEAD']) });
    expect(applyArm({ ...TEMPLATE, workflowDir: workflow.url, workflowRev: head }, c)).toMatchObject({ workflowDir: other.url, workflowRev: c!.workflowRev });
    await expect(resolveArms(['A=base', 'B=workflow_rev=HEAD~1'], context)).rejects.toThrow(`--arm B=workflow_rev=HEAD~1: workflow ${workflow.url}: no ref HEAD~1 there`);
    await expect(resolveArms(['A=base', 'C=workflow=ftp://h/w'], context)).rejects.toThrow(/^--arm C=workflow=ftp:\/\/h\/w: expected a local path or a git URL/);
  });
});
