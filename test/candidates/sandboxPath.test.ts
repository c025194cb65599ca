import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveInSandbox } from '../../src/candidates/sandboxPath.js';
import { tempDir } from '../sandbox/sandboxFixture.js';

async function aSandboxWithSkills(): Promise<{ sandbox: string; outside: string }> {
  const sandbox = await tempDir();
  const outside = await tempDir('evalflow-snapshot-');
  await mkdir(join(outside, 'node-test'), { recursive: true });
  await writeFile(join(outside, 'node-test/SKILL.md'), '# node-test');
  await writeFile(join(outside, 'secret.txt'), 'not for the agent');
  await mkdir(join(sandbox, '.agents'), { recursive: true });
  await symlink(outside, join(sandbox, '.agents/skills'), 'dir');
  await symlink(outside, join(sandbox, 'elsewhere'), 'dir');
  return { sandbox, outside };
}

describe('resolveInSandbox', () => {
  it('reads through a link evalflow placed, and through no other link', async () => {
    const { sandbox } = await aSandboxWithSkills();
    await expect(resolveInSandbox(sandbox, '.agents/skills/node-test/SKILL.md', ['.agents/skills'])).resolves.toBe(join(sandbox, '.agents/skills/node-test/SKILL.md'));
    await expect(resolveInSandbox(sandbox, '.agents/skills/node-test/SKILL.md')).rejects.toThrow('leads outside the sandbox through a symbolic link');
    await expect(resolveInSandbox(sandbox, 'elsewhere/node-test/SKILL.md', ['.agents/skills'])).rejects.toThrow('leads outside the sandbox through a symbolic link');
  });

  it('refuses to climb out of the readable link', async () => {
    const { sandbox } = await aSandboxWithSkills();
    await expect(resolveInSandbox(sandbox, '.agents/skills/../../elsewhere/secret.txt', ['.agents/skills'])).rejects.toThrow(/outside the sandbox/);
    await expect(resolveInSandbox(sandbox, '../x', ['.agents/skills'])).rejects.toThrow('../x is outside the sandbox; use a path relative to the project root');
  });
});
