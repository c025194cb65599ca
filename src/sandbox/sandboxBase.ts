import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mirrorFile } from './mirrorDir.js';

/**
 * What a sandbox was made as, before any run worked in it: the commit its files are at and a
 * copy of its git index then. Kept beside the sandbox (not in its `.git`, which the run owns),
 * so giving the sandbox back can trust the index's file stats to tell which files the run
 * changed, whatever the run did to its own index.
 */
export interface SandboxBase {
  rev: string;
  /** The index copy: entries at `rev`, with the stats of the files as made. */
  index: string;
}

const indexFile = (sandboxDir: string) => `${sandboxDir}.base-index`;
const revFile = (sandboxDir: string) => `${sandboxDir}.base-rev`;

/**
 * Called once the sandbox's files and index are at `rev`, before anything runs in it. The copy
 * keeps the index's mtime, by which git tells which entries it must not trust by stat alone.
 */
export async function keepBase(sandboxDir: string, rev: string): Promise<void> {
  const index = join(sandboxDir, '.git', 'index');
  if (!existsSync(index)) return forgetBase(sandboxDir);
  await mirrorFile(index, indexFile(sandboxDir));
  await writeFile(revFile(sandboxDir), rev);
}

/** The base kept for the sandbox, or undefined (made before bases were kept, or interrupted). */
export async function readBase(sandboxDir: string): Promise<SandboxBase | undefined> {
  if (!existsSync(indexFile(sandboxDir))) return undefined;
  const rev = await readFile(revFile(sandboxDir), 'utf8').catch(() => '');
  return rev ? { rev, index: indexFile(sandboxDir) } : undefined;
}

export async function forgetBase(sandboxDir: string): Promise<void> {
  await rm(indexFile(sandboxDir), { force: true });
  await rm(revFile(sandboxDir), { force: true });
}
