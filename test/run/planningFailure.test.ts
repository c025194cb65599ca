import { describe, expect, it } from 'vitest';
import { planningFailureMessage, PROBLEMS_SHOWN } from '../../src/run/planningFailure.js';

describe('planningFailureMessage', () => {
  it('names the batch, the host and where it read the cases, then each problem on a line of its own', () => {
    const message = planningFailureMessage({ batchId: 'b1', hostId: 'host-b', source: 'the eval bank at /bank', problems: ['/bank: no such folder', 'case x: meta.yaml: missing file'] });
    expect(message.split('\n')).toEqual(['batch b1 cannot be planned on host host-b: 2 problems in the eval bank at /bank:', '  /bank: no such folder', '  case x: meta.yaml: missing file']);
  });

  it('says one problem in the singular, and counts those past the ones it shows', () => {
    expect(planningFailureMessage({ batchId: 'b', hostId: 'h', source: 's', problems: ['p'] }).split('\n')[0]).toBe('batch b cannot be planned on host h: 1 problem in s:');
    const problems = Array.from({ length: PROBLEMS_SHOWN + 3 }, (_, i) => `problem ${i}`);
    const lines = planningFailureMessage({ batchId: 'b', hostId: 'h', source: 's', problems }).split('\n');
    expect(lines).toHaveLength(PROBLEMS_SHOWN + 2);
    expect(lines.at(-2)).toBe(`  problem ${PROBLEMS_SHOWN - 1}`);
    expect(lines.at(-1)).toBe('  … and 3 more');
  });
});
