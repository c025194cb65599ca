import { pathToFileURL } from 'node:url';
import { parseExampleText } from '../../../src/editprediction/format/readExamples.js';
import type { Example } from '../../../src/editprediction/format/schema.js';
import { createGitRepo } from './gitFixture.js';

export const APP_V1 = 'import os\n\n\ndef greet(name):\n    return "hello " + name\n\n\ndef main():\n    print(greet("world"))\n';
export const APP_V2 = `${APP_V1}# added later\n`;

export const UNCOMMITTED = '--- a/src/app.py\n+++ b/src/app.py\n@@ -1,3 +1,4 @@\n import os\n+import sys\n \n \n';

/** Two sections: the first names the file with the repository as first component. */
export const HISTORY = [
  '```diff',
  '--- a/demo/src/app.py',
  '+++ b/demo/src/app.py',
  '@@ -5,2 +5,2 @@',
  ' def greet(name):',
  '-    return "hello " + name',
  '+    return "hello, " + name',
  '```',
  '',
  '// User accepted prediction:',
  '```diff',
  '--- a/src/app.py',
  '+++ b/src/app.py',
  '@@ -9,2 +9,3 @@',
  ' def main():',
  '     print(greet("world"))',
  '+    print(greet("you"))',
  '```',
].join('\n');

export const CURSOR = '```src/app.py\ndef main():\n    print(greet("world"))\n    print(greet("you"))\n#                      ^[CURSOR_POSITION]\n```';

export const EXPECTED = '```diff\n--- a/src/app.py\n+++ b/src/app.py\n@@ -10,3 +10,4 @@\n def main():\n     print(greet("world"))\n     print(greet("you"))\n+    print(greet("me"))\n```';

/** A Markdown example in Zed's format pointing at `repositoryUrl`. */
export function exampleMarkdown(repositoryUrl: string, revision: string, parts: { uncommitted?: string; history?: string; cursor?: string; expected?: string } = {}): string {
  const sections = [
    `+++\nrepository_url = ${JSON.stringify(repositoryUrl)}\nrevision = ${JSON.stringify(revision)}\n+++\n`,
    ...(parts.uncommitted ? [`## Uncommitted Diff\n\n\`\`\`diff\n${parts.uncommitted}\`\`\`\n`] : []),
    `## Edit History\n\n${parts.history ?? HISTORY}\n`,
    `## Cursor Position\n\n${parts.cursor ?? CURSOR}\n`,
    `## Expected Patch\n\n${parts.expected ?? EXPECTED}\n`,
  ];
  return sections.join('\n');
}

/** A local repository (two commits) and an example at its first commit, by path or file:// URL. */
export async function localExample(options: { fileUrl?: boolean; parts?: Parameters<typeof exampleMarkdown>[2] } = {}): Promise<{ example: Example; repo: string; shas: string[] }> {
  const { repo, shas } = await createGitRepo([{ 'src/app.py': APP_V1, 'README': 'demo\n' }, { 'src/app.py': APP_V2 }], 'demo');
  const url = options.fileUrl ? pathToFileURL(repo).href : repo;
  const markdown = exampleMarkdown(url, shas[0] as string, { uncommitted: UNCOMMITTED, ...options.parts });
  const [example] = parseExampleText(markdown, 'local-demo.md');
  return { example: example!, repo, shas };
}

/** How a line-ending twin is made from the LF texts above. */
export type LineEndingVariant = 'lf' | 'crlf' | 'mixed' | 'lfExampleOnCrlfRepo';

/** A user edit (no accepted-prediction marker), then the line the cursor is on. */
const TWIN_HISTORY = [
  '--- a/src/app.py\n+++ b/src/app.py\n@@ -5,2 +5,2 @@\n def greet(name):\n-    return "hello " + name\n+    return "hello, " + name\n',
  '--- a/src/app.py\n+++ b/src/app.py\n@@ -9,2 +9,3 @@\n def main():\n     print(greet("world"))\n+    print(greet("you"))\n',
];
const TWIN_CURSOR = 'def main():\n    print(greet("world"))\n    print(greet("you"))\n#                      ^[CURSOR_POSITION]\n';
const TWIN_EXPECTED = '--- a/src/app.py\n+++ b/src/app.py\n@@ -10,3 +10,4 @@\n def main():\n     print(greet("world"))\n     print(greet("you"))\n+    print(greet("me"))\n#                     ^[CURSOR_POSITION]\n';

/**
 * Line ends of the mixed twin, chosen by a line's content so that the file, the diffs and the
 * cursor block agree: `import`, `def` and `return` lines end in CRLF, the rest (blank lines and
 * every `print` line, where the expected patch and the predictions change the file) in LF.
 * `def main():` also holds a lone CR, which is text, not a line end, in every variant.
 */
function mixedEnding(content: string): string {
  return /import|def|return/.test(content) ? '\r\n' : '\n';
}

/**
 * The twin of one LF text: a file or cursor block (`lines`), or a diff (headers stay LF).
 * `zed` is the text as Zed's buffers hold the CRLF twin: LF only, the lone CR an LF too.
 */
export function twinText(text: string, kind: 'lines' | 'diff', variant: LineEndingVariant | 'zed'): string {
  const withCr = text.replace(/def main\(\):/g, 'def main():\r# entry');
  if (variant === 'zed') {
    // In a diff the lone CR's new line is a line of the same kind (context, added, deleted).
    return kind === 'lines' ? withCr.replace(/\r/g, '\n') : withCr.replace(/^([ +-])(.*)\r/gm, '$1$2\n$1');
  }
  if (variant === 'lf') return withCr;
  if (variant === 'crlf') return withCr.replace(/\n/g, '\r\n');
  const lines = withCr.split('\n');
  const last = lines.pop();
  const ended = lines.map((line) => {
    const isHeader = kind === 'diff' && /^(---|\+\+\+|@@)/.test(line);
    const isMarker = line.includes('[CURSOR_POSITION]');
    const content = kind === 'diff' && line !== '' ? line.slice(1) : line;
    return `${line}${isHeader || isMarker ? '\n' : mixedEnding(content)}`;
  });
  return ended.join('') + (last ?? '');
}

/**
 * The same example in LF, CRLF or mixed line endings, on a repository whose file has them too,
 * as git fixtures: `crlf` is a CRLF Markdown file throughout, `mixed` an LF file with mixed
 * blocks, `lfExampleOnCrlfRepo` an LF example (as Zed captures them, with the uncommitted diff
 * git gives for a CRLF file) on the CRLF repository.
 */
export async function lineEndingExample(variant: LineEndingVariant): Promise<{ example: Example; repo: string; shas: string[] }> {
  const repoVariant = variant === 'lfExampleOnCrlfRepo' ? 'crlf' : variant;
  const exampleVariant = variant === 'lfExampleOnCrlfRepo' ? 'zed' : variant;
  const { repo, shas } = await createGitRepo([{ 'src/app.py': twinText(APP_V1, 'lines', repoVariant) }], 'demo');
  const block = (info: string, text: string) => `\`\`\`${info}\n${text}\`\`\`\n`;
  const markdown = [
    `+++\nrepository_url = ${JSON.stringify(repo)}\nrevision = ${JSON.stringify(shas[0])}\n+++\n`,
    `## Uncommitted Diff\n\n${block('diff', twinText(UNCOMMITTED, 'diff', repoVariant))}`,
    `## Edit History\n\n${TWIN_HISTORY.map((diff) => block('diff', twinText(diff, 'diff', exampleVariant))).join('\n')}`,
    `## Cursor Position\n\n${block('src/app.py', twinText(TWIN_CURSOR, 'lines', exampleVariant))}`,
    `## Expected Patch\n\n${block('diff', twinText(TWIN_EXPECTED, 'diff', exampleVariant))}`,
  ].join('\n');
  const file = variant === 'crlf' ? markdown.replace(/\r?\n/g, '\r\n') : markdown;
  const [example] = parseExampleText(file, `twin-${variant}.md`);
  return { example: { ...example!, name: 'twin' }, repo, shas };
}
