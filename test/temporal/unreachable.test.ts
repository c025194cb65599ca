import { ServiceError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { TemporalUnreachableError } from '../../src/errors.js';
import { isUnreachable } from '../../src/temporal/unreachable.js';

/** A gRPC status error as grpc-js makes them: code, details, metadata. */
const grpcError = (code: number, details: string) => Object.assign(new Error(`${code} ${details}`), { code, details, metadata: {} });

describe('isUnreachable', () => {
  it('is true for what a server that went away looks like to the client', () => {
    expect(isUnreachable(new ServiceError('Failed to describe workflow', { cause: grpcError(14, 'No connection established') }))).toBe(true);
    expect(isUnreachable(new Error('Channel has been shut down'))).toBe(true);
    expect(isUnreachable(new Error('Failed to connect before the deadline'))).toBe(true);
    expect(isUnreachable(Object.assign(new Error('tcp connect error'), { name: 'TransportError' }))).toBe(true);
    expect(isUnreachable(new TemporalUnreachableError('Temporal is not running', '127.0.0.1:7233'))).toBe(true);
  });

  it('is false for answers: a missing workflow, a deadline, a rejected request', () => {
    expect(isUnreachable(new ServiceError('Failed to describe workflow', { cause: grpcError(5, 'workflow not found') }))).toBe(false);
    expect(isUnreachable(new ServiceError('Failed to query workflow', { cause: grpcError(4, 'Deadline exceeded') }))).toBe(false);
    expect(isUnreachable(new ServiceError('Failed to start workflow', { cause: grpcError(3, 'invalid argument') }))).toBe(false);
    expect(isUnreachable(new Error('boom'))).toBe(false);
    expect(isUnreachable('not an error')).toBe(false);
  });
});
