import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerSelfLaunch } from '../../src/cli/selfLaunch.js';
import { heldStoreOptions, lookupStoreOptions, storeOptions, workerStoreOptions } from '../../src/cli/storeOptions.js';
import { loadSettings } from '../../src/config.js';
import { tempDir } from '../sandbox/sandboxFixture.js';

/** The settings of an empty workspace with `env` (EVALFLOW_HOME inside it). */
async function settingsWith(env: NodeJS.ProcessEnv) {
  const root = await tempDir('evalflow-store-options-');
  return loadSettings(root, { EVALFLOW_HOME: join(root, '.evalflow'), ...env });
}

describe('lookupStoreOptions: whether a look-up starts a lingering store service', () => {
  it('not when the process is not the CLI (a command run inside another program)', async () => {
    const settings = await settingsWith({});
    expect(lookupStoreOptions(settings)).toEqual(storeOptions(settings));
  });

  it('the CLI on the embedded store: a service lingering EVALFLOW_STORE_LINGER seconds, logging in EVALFLOW_HOME', async () => {
    registerSelfLaunch(['/path/to/evalflow.js']);
    const settings = await settingsWith({ EVALFLOW_STORE_LINGER: '30' });
    expect(lookupStoreOptions(settings).linger).toEqual({ seconds: 30, launch: ['/path/to/evalflow.js'], logFile: join(settings.stateDir, 'store-service.log') });
    expect(storeOptions(settings).linger).toBeUndefined();
  });

  it('none with EVALFLOW_STORE_LINGER=0, nor on PostgreSQL', async () => {
    registerSelfLaunch(['/path/to/evalflow.js']);
    expect(lookupStoreOptions(await settingsWith({ EVALFLOW_STORE_LINGER: '0' })).linger).toBeUndefined();
    expect(lookupStoreOptions(await settingsWith({ EVALFLOW_STORE_LINGER: '30', DATABASE_URL: 'postgres://u@127.0.0.1:1/db' })).linger).toBeUndefined();
  });
});

describe('heldStoreOptions: whether a command that holds the store hands it to a lingering service at close', () => {
  it('the CLI on the embedded store: handed over, with the look-ups\' linger and log; nothing started while it holds it', async () => {
    registerSelfLaunch(['/path/to/evalflow.js']);
    const settings = await settingsWith({ EVALFLOW_STORE_LINGER: '30' });
    const handOver = { seconds: 30, launch: ['/path/to/evalflow.js'], logFile: join(settings.stateDir, 'store-service.log') };
    expect(heldStoreOptions(settings)).toEqual({ ...storeOptions(settings), handOver });
    expect(workerStoreOptions(settings).handOver).toEqual(handOver);
    expect(heldStoreOptions(settings).linger).toBeUndefined();
  });

  it('none with EVALFLOW_STORE_LINGER=0, nor on PostgreSQL', async () => {
    registerSelfLaunch(['/path/to/evalflow.js']);
    expect(heldStoreOptions(await settingsWith({ EVALFLOW_STORE_LINGER: '0' })).handOver).toBeUndefined();
    expect(heldStoreOptions(await settingsWith({ EVALFLOW_STORE_LINGER: '30', DATABASE_URL: 'postgres://u@127.0.0.1:1/db' })).handOver).toBeUndefined();
  });
});
