import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScheduledBatchInput } from '../../src/schedules/scheduleInput.js';
import { createGitRemote } from '../sandbox/gitRemoteFixture.js';
import { gitIn, writeFiles } from '../sandbox/sandboxFixture.js';
import { greetingCase } from '../support/greetingCase.js';
import { createActivityFixture, type ActivityFixture } from './activityFixture.js';

/** A schedule's firing pins git URL sources itself: each firing tests what the remote holds then. */
describe('prepareScheduledBatch of a schedule whose project and workflow are git URLs', () => {
  let fx: ActivityFixture;
  beforeAll(async () => {
    fx = await createActivityFixture();
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('pins the project and workflow at each firing, so a later firing takes the commits the remotes moved to', async () => {
    const project = await createGitRemote({ 'README.md': 'one\n' });
    const workflow = await createGitRemote({ 'rules/r.md': 'r\n' });
    const bank = await writeFiles(join(fx.root, 'bank', 'greet'), greetingCase('greet'));
    const input = {
      schedule: 'nightly',
      selection: { paths: [join(bank, '..')], runsPerCase: 1 },
      template: { candidate: { name: 'fake', adapter: 'fake', args: [], env: {} }, examiner: { model: 'e' }, judge: { model: 'j' }, project: project.url, workflowDir: `${workflow.url}#main`, runsDir: join(fx.root, 'runs'), turnTimeoutS: 60 },
    } as unknown as ScheduledBatchInput;
    const fire = (at: string) => fx.activities().prepareScheduledBatch({ input, scheduledAt: at });
    const [projectFirst, workflowFirst] = [await gitIn(project.work, ['rev-parse', 'HEAD']), await gitIn(workflow.work, ['rev-parse', 'HEAD'])];
    const first = await fire('2026-01-01T02:00:00Z');
    const projectNext = await project.push({ 'README.md': 'two\n' });
    const workflowNext = await workflow.push({ 'rules/r.md': 'r2\n' });
    const second = await fire('2026-01-02T02:00:00Z');
    expect(first).toMatchObject({ cases: 1, projectCommit: projectFirst, workflowRev: workflowFirst });
    expect(second).toMatchObject({ cases: 1, projectCommit: projectNext, workflowRev: workflowNext });
  });
});
