import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/errors.js';
import { openStore } from '../../src/store/index.js';
import { isTransient, storeFailure } from '../../src/store/storeOperation.js';

const noRedaction = { redact: (text: string) => text };
const driverError = (code: string) => Object.assign(new Error(`driver says ${code}`), { code });

describe('store failures', () => {
  it('are retryable for lost connections, shutdowns, deadlocks and socket errors', () => {
    for (const code of ['08006', '08001', '53300', '57P01', '40001', '40P01', 'ECONNREFUSED', 'ECONNRESET']) {
      expect(isTransient(driverError(code)), code).toBe(true);
      expect(storeFailure(noRedaction, 'getRun("x")', driverError(code)).retryable, code).toBe(true);
    }
  });

  it('are not retryable for statement errors or errors without a code', () => {
    for (const error of [driverError('42P01'), driverError('23505'), new Error('boom'), 'text']) {
      expect(isTransient(error)).toBe(false);
      expect(storeFailure(noRedaction, 'getRun("x")', error).retryable).toBe(false);
    }
  });

  it('marks an unreachable PostgreSQL as a retryable StoreError', async () => {
    const failure = await openStore({ databaseUrl: 'postgres://root@127.0.0.1:1/test' }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(StoreError);
    expect((failure as StoreError).retryable).toBe(true);
  });
});
