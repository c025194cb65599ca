import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { locateTemporalBinary } from '../../src/temporal/binary.js';

const saved = process.env.EVALFLOW_TEMPORAL_BIN;
afterEach(() => {
  if (saved === undefined) delete process.env.EVALFLOW_TEMPORAL_BIN;
  else process.env.EVALFLOW_TEMPORAL_BIN = saved;
});

/** An environment with no Go, no `temporal` on PATH and an empty cache. */
async function bareEnv(): Promise<Record<string, string>> {
  const home = await mkdtemp(join(tmpdir(), 'evalflow-home-'));
  const cache = join(home, 'empty-cache');
  await mkdir(cache);
  return { PATH: '/usr/bin:/bin', HOME: home, EVALFLOW_CACHE_DIR: cache };
}

async function stubBinary(dir: string, mode: number): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'temporal');
  await writeFile(path, '#!/bin/sh\necho "temporal version 0.0.0-stub"\n');
  await chmod(path, mode);
  return path;
}

describe('locateTemporalBinary', () => {
  it('uses EVALFLOW_TEMPORAL_BIN when it is executable', async () => {
    const env = await bareEnv();
    const binary = await stubBinary(join(env.HOME!, 'custom'), 0o755);
    expect(await locateTemporalBinary({ env: { ...env, EVALFLOW_TEMPORAL_BIN: binary } })).toBe(binary);
  });

  it('rejects an EVALFLOW_TEMPORAL_BIN that is not executable, naming it', async () => {
    const env = await bareEnv();
    const binary = await stubBinary(join(env.HOME!, 'custom'), 0o644);
    const err = await locateTemporalBinary({ env: { ...env, EVALFLOW_TEMPORAL_BIN: binary } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe(
      `could not find or build the Temporal CLI:\nevalflow: EVALFLOW_TEMPORAL_BIN=${binary} is not an executable file`,
    );
  });

  it('finds a binary in the cache', async () => {
    const env = await bareEnv();
    const binary = await stubBinary(join(env.EVALFLOW_CACHE_DIR!, 'bin'), 0o755);
    expect(await locateTemporalBinary({ env })).toBe(binary);
  });

  it('without Go and without a binary, lists every way to get one', async () => {
    const progress: string[] = [];
    const err = await locateTemporalBinary({ env: await bareEnv(), onProgress: (line) => progress.push(line) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as Error).message;
    expect(message).toContain('the Temporal CLI was not found and Go is not installed to build it');
    expect(message).toContain('1. install Go >= 1.25 and re-run this script');
    expect(message).toContain('2. install the Temporal CLI from https://docs.temporal.io/cli#install and put `temporal` on PATH');
    expect(message).toContain('3. set EVALFLOW_TEMPORAL_BIN to the path of an existing `temporal` binary');
    expect(message).toContain('4. or use an existing cluster: set TEMPORAL_ADDRESS (and TEMPORAL_NAMESPACE)');
    expect(progress.join('\n')).toContain('Go is not installed');
  });

  it('uses only the environment it is given, not the process environment', async () => {
    const elsewhere = await stubBinary(join(await mkdtemp(join(tmpdir(), 'evalflow-bin-')), 'bin'), 0o755);
    process.env.EVALFLOW_TEMPORAL_BIN = elsewhere;
    const err = await locateTemporalBinary({ env: await bareEnv() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
  });
});
