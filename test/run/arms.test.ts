import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARM_GRAMMAR } from '../../src/run/armChanges.js';
import { applyArm, parseArm, resolveArms, type ArmContext } from '../../src/run/arms.js';
import type { CandidateSpec, RunTemplate } from '../../src/run/runSpec.js';
import { checkWorkflowFolder } from '../../src/sandbox/workflowSnapshot.js';

const BASE: CandidateSpec = { name: 'builtin', adapter: 'builtin', model: 'm0' } as CandidateSpec;

const TEMPLATE: RunTemplate = {
  candidate: BASE,
  examiner: { model: 'examiner-model' },
  judge: { model: 'judge-model' },
  project: '/repo/project',
  workflowDir: '/repo/workflow',
  runsDir: '/repo/runs',
  turnTimeoutS: 60,
  judging: { samples: 1, review: 'later', allowSelfJudge: false },
  workflowRev: 'abc123',
};
/** The template without its workflow and candidate: what every arm keeps as it is. */
const { candidate: _candidate, workflowDir: _dir, workflowRev: _rev, ...REST } = TEMPLATE;

describe('parseArm', () => {
  it('reads base and each change of the grammar', () => {
    expect(parseArm('A=base')).toEqual({ name: 'A', change: 'base' });
    expect(parseArm('B=workflow_rev=HEAD~1')).toEqual({ name: 'B', change: 'workflow_rev=HEAD~1', key: 'workflow_rev', value: 'HEAD~1' });
    expect(parseArm('v1.2=model=gpt-4o')).toMatchObject({ name: 'v1.2', key: 'model', value: 'gpt-4o' });
  });

  it('names the arm and what was expected when it is malformed', () => {
    expect(() => parseArm('-x=base')).toThrow("--arm -x=base: expected NAME=SPEC with a name of letters, digits, '_' and '.', found '-x'");
    expect(() => parseArm('A')).toThrow('--arm A: an arm changes exactly one thing; found nothing (expected base or one of workflow_rev=…, workflow=…, candidate=…, model=…)');
    expect(() => parseArm('A=model=m1,workflow=none')).toThrow('--arm A=model=m1,workflow=none: an arm changes exactly one thing; found 2');
    expect(() => parseArm('A=colour=red')).toThrow("--arm A=colour=red: expected base or one of workflow_rev=…, workflow=…, candidate=…, model=…, found 'colour=red'");
    expect(() => parseArm('A=model=')).toThrow("found 'model='");
  });

  it('has its help text built from the same list', () => {
    expect(ARM_GRAMMAR).toBe('base, workflow_rev=REV, workflow=DIR|none, candidate=NAME, model=M');
  });
});

describe('applyArm', () => {
  it('keeps the template without an arm, or for a base arm', () => {
    expect(applyArm(TEMPLATE, undefined)).toEqual(TEMPLATE);
    expect(applyArm(TEMPLATE, { name: 'A', change: 'base' })).toEqual(TEMPLATE);
  });

  it('applies the one change: a rev, another folder (no rev), no workflow (no rev), a candidate', () => {
    expect(applyArm(TEMPLATE, { name: 'B', change: 'workflow_rev=x', workflowRev: 'def456' })).toEqual({ ...TEMPLATE, workflowRev: 'def456' });
    expect(applyArm(TEMPLATE, { name: 'B', change: 'workflow=/other', workflowDir: '/other' })).toEqual({ ...REST, candidate: BASE, workflowDir: '/other' });
    expect(applyArm(TEMPLATE, { name: 'B', change: 'workflow=none', noWorkflow: true })).toEqual({ ...REST, candidate: BASE, workflowDir: '/repo/workflow', noWorkflow: true });
    const other = { ...BASE, model: 'm1' };
    expect(applyArm(TEMPLATE, { name: 'B', change: 'model=m1', candidate: other })).toEqual({ ...TEMPLATE, candidate: other });
  });
});

describe('resolveArms', () => {
  let root: string;
  let context: ArmContext;
  let head: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'evalflow-arms-'));
    const workflowDir = join(root, 'workflow');
    await mkdir(join(workflowDir, 'rules'), { recursive: true });
    await writeFile(join(workflowDir, 'rules', 'style.md'), 'be brief\n');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: workflowDir, encoding: 'utf8' }).trim();
    git('init', '-q');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'one');
    git('add', '.');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'two');
    head = git('rev-parse', 'HEAD~1');
    context = { workflowDir, base: BASE, candidateNamed: (name) => ({ ...BASE, name }), cwd: root, checkWorkflowFolder };
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('resolves a rev to its commit, once, and a candidate by name', async () => {
    const arms = await resolveArms(['A=base', 'B=workflow_rev=HEAD~1'], context);
    expect(arms).toEqual([
      { name: 'A', change: 'base' },
      { name: 'B', change: 'workflow_rev=HEAD~1', workflowRev: head },
    ]);
    const byCandidate = await resolveArms(['A=base', 'B=candidate=other'], context);
    expect(byCandidate[1]!.candidate).toMatchObject({ name: 'other' });
  });

  it('refuses one arm, a repeated name, two kinds of change, all base, and a rev the repository lacks', async () => {
    await expect(resolveArms(['A=base'], context)).rejects.toThrow('an experiment needs at least two arms');
    await expect(resolveArms(['A=base', 'A=model=m1'], context)).rejects.toThrow('--arm A=model=m1: arm A is given twice');
    await expect(resolveArms(['A=model=m1', 'B=candidate=x'], context)).rejects.toThrow('arms A and B differ in more than one thing (model and candidate)');
    await expect(resolveArms(['A=base', 'B=base'], context)).rejects.toThrow('every arm is base');
    await expect(resolveArms(['A=base', 'B=workflow_rev=nope'], context)).rejects.toThrow('--arm B=workflow_rev=nope: no commit nope in the repository of');
    await expect(resolveArms(['A=base', 'B=workflow=missing'], context)).rejects.toThrow('--arm B=workflow=missing:');
  });
});
