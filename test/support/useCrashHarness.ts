import { afterAll, beforeAll } from 'vitest';
import { startCrashHarness, type CrashHarness } from './crashHarness.js';
import type { CrashFixtureOptions } from './crashFixture.js';

/** What a describe block adds around its harness's start and close. */
export interface CrashHarnessHooks {
  /** The beforeAll's timeout; vitest's hookTimeout if unset. */
  timeoutMs?: number;
  /** Runs in the beforeAll once the harness is up (within the same timeout). */
  setUp?(harness: CrashHarness): Promise<void>;
  /** Runs in the afterAll before the harness closes, if it started. */
  beforeClose?(harness: CrashHarness): Promise<void>;
}

/**
 * Starts a crash harness in the enclosing describe's beforeAll and closes it in its afterAll.
 * Returns the harness's getter: the tests call it once the beforeAll has run.
 */
export function useCrashHarness(options: Omit<CrashFixtureOptions, 'temporalAddress' | 'schema'>, hooks: CrashHarnessHooks = {}): () => CrashHarness {
  let harness: CrashHarness | undefined;
  beforeAll(async () => {
    harness = await startCrashHarness(options);
    await hooks.setUp?.(harness);
  }, hooks.timeoutMs);
  afterAll(async () => {
    if (!harness) return;
    await hooks.beforeClose?.(harness);
    await harness.close();
  });
  return () => {
    if (!harness) throw new Error('useCrashHarness: the harness is not started (its beforeAll has not run, or failed)');
    return harness;
  };
}
