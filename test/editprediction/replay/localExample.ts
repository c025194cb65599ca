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
