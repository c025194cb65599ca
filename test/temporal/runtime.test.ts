import { describe, expect, it } from 'vitest';
import { formatLogEntry } from '../../src/temporal/runtime.js';

describe('formatLogEntry', () => {
  it('puts an activity failure on one line with its activity, workflow and attempt', () => {
    const line = formatLogEntry({
      level: 'WARN',
      message: 'Activity failed',
      timestampNanos: 0n,
      meta: { activityType: 'judgeRun', workflowId: 'run-a-b@20260101T000000', attempt: 2, error: new Error('HTTP 429 slow down') },
    });
    expect(line).toBe('temporal warn: Activity failed (judgeRun, run-a-b@20260101T000000, attempt 2): HTTP 429 slow down');
  });

  it('prints a bare message without empty parentheses', () => {
    expect(formatLogEntry({ level: 'ERROR', message: 'Worker failed', timestampNanos: 0n })).toBe('temporal error: Worker failed');
  });

  it("shortens core's gRPC status structs to their code and message", () => {
    const message = 'Network error while completing activity: Status { code: Unavailable, message: "tcp connect error", source: Some(tonic::transport::Error(Transport, ConnectError("tcp connect error", 127.0.0.1:7233))) }';
    expect(formatLogEntry({ level: 'WARN', message, timestampNanos: 0n })).toBe('temporal warn: Network error while completing activity: Unavailable (tcp connect error)');
  });
});
