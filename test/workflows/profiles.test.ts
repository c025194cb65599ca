import { describe, expect, it } from 'vitest';
import { DEFAULT_RECOVERY } from '../../src/run/recovery.js';
import { candidateProfile, epLoadProfile, epPredictProfile, epScoreProfile, hostProfile, modelProfile, sharedProfile } from '../../src/workflows/profiles.js';

const seconds = (duration: unknown) => {
  const match = /^(\d+)(s|m|h)$/.exec(String(duration));
  if (!match) throw new Error(`not a duration: ${String(duration)}`);
  return Number(match[1]) * { s: 1, m: 60, h: 3600 }[match[2] as 's' | 'm' | 'h'];
};

describe('activity profiles', () => {
  const recovery = { modelOutageS: 1800, hostLostAfterS: 120 };
  const all = {
    shared: sharedProfile,
    model: modelProfile,
    host: hostProfile(recovery),
    candidate: candidateProfile(900, recovery),
    epLoad: epLoadProfile,
    epPredict: epPredictProfile,
    epScore: epScoreProfile,
  };

  it('every activity has a heartbeat timeout of 10–20 s, so a dead worker is noticed in seconds', () => {
    for (const [name, profile] of Object.entries(all)) {
      const timeout = seconds(profile.heartbeatTimeout);
      expect(timeout, name).toBeGreaterThanOrEqual(10);
      expect(timeout, name).toBeLessThanOrEqual(20);
    }
  });

  it("host work gives up a host after the run's hostLostAfterS without a worker, and never retries forever", () => {
    expect(seconds(hostProfile(recovery).scheduleToStartTimeout)).toBe(120);
    expect(seconds(candidateProfile(900, recovery).scheduleToStartTimeout)).toBe(120);
    expect(seconds(hostProfile(DEFAULT_RECOVERY).scheduleToStartTimeout)).toBe(DEFAULT_RECOVERY.hostLostAfterS);
    for (const [name, profile] of Object.entries(all)) expect(profile.retry?.maximumAttempts ?? 0, name).toBeGreaterThan(0);
  });

  it('a candidate turn may last its turn timeout plus the model outage window before Temporal calls it stuck', () => {
    for (const turnTimeoutS of [60, 900, 7200]) {
      expect(seconds(candidateProfile(turnTimeoutS, recovery).startToCloseTimeout)).toBeGreaterThan(turnTimeoutS + recovery.modelOutageS);
    }
    expect(seconds(modelProfile.startToCloseTimeout)).toBeGreaterThan(DEFAULT_RECOVERY.modelOutageS);
  });
});
