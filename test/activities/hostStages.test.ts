import { describe, expect, it } from 'vitest';
import { hostStageActivities, type HostStages } from '../../src/activities/hostStages.js';
import { OtherHostError } from '../../src/errors.js';
import { hostTaskQueue } from '../../src/temporal/names.js';

describe('host stages inside a workflow task', () => {
  const ran: unknown[][] = [];
  const stages = {
    verifyRun: async (...args: unknown[]) => {
      ran.push(args);
      return [{ description: 'file', passed: true }];
    },
  } as unknown as HostStages;
  const { runHostStage, claimHostStage } = hostStageActivities('alpha', stages);

  it("runs the stage with its arguments on the run's own host", async () => {
    const spec = { runId: 'r1' };
    await expect(runHostStage({ queue: hostTaskQueue('alpha'), stage: 'verifyRun', args: [spec as never] })).resolves.toEqual([{ description: 'file', passed: true }]);
    expect(ran).toEqual([[spec]]);
  });

  it('refuses on any other host, naming the stage and both queues, without running it', async () => {
    ran.length = 0;
    const refused = runHostStage({ queue: hostTaskQueue('beta'), stage: 'verifyRun', args: [{ runId: 'r2' } as never] });
    await expect(refused).rejects.toBeInstanceOf(OtherHostError);
    await expect(refused).rejects.toThrow(`verifyRun belongs to the run's host (${hostTaskQueue('beta')}); this worker serves ${hostTaskQueue('alpha')}`);
    expect(ran).toEqual([]);
  });

  it("claims this worker's host for a run that has none, running the stage there", async () => {
    ran.length = 0;
    const spec = { runId: 'r3' };
    await expect(claimHostStage({ stage: 'verifyRun', args: [spec as never] })).resolves.toEqual({ queue: hostTaskQueue('alpha'), result: [{ description: 'file', passed: true }] });
    expect(ran).toEqual([[spec]]);
  });
});
