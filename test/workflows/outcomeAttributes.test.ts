import { describe, expect, it } from 'vitest';
import type { RunOutcome } from '../../src/run/runOutcome.js';
import { hostTaskQueue } from '../../src/temporal/names.js';
import { attemptHosts, verdictMemo } from '../../src/workflows/outcomeAttributes.js';

const outcome = { status: 'completed', result: 'pass', overall: 4 } as RunOutcome;

describe('attemptHosts', () => {
  it('one host: the one the run ended on', () => {
    expect(attemptHosts([], hostTaskQueue('host-a'))).toEqual(['host-a']);
  });

  it('a lost host: it, then each host the run restarted on', () => {
    const lost = [
      { kind: 'host_lost', host: 'host-a', stage: 'dialogue', restartedOn: 'host-b' },
      { kind: 'infra_retries', count: 1, detail: 'judgeRun ×1' },
      { kind: 'host_lost', host: 'host-b', stage: 'setup', restartedOn: 'host-c' },
    ] as const;
    expect(attemptHosts(lost, hostTaskQueue('host-c'))).toEqual(['host-a', 'host-b', 'host-c']);
  });

  it('a run that gave up on its lost host, and one that never got a host', () => {
    expect(attemptHosts([{ kind: 'host_lost', host: 'host-a', stage: 'prepare', restartedOn: null }], hostTaskQueue('host-a'))).toEqual(['host-a']);
    expect(attemptHosts([], null)).toEqual([]);
  });
});

describe('verdictMemo', () => {
  it('names the host of the run, or of each attempt', () => {
    expect(verdictMemo({ runId: 'r1', viewerUrl: 'http://127.0.0.1:8300' }, outcome, ['host-a'])).toEqual({ verdict: 'pass, overall 4/5 (status completed)', host: 'host-a', evalflow_view: 'http://127.0.0.1:8300/runs/r1' });
    expect(verdictMemo({ runId: 'r1', viewerUrl: 'http://127.0.0.1:8300' }, outcome, ['host-a', 'host-b']).host).toBe('host-a (attempt 1), host-b (attempt 2)');
    expect(verdictMemo({ runId: 'r1', viewerUrl: 'http://127.0.0.1:8300' }, outcome, [])).not.toHaveProperty('host');
  });
});
