import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { FormatError } from '../errors.js';
import { parseOrThrow } from '../format.js';
import { CASE_ID_PATTERN } from './schema.js';

/**
 * A case folder travels to every worker host through the store, so its size is bounded: a
 * bank's cases are meant to hold text and small fixtures, not data sets.
 */
export const MAX_CASE_PACK_BYTES = 4 * 1024 * 1024;
export const MAX_CASE_PACK_FILES = 1_000;

const PackPathSchema = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.split('/').some((part) => part === '' || part === '.' || part === '..'), 'expected a relative path inside the case folder');

/** One file of a case folder: its path inside the folder, whether it runs, and its bytes. */
export const CasePackFileSchema = z.object({
  path: PackPathSchema.describe('`/`-separated, relative to the case folder'),
  executable: z.boolean(),
  content: z.string().describe('the bytes, base64 (the pack hash covers them)'),
});
export type CasePackFile = z.infer<typeof CasePackFileSchema>;

/**
 * An eval case folder as content: the four case files and every file beside them that its
 * commands use through `${CASE_DIR}` (scripts, fixtures). What the client validated is what
 * each worker host writes out and runs from, whatever it has at the client's paths.
 */
export const CasePackSchema = z.object({
  caseId: z.string().regex(CASE_ID_PATTERN),
  files: z.array(CasePackFileSchema),
});
export type CasePack = z.infer<typeof CasePackSchema>;

/** A file of a case folder as the walk finds it, before its bytes are read. */
interface CaseFileEntry {
  path: string;
  full: string;
  executable: boolean;
}

/**
 * The files of the case folder `dir` in path order (`.git` left out), checked against the
 * bounds from their sizes alone; FormatError naming the folder (as `shownAs`, by default its
 * path) when it is over them.
 */
export async function listCaseFiles(dir: string, shownAs = dir): Promise<CaseFileEntry[]> {
  const files: CaseFileEntry[] = [];
  let bytes = 0;
  const over = (what: string) => new FormatError(`eval case ${shownAs}: ${what}; a case folder travels to every worker host, so keep data sets out of it (fetch them in a setup command)`);
  const walk = async (folder: string, prefix: string): Promise<void> => {
    for (const name of (await readdir(folder)).sort(compareNames)) {
      // A repository inside the case folder is history, not content the case runs from.
      if (name === '.git') continue;
      const full = path.join(folder, name);
      const stats = await stat(full);
      const relative = prefix ? `${prefix}/${name}` : name;
      if (stats.isDirectory()) {
        await walk(full, relative);
        continue;
      }
      if (!stats.isFile()) continue;
      bytes += stats.size;
      if (bytes > MAX_CASE_PACK_BYTES) throw over(`its files hold more than ${MAX_CASE_PACK_BYTES / 1024 / 1024} MB, expected at most that`);
      if (files.length >= MAX_CASE_PACK_FILES) throw over(`it holds more than ${MAX_CASE_PACK_FILES} files, expected at most that`);
      files.push({ path: relative, full, executable: (stats.mode & 0o111) !== 0 });
    }
  };
  await walk(dir, '');
  return files;
}

/** Reads the case folder `dir` into a pack, in path order; FormatError naming the folder when it is over the bounds. */
export async function packCase(dir: string, caseId = path.basename(dir)): Promise<CasePack> {
  const files: CasePackFile[] = [];
  for (const file of await listCaseFiles(dir)) files.push({ path: file.path, executable: file.executable, content: (await readFile(file.full)).toString('base64') });
  return { caseId, files };
}

/** `sha256:<hex>` of the pack's paths, modes and bytes: the key it is stored and written out under. */
export function casePackHash(pack: CasePack): string {
  const hash = createHash('sha256').update(`${pack.caseId}\n`);
  for (const file of pack.files) hash.update(`${file.path}\0${file.executable ? 'x' : '-'}\0${file.content.length}\0`).update(file.content);
  return `sha256:${hash.digest('hex')}`;
}

/**
 * Writes the pack out as `<root>/<hash>/<caseId>` unless it is there already, and returns that
 * folder. Written aside and renamed, so a crash or a second writer never leaves a partial case
 * that a later run would take for the whole one. The pack is checked against its hash first.
 */
export async function unpackCase(raw: unknown, hash: string, root: string): Promise<string> {
  const pack = parseOrThrow(CasePackSchema, raw, `case pack ${hash}`);
  const found = casePackHash(pack);
  if (found !== hash) throw new FormatError(`case pack ${hash}: its content hashes to ${found}; the store holds a damaged copy, start the batch again`);
  const target = casePackDir(root, hash, pack.caseId);
  if (existsSync(target)) return target;
  const partial = `${target}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  await mkdir(partial, { recursive: true });
  try {
    for (const file of pack.files) {
      const dest = path.join(partial, ...file.path.split('/'));
      await mkdir(path.dirname(dest), { recursive: true });
      await writeFile(dest, Buffer.from(file.content, 'base64'));
      await chmod(dest, file.executable ? 0o755 : 0o644);
    }
    await rename(partial, target);
  } catch (err) {
    await rm(partial, { recursive: true, force: true });
    // Another writer renamed its copy first: same hash, same content.
    if (existsSync(target)) return target;
    throw err;
  }
  return target;
}

/** Where `unpackCase` writes the pack `hash` of case `caseId` under `root`. */
export function casePackDir(root: string, hash: string, caseId: string): string {
  return path.join(root, hash.replace(/^sha256:/, ''), caseId);
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
