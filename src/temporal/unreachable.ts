import { isGrpcServiceError } from '@temporalio/client';
import { TemporalUnreachableError } from '../errors.js';

/** gRPC status codes that mean the server is not there (as opposed to an answer we did not like). */
const UNAVAILABLE = 14;

/**
 * Whether an error from a Temporal client call means the server could not be reached: the
 * connection was refused or lost, the channel is closed, or the SDK gave up connecting.
 * Such a failure says nothing about the batch, which goes on in Temporal.
 */
export function isUnreachable(err: unknown): boolean {
  for (let cause: unknown = err, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth += 1) {
    if (cause instanceof TemporalUnreachableError) return true;
    if (isGrpcServiceError(cause) && cause.code === UNAVAILABLE) return true;
    if (cause.name === 'TransportError') return true;
    if (/Channel has been shut down|Failed to connect before the deadline|ECONNREFUSED|ECONNRESET|tcp connect error|Connection refused|No connection established/i.test(cause.message)) return true;
  }
  return false;
}
