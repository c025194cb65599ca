import { userInfo } from 'node:os';
import { loadSettings, type Settings } from '../config.js';
import { ConfigError, TemporalUnreachableError, UsageError } from '../errors.js';
import { checkScheduleName } from '../schedules/scheduleInput.js';
import { openStore, type Store } from '../store/index.js';
import type { CommandIo } from '../cli/io.js';
import { lookupStoreOptions } from '../cli/storeOptions.js';

export interface BlessOptions {
  batchId: string;
  /** The schedule whose baseline it becomes (default: the schedule that ran the batch). */
  schedule?: string;
  config?: string;
}

/**
 * `evalflow bless BATCH`: the batch a schedule's firings are compared with from now on.
 * Nothing else ever moves a baseline.
 */
export async function run(options: BlessOptions, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const store = await openStore(lookupStoreOptions(settings));
  try {
    const batch = await store.getBatch(options.batchId);
    if (!batch) throw new ConfigError(`bless: ${options.batchId} is no batch in the store (\`evalflow batches\` lists them)`);
    const own = typeof batch.spec.schedule === 'string' ? batch.spec.schedule : undefined;
    const schedule = options.schedule ?? own;
    if (!schedule) throw new ConfigError(`bless: batch ${options.batchId} was not started by a schedule; say whose baseline it becomes with --schedule NAME`);
    checkScheduleName(schedule);
    if (options.schedule !== undefined && options.schedule !== own) await checkScheduleKnown(store, schedule, settings, io);
    if (batch.status !== 'completed') io.err(`warning: batch ${options.batchId} is ${batch.status}, not completed: comparisons with it count only its judged runs`);
    const before = await store.getBaseline(schedule);
    await store.blessBaseline({ schedule, batch_id: options.batchId, blessed_by: io.env.USER ?? userInfo().username, blessed_at: new Date().toISOString() });
    io.out(`schedule ${schedule}: baseline ${options.batchId}${before ? ` (was ${before.batch_id})` : ''}`);
    return 0;
  } finally {
    await store.close();
  }
}

/**
 * `--schedule S` must name a schedule the store knows (one that ran a batch or has a baseline)
 * or Temporal holds (one created and not yet fired), so that a typo does not bless a baseline no
 * schedule ever reads. When Temporal cannot be asked, the store's answer stands with a warning.
 */
async function checkScheduleKnown(store: Store, schedule: string, settings: Settings, io: CommandIo): Promise<void> {
  if ((await store.getBaseline(schedule)) || (await store.listScheduledBatches(schedule, 1)).length > 0) return;
  const refused = new UsageError(`--schedule '${schedule}': expected a schedule that exists; none of that name in the store or on Temporal (\`evalflow schedule list\` lists them)`);
  const { connectTemporal } = await import('../temporal/connection.js');
  const { findSchedule } = await import('../temporal/findSchedule.js');
  let temporal;
  try {
    temporal = await connectTemporal(settings, () => undefined, { startEmbedded: false });
  } catch (err) {
    if (!(err instanceof TemporalUnreachableError)) throw err;
    io.err(`warning: --schedule '${schedule}' has no batch or baseline in the store and Temporal is not running to confirm it exists; blessing anyway`);
    return;
  }
  try {
    if (!(await findSchedule(temporal, schedule))) throw refused;
  } finally {
    await temporal.close();
  }
}
