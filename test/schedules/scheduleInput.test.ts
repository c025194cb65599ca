import { describe, expect, it } from 'vitest';
import { checkScheduleName, ScheduledBatchInputSchema } from '../../src/schedules/scheduleInput.js';

describe('schedule names', () => {
  it('accept what a user types: lowercase, digits, -, _ and .', () => {
    for (const name of ['nightly', 'nightly-main', 'pr_gate', 'v1.2', '2am-run', 'a'.repeat(40)]) expect(checkScheduleName(name)).toBe(name);
  });

  it('refuse anything else with one line saying what is allowed', () => {
    for (const name of ['', '-nightly', '.hidden', 'Nightly', 'night ly', 'nightly/main', 'nächtlich', 'a'.repeat(41)]) {
      expect(() => checkScheduleName(name)).toThrow(`schedule name: expected lowercase letters, digits, '-', '_' or '.' (at most 40, starting with a letter or digit, e.g. nightly-main), found ${JSON.stringify(name)}`);
    }
  });

  it('are what a stored schedule input holds', () => {
    const schedule = ScheduledBatchInputSchema.shape.schedule;
    expect(schedule.safeParse('nightly-main').success).toBe(true);
    expect(schedule.safeParse('Nightly').success).toBe(false);
  });
});
