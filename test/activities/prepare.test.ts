import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pinSources } from '../../src/run/pinSources.js';
import { readEnvChecklist } from '../../src/run/runFiles.js';
import { runPaths } from '../../src/run/runPaths.js';
import type { RunTemplate } from '../../src/run/runSpec.js';
import { mirrorDirFor } from '../../src/sandbox/gitMirror.js';
import { createGitRemote } from '../sandbox/gitRemoteFixture.js';
import { createActivityFixture, type ActivityFixture } from './activityFixture.js';

describe('prepareRun and the workflow', () => {
  let fixture: ActivityFixture;
  beforeEach(async () => {
    fixture = await createActivityFixture();
  });
  afterEach(() => fixture.close());

  it('records where the workflow went, and verifyRun records its usage from the transcript', async () => {
    const spec = await fixture.preparedSpec({}, { expectWorkflow: { must_use: ['rules/r'], must_not_use: [] } });
    const placement = { adapter: 'fake', folders: [{ folder: 'rules', mode: 'linked', path: '.fake-agent/rules' }] };
    expect(await fixture.store.getWorkflowPlacement(spec.runId)).toEqual(placement);
    const runDir = join(spec.runsDir, spec.runId);
    expect((await readEnvChecklist(runDir))?.workflow_placement).toEqual(placement);
    await fixture.store.appendTranscriptEvents([
      { run_id: spec.runId, turn: 1, seq: 0, attempt: 1, ts: '2026-01-01T00:00:00.000Z', role: 'candidate.tool_call.completed', content: 'read: .fake-agent/rules/r.md (1 lines)', tool: { id: 't1', name: 'Read', kind: 'read', target: '.fake-agent/rules/r.md', is_error: false } },
    ]);
    await fixture.activities().verifyRun(spec);
    expect(await fixture.store.getWorkflowUsage([spec.runId])).toEqual([
      { run_id: spec.runId, item: 'rules/r', kind: 'rule', name: 'r', loaded: 'yes', invoked: 'unknown', first_turn: 1, evidence: '[Turn 1] read: .fake-agent/rules/r.md (1 lines)' },
    ]);
  });

  it('records how the candidate is contained in env_checklist.yaml and config.yaml: none when its spec says so', async () => {
    for (const isolation of ['none', 'sandbox'] as const) {
      const spec = await fixture.preparedSpec({ isolation });
      const runDir = join(spec.runsDir, spec.runId);
      expect((await readEnvChecklist(runDir))?.isolation).toBe(isolation);
      expect(await readFile(join(runDir, 'config.yaml'), 'utf8')).toContain(`  isolation: ${isolation}\n`);
    }
  });

  it('refuses an expected item the snapshot lacks, naming meta.yaml and the field: a non-retryable FormatError, not a fail', async () => {
    const failure = await fixture.preparedSpec({}, { expectWorkflow: { must_use: [], must_not_use: ['skills/pace-release'] } }).catch((err: unknown) => err);
    expect(failure).toMatchObject({
      type: 'FormatError',
      nonRetryable: true,
      message: `${join(fixture.root, 'case', 'meta.yaml')}: expect_workflow.must_not_use.0: skills/pace-release is not in the run's workflow snapshot (it has rules/r)`,
    });
  });
});

const baseTemplate: RunTemplate = { candidate: { name: 'fake', adapter: 'fake', args: [], env: {} }, examiner: { model: 'e' }, judge: { model: 'j' }, project: '', workflowDir: '', runsDir: '', turnTimeoutS: 60 };

describe('prepareRun of a project and workflow given by git URL', () => {
  let fixture: ActivityFixture;
  beforeEach(async () => {
    fixture = await createActivityFixture();
  });
  afterEach(() => fixture.close());

  it('prepares from the host\'s mirrors at the commits the batch pinned and records URL and commit; a failed fetch is ours', async () => {
    const project = await createGitRemote({ 'README.md': 'pinned project\n' });
    const workflow = await createGitRemote({ 'rules/r.md': 'pinned rule\n', 'notes.txt': 'not a workflow folder\n' });
    const template = await pinSources({ ...baseTemplate, project: project.url, workflowDir: `${workflow.url}#main` });
    await project.push({ 'README.md': 'later\n' });
    await workflow.push({ 'rules/r.md': 'later rule\n' });
    const spec = await fixture.preparedSpec({}, {}, { project: template.project, projectCommit: template.projectCommit!, workflowDir: template.workflowDir, workflowRev: template.workflowRev! });
    const runDir = join(spec.runsDir, spec.runId);
    const checklist = await readEnvChecklist(runDir);
    expect(checklist).toMatchObject({
      project_url: project.url,
      project_rev: template.projectCommit,
      project_repo: mirrorDirFor(join(fixture.root, '.evalflow'), project.url),
      workflow_url: workflow.url,
      workflow_rev: template.workflowRev,
    });
    const paths = runPaths(spec, join(fixture.root, 'sandboxes'));
    expect(await readFile(join(paths.sandboxDir, 'README.md'), 'utf8')).toBe('pinned project\n');
    expect(await readFile(join(paths.workflowSnapshot, 'rules', 'r.md'), 'utf8')).toBe('pinned rule\n');
    expect(existsSync(join(paths.workflowSnapshot, 'notes.txt'))).toBe(false);
    expect(await readFile(join(runDir, 'config.yaml'), 'utf8')).toContain(`project: ${project.url}\n`);

    // A remote that cannot give the commit fails the stage as ours, retryable, naming the URL: never the candidate's fail.
    const failure = await fixture.preparedSpec({}, {}, { project: `${project.url}-gone`, projectCommit: 'c'.repeat(40) }).catch((err: unknown) => err);
    expect(failure).toMatchObject({ type: 'SourceFetchError', nonRetryable: false });
    expect((failure as Error).message).toMatch(new RegExp(`^project ${project.url}-gone: cannot fetch commit c{40} into this host's mirror`));
  });
});
