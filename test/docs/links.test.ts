import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

describe('links between the README and docs/', () => {
  it.each(PAGES)('every relative link of %s names a file that exists, and a heading there', (page) => {
    const broken = relativeLinks(page).filter((link) => !resolves(page, link));
    expect(broken).toEqual([]);
  });

  it('the check itself sees a broken file and a broken heading', () => {
    expect(resolves('README.md', 'docs/no-such-page.md')).toBe(false);
    expect(resolves('README.md', 'docs/batches.md#no-such-heading')).toBe(false);
    expect(resolves('README.md', 'docs/batches.md#when-things-break')).toBe(true);
    expect(resolves('docs/cli.md', '#evalflow-schedule-create')).toBe(true);
  });
});

/** Markdown links and images outside code, that point into the repository. */
function relativeLinks(page: string): string[] {
  const prose = readFileSync(join(ROOT, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/i.test(target));
}

function resolves(page: string, link: string): boolean {
  const [path, fragment] = link.split('#') as [string, string | undefined];
  const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), path);
  if (!file.startsWith(ROOT) || !existsSync(file)) return false;
  if (fragment === undefined) return true;
  return relative(ROOT, file).endsWith('.md') && anchors(readFileSync(file, 'utf8')).has(fragment);
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as '-', repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!.trim().toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, '').replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    found.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return found;
}
