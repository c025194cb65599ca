import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/** File content: text, or bytes for files that are not UTF-8. */
export type FileContent = string | Uint8Array;

/** Write path→content files under a fresh temp dir (removed after the test) and return its path. */
export async function writeTree(files: Record<string, FileContent>): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'evalflow-evalset-'));
  created.push(root);
  for (const [relative, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
    await writeFile(path.join(root, relative), content);
  }
  return root;
}

const created: string[] = [];
afterEach(async () => {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

export const META_YAML = (id: string) => `id: ${id}
version: v1
target_workflow: default
category: feature
purpose: checks a small feature
max_turns: 3
tags: [demo]
`;

export const TASK_MD = `# Task

## Prompt

> Add a helper.
>
> Keep it small.

## Scenario

A developer who wants a helper.

## Guidance

End when the helper exists.
`;

export const RUBRIC_MD = `## Hard requirements

- The helper exists.
- Tests pass.

## Quality

- Small diff.

## Common failures

- Forgetting tests.
`;

export const ENV_YAML = `preconditions:
  - description: project present
    check: test -f "\${SANDBOX_DIR}/package.json"
    severity: hard
postconditions:
  - description: tests pass
    check: cd "\${SANDBOX_DIR}" && node --test
    severity: hard
`;

/** The four files of a valid case, keyed `<prefix><id>/<file>`; override any file's content. */
export function aCase(id: string, overrides: Partial<Record<string, FileContent>> = {}, prefix = ''): Record<string, FileContent> {
  const files: Record<string, FileContent> = {
    'meta.yaml': META_YAML(id),
    'task.md': TASK_MD,
    'rubric.md': RUBRIC_MD,
    'env.yaml': ENV_YAML,
  };
  for (const [file, content] of Object.entries(overrides)) {
    if (content === undefined) delete files[file];
    else files[file] = content;
  }
  return Object.fromEntries(Object.entries(files).map(([file, content]) => [`${prefix}${id}/${file}`, content]));
}
