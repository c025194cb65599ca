import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEvalBank } from '../../src/evalset/index.js';
import { selectionDigest } from '../../src/run/batchPlan.js';
import { localCaseDir, saveCaseSet } from '../../src/run/caseFolder.js';
import { writeFiles } from '../sandbox/sandboxFixture.js';
import { greetingCase } from '../support/greetingCase.js';
import { createActivityFixture, type ActivityFixture } from './activityFixture.js';

const template = {
  candidate: { name: 'fake', adapter: 'fake', args: [], env: {} },
  examiner: { model: 'm' },
  judge: { model: 'm' },
  project: '/p',
  workflowDir: '/w',
  runsDir: '/r',
  turnTimeoutS: 60,
};

describe('planBatch', () => {
  let fixture: ActivityFixture;
  beforeAll(async () => {
    fixture = await createActivityFixture();
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('names the host and every problem, each on its own line, when the bank it sees cannot be planned (a batch from paths)', async () => {
    const missing = join(fixture.root, 'not-on-this-host');
    const failure = fixture
      .activities()
      .planBatch({ batchId: 'batch-plan-test', selection: { paths: [missing, `${missing}-too`], runsPerCase: 1, digest: 'd' }, summary: {} });
    // The activity's failure as Temporal carries it: typed by the error's class.
    await expect(failure).rejects.toMatchObject({ type: 'FormatError' });
    const message = await failure.then(() => 'planned', (err: Error) => err.message);
    const lines = message.split('\n');
    expect(lines[0]).toBe(`batch batch-plan-test cannot be planned on host test-host: 2 problems in the eval bank at ${missing}, ${missing}-too:`);
    // Each problem is in the message itself: only the message crosses Temporal to the client.
    expect(lines.slice(1)).toEqual([expect.stringContaining(`  ${missing}: `), expect.stringContaining(`  ${missing}-too: `)]);
  });

  it('plans and specs runs from the cases the client saved, with no bank left at the client\'s paths', async () => {
    const bank = join(fixture.root, 'client-bank');
    await writeFiles(join(bank, 'greet'), { ...greetingCase('greet', { envYaml: 'setup_commands:\n  - cat ${CASE_DIR}/fixture.txt\n' }), 'fixture.txt': 'from the client\n' });
    const { cases, problems } = await loadEvalBank([bank]);
    expect(problems).toEqual([]);
    const caseSet = await saveCaseSet(fixture.store, cases);
    // The host has nothing at the client's paths.
    await rm(bank, { recursive: true });
    const activities = fixture.activities();
    const planned = await activities.planBatch({ batchId: 'batch-travel', selection: { paths: [bank], runsPerCase: 2, digest: selectionDigest(cases), caseSet }, summary: {} });
    expect(planned.total).toBe(2);
    const specs = await activities.planRuns({ batchId: 'batch-travel', stamp: '20260101T000000', template, offset: 0, limit: 10 });
    expect(specs).toHaveLength(2);
    const travelled = specs[0]!.evalCase;
    // The run keeps the client's folder as the case's identity, and the pack it reads from.
    expect(travelled).toMatchObject({ id: 'greet', dir: join(bank, 'greet'), hash: cases[0]!.sha256, pack: expect.stringMatching(/^sha256:/) });
    const here = await localCaseDir({ store: fixture.store, stateDir: join(fixture.root, 'other-host-state') }, travelled);
    expect(here).not.toBe(travelled.dir);
    expect(await readFile(join(here, 'fixture.txt'), 'utf8')).toBe('from the client\n');
    expect(existsSync(travelled.dir)).toBe(false);
  });

  it('names the host when the saved cases are not in its store', async () => {
    const failure = fixture.activities().planBatch({ batchId: 'batch-lost', selection: { paths: ['/x'], runsPerCase: 1, digest: 'd', caseSet: 'sha256:0000' }, summary: {} });
    const message = await failure.then(() => 'planned', (err: Error) => err.message);
    expect(message.split('\n')).toEqual([
      'batch batch-lost cannot be planned on host test-host: 1 problem in the cases the client saved (sha256:0000…):',
      expect.stringContaining('  case set sha256:0000: not in the store'),
    ]);
  });
});
