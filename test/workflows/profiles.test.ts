import { describe, expect, it } from 'vitest';
import { candidateProfile, hostProfile } from '../../src/workflows/profiles.js';

const seconds = (duration: unknown) => {
  const match = /^(\d+)(s|m|h)$/.exec(String(duration));
  if (!match) throw new Error(`not a duration: ${String(duration)}`);
  return Number(match[1]) * { s: 1, m: 60, h: 3600 }[match[2] as 's' | 'm' | 'h'];
};

describe('candidateProfile', () => {
  it('gives up on a turn whose host stopped serving its queue, but never before its attempts could run', () => {
    for (const turnTimeoutS of [60, 900, 7200]) {
      const profile = candidateProfile(turnTimeoutS);
      const attempts = profile.retry?.maximumAttempts ?? 0;
      expect(attempts).toBeGreaterThan(0);
      const total = seconds(profile.scheduleToCloseTimeout);
      expect(total).toBeGreaterThanOrEqual(attempts * seconds(profile.startToCloseTimeout));
      expect(total).toBeGreaterThanOrEqual(seconds(hostProfile.scheduleToCloseTimeout));
    }
  });
});
