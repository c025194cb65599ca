import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkIsolation } from '../../../src/cli/checks/checkIsolation.js';
import { memoryIo } from '../../../src/cli/io.js';
import { forgetContainmentProbe } from '../../../src/containment/index.js';
import { ConfigError } from '../../../src/errors.js';

const spec = (isolation?: 'sandbox' | 'none') => ({ name: 'agent', adapter: 'command', args: ['./a.sh'], env: {}, ...(isolation ? { isolation } : {}) });
const path = process.env.PATH;

afterEach(() => {
  process.env.PATH = path;
  forgetContainmentProbe();
});

/** A PATH whose first `bwrap` is `script` (or none at all when `script` is null). */
async function pathWithBwrap(script: string | null): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'evf-bwrap-'));
  if (script === null) return dir;
  await writeFile(join(dir, 'bwrap'), script, { mode: 0o755 });
  await chmod(join(dir, 'bwrap'), 0o755);
  return `${dir}:${path}`;
}

describe('checkIsolation, before anything runs', () => {
  it('passes a contained candidate on a host that can contain it, silently', () => {
    const io = memoryIo(tmpdir(), {});
    checkIsolation([spec('sandbox')], io, { probe: true });
    expect(io.stderr).toEqual([]);
  });

  it('refuses a contained candidate when bubblewrap is missing, with the install line and the way out', async () => {
    process.env.PATH = await pathWithBwrap(null);
    forgetContainmentProbe();
    const io = memoryIo(tmpdir(), {});
    expect(() => checkIsolation([spec('sandbox')], io, { probe: true })).toThrow(ConfigError);
    expect(() => checkIsolation([spec('sandbox')], io, { probe: true })).toThrow(
      /candidate "agent" cannot be contained \(isolation: sandbox\): bubblewrap \(bwrap\) is not installed: install it \(`apt-get install bubblewrap`.*set `isolation: none`/,
    );
  });

  it('refuses when the host refuses user namespaces, saying what bubblewrap said', async () => {
    process.env.PATH = await pathWithBwrap('#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n');
    forgetContainmentProbe();
    expect(() => checkIsolation([spec('sandbox')], memoryIo(tmpdir(), {}), { probe: true })).toThrow(
      /bubblewrap cannot make a sandbox on this host \(bwrap: setting up uid map: Permission denied\): user namespaces are probably refused/,
    );
  });

  it('leaves the probe to the workers when the runs go to other machines', async () => {
    process.env.PATH = await pathWithBwrap(null);
    forgetContainmentProbe();
    expect(() => checkIsolation([spec('sandbox')], memoryIo(tmpdir(), {}), { probe: false })).not.toThrow();
  });

  it('says an uncontained candidate runs uncontained, once per candidate', () => {
    const io = memoryIo(tmpdir(), {});
    checkIsolation([spec('none'), spec('none')], io, { probe: true });
    expect(io.stderr).toEqual([
      'warning: candidate "agent" runs uncontained (isolation: none): it can read and write whatever the worker\'s user can; its results are marked uncontained',
    ]);
  });
});
