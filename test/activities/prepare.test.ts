import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readEnvChecklist } from '../../src/run/runFiles.js';
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
