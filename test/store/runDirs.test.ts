import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDirs } from '../../src/store/runDirs.js';

describe('runDirs', () => {
  const dirs = runDirs({ workspace: '/work/copy', runsDir: '/work/copy/runs' });

  it('stores a run dir inside the workspace relative to it and reads it back inside the same workspace', () => {
    expect(dirs.toStored('/work/copy/runs/run-a@1')).toBe('runs/run-a@1');
    expect(dirs.fromStored('runs/run-a@1')).toBe('/work/copy/runs/run-a@1');
  });

  it('keeps a run dir outside the workspace absolute', () => {
    expect(dirs.toStored('/elsewhere/runs/run-a@1')).toBe('/elsewhere/runs/run-a@1');
    expect(dirs.fromStored('/elsewhere/other/run-a@1')).toBe('/elsewhere/other/run-a@1');
  });

  it("reads an earlier absolute row of the workspace this one was copied from as this workspace's run dir", () => {
    expect(dirs.fromStored('/work/original/runs/run-a@1')).toBe('/work/copy/runs/run-a@1');
    expect(dirs.fromStored('/work/copy/runs/run-a@1')).toBe('/work/copy/runs/run-a@1');
    // Only a run's own folder straight under a runs folder of the same name.
    expect(dirs.fromStored('/work/original/runs/nested/run-a@1')).toBe('/work/original/runs/nested/run-a@1');
  });

  it('with a runs folder outside the workspace, keeps every absolute row as it is', () => {
    const outside = runDirs({ workspace: '/work/copy', runsDir: '/data/runs' });
    expect(outside.toStored('/data/runs/run-a@1')).toBe('/data/runs/run-a@1');
    expect(outside.fromStored('/data/runs/run-a@1')).toBe('/data/runs/run-a@1');
  });

  it('without an anchor, stores and reads paths unchanged', () => {
    const plain = runDirs(undefined);
    expect(plain.toStored(join('/tmp', 'runs', 'x'))).toBe('/tmp/runs/x');
    expect(plain.fromStored('runs/x')).toBe('runs/x');
  });
});
