import { describe, expect, it } from 'vitest';
import { teamDatabaseOf } from '../../src/temporal/teamSchema.js';
import { describeTeamPorts, parsePortsFlag, teamPortsOf } from '../../src/temporal/teamPorts.js';

describe('team server ports', () => {
  it('places the ports not given beside the frontend port, and takes the given ones', () => {
    expect(teamPortsOf(7233, 8233)).toEqual({ frontend: 7233, history: 7234, matching: 7235, worker: 7239, http: 7243, metrics: 7244, frontend_membership: 6933, history_membership: 6934, matching_membership: 6935, worker_membership: 6939, ui: 8233 });
    const placed = teamPortsOf(7233, 8233, parsePortsFlag('history=17234, metrics=9090,frontend_membership=17000'));
    expect(placed).toMatchObject({ frontend: 7233, history: 17234, metrics: 9090, frontend_membership: 17000, matching: 7235 });
  });

  it('refuses bad ports in one line naming the port', () => {
    expect(() => parsePortsFlag('histroy=1')).toThrow(/^--ports histroy=1: expected NAME=PORT with NAME one of frontend, history, /);
    expect(() => teamPortsOf(7233, 8233, { metrics: 7234 })).toThrow('--ports: history and metrics both use port 7234; give each its own');
    expect(() => teamPortsOf(40_000, 8233)).toThrow(/^--ports frontend_membership=39700: .*\(placed beside frontend port 40000; give frontend_membership=PORT or another frontend port\)$/);
    expect(() => teamPortsOf(7233, 8233, { worker_membership: 40_000 })).toThrow(/^--ports worker_membership=40000: /);
  });

  it('prints every port', () => {
    const lines = describeTeamPorts('0.0.0.0', teamPortsOf(7233, 8233)).join('\n');
    for (const port of Object.values(teamPortsOf(7233, 8233))) expect(lines).toContain(String(port));
  });

  it('never echoes a malformed database URL (it may hold a password)', () => {
    expect(() => teamDatabaseOf('postgres://u:s3cret@ho st/x')).toThrow('--database-url: not a URL; expected postgres://USER[:PASSWORD]@HOST:PORT/NAME');
  });
});
