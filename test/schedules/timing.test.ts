import { describe, expect, it } from 'vitest';
import { checkCron, parseEvery, timingOf } from '../../src/schedules/timing.js';

describe('schedule timing', () => {
  it('reads intervals and refuses what is not one, or too short', () => {
    expect(parseEvery('24h')).toBe(86_400_000);
    expect(parseEvery('1h30m')).toBe(5_400_000);
    expect(parseEvery('1m')).toBe(60_000);
    expect(() => parseEvery('daily')).toThrow('--every: expected a duration such as 24h, 90m, 1d or 1h30m, found "daily"');
    expect(() => parseEvery('24x')).toThrow(/found "24x"/);
    expect(() => parseEvery('30s')).toThrow('--every: expected at least 1m, found "30s"');
  });

  it('checks cron expressions field by field, naming the one that is wrong', () => {
    expect(checkCron(' 0  2 * * * ')).toBe('0 2 * * *');
    expect(checkCron('*/15 1-5 1,15 jan-mar mon-fri')).toBe('*/15 1-5 1,15 jan-mar mon-fri');
    expect(checkCron('@daily')).toBe('@daily');
    expect(() => checkCron('0 2 * *')).toThrow("--cron: expected 5 fields (minute hour day-of-month month day-of-week, UTC), e.g. '0 2 * * *' for 02:00 every night; found 4 in \"0 2 * *\"");
    expect(() => checkCron('0 25 * * *')).toThrow('--cron "0 25 * * *": the hour field "25" has "25"; expected 0-23');
    expect(() => checkCron('61 * * * *')).toThrow(/the minute field "61"/);
    expect(() => checkCron('0 2 * * funday')).toThrow(/the day of week field "funday" has "funday"; expected 0-7 or a name \(sun, mon, tue, …\)/);
    expect(() => checkCron('0 5-2 * * *')).toThrow(/runs backwards/);
    expect(() => checkCron('*/x * * * *')).toThrow(/has step "x"/);
  });

  it('wants exactly one of --cron and --every', () => {
    expect(timingOf({ every: '24h' })).toEqual({ every: '24h' });
    expect(() => timingOf({})).toThrow(/say when it runs/);
    expect(() => timingOf({ cron: '0 2 * * *', every: '24h' })).toThrow('schedule create: give --cron or --every, not both');
  });
});
