import { statSync, type BigIntStats } from 'node:fs';

/**
 * What a file was last read or written as by this process, kept while the file is unchanged:
 * the same inode (a rename over it is a new one), size and modification time (which a rename keeps) to the
 * nanosecond. A run's stages read its env_checklist.yaml again and again (every turn of a
 * contained candidate reads it for its view), and parsing YAML and its schema each time cost
 * milliseconds a read on a loaded host. Values are cloned in and out, so no caller can change
 * another's copy. Bounded: the oldest entries go first.
 */
export interface FileMemo<T> {
  /** The value for `path` if the file is still what it was when remembered, else undefined. */
  recall(path: string): T | undefined;
  /** Remembers `value` as `path` is now (or as `stats` say it is: a file about to be renamed onto `path`). */
  remember(path: string, value: T, stats?: BigIntStats): void;
}

export function createFileMemo<T>(capacity = 64): FileMemo<T> {
  const entries = new Map<string, { key: string; value: T }>();
  return {
    recall(path) {
      const entry = entries.get(path);
      if (!entry) return undefined;
      const now = stampOf(path);
      if (now === undefined || now !== entry.key) {
        entries.delete(path);
        return undefined;
      }
      return structuredClone(entry.value);
    },
    remember(path, value, stats) {
      const key = stats ? stamp(stats) : stampOf(path);
      entries.delete(path);
      if (key === undefined) return;
      entries.set(path, { key, value: structuredClone(value) });
      if (entries.size > capacity) entries.delete(entries.keys().next().value!);
    },
  };
}

function stampOf(path: string): string | undefined {
  const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
  return stats ? stamp(stats) : undefined;
}

function stamp(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}`;
}
