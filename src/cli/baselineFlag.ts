import { ConfigError, UsageError } from '../errors.js';
import { openStore, type OpenStoreOptions } from '../store/index.js';
import { selectSide } from '../summaries/selectSide.js';

/**
 * `run --baseline X` names a batch, batch:arm or workflow_rev that must already be in the store:
 * checked before Temporal or a worker starts, so that a typo fails at once instead of after
 * every run of the batch.
 */
export async function checkBaselineFlag(storeOptions: OpenStoreOptions, baseline: string): Promise<void> {
  const store = await openStore(storeOptions);
  try {
    await selectSide(store, baseline);
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(`--baseline ${err.message.replace(/^compare: /, '')}`, { cause: err });
    throw err;
  } finally {
    await store.close();
  }
}
