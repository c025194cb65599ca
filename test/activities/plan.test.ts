import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivityFixture, type ActivityFixture } from './activityFixture.js';

describe('planBatch', () => {
  let fixture: ActivityFixture;
  beforeAll(async () => {
    fixture = await createActivityFixture();
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('names the host and every problem when the bank it sees cannot be planned (a host without the client\'s paths)', async () => {
    const missing = join(fixture.root, 'not-on-this-host');
    const failure = fixture
      .activities()
      .planBatch({ batchId: 'batch-plan-test', selection: { paths: [missing, `${missing}-too`], runsPerCase: 1, digest: 'd' }, summary: {} });
    // The activity's failure as Temporal carries it: typed by the error's class.
    await expect(failure).rejects.toMatchObject({ type: 'FormatError' });
    const message = await failure.catch((err: Error) => err.message);
    expect(message).toMatch(/^batch batch-plan-test cannot be planned on host test-host: 2 problem\(s\) in the eval bank at /);
    // Each problem is in the message itself: only the message crosses Temporal to the client.
    expect(message).toContain(`${missing}: `);
    expect(message).toContain(`${missing}-too: `);
  });
});
