import { existsSync } from 'node:fs';
import { link, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { FormatError, InternalError } from '../../src/errors.js';
import { readEnvChecklist, updateEnvChecklist, writeYamlFile, type EnvChecklist } from '../../src/run/runFiles.js';

const runDir = () => mkdtemp(join(tmpdir(), 'evalflow-runfiles-'));

function aChecklist(overrides: Partial<EnvChecklist> = {}): EnvChecklist {
  return {
    workflow_rev: 'abc123',
    project_rev: 'def456',
    project_repo: '/repos/project',
    workflow_placement: null,
    candidate_cli_version: null,
    host: { id: 'h1', hostname: 'box', platform: 'linux', node: 'v20', evalflow: '0.1.0' },
    setup_commands: [],
    preconditions: [],
    postconditions: [],
    ...overrides,
  };
}

const aCheck = (description: string, passed: boolean) => ({
  description,
  check: 'true',
  severity: 'hard' as const,
  passed,
  exit_code: passed ? 0 : 1,
  output: '',
  duration_ms: 5,
});

describe('writeYamlFile', () => {
  it('writes YAML that reads back, leaving no temp file', async () => {
    const dir = await runDir();
    const path = join(dir, 'score.yaml');
    const value = { result: 'pass', overall: 4.5, long: 'x'.repeat(300), list: [{ item: 'a', met: true }] };
    await writeYamlFile(path, value);
    expect(parseYaml(await readFile(path, 'utf8'))).toEqual(value);
    expect(await readdir(dir)).toEqual(['score.yaml']);
  });

  it('replaces the file instead of rewriting it in place', async () => {
    const dir = await runDir();
    const path = join(dir, 'config.yaml');
    await writeYamlFile(path, { version: 1 });
    // A reader holding the old file (here a second link to it) still sees the old content whole.
    await link(path, join(dir, 'reader-view'));
    await writeYamlFile(path, { version: 2 });
    expect(parseYaml(await readFile(path, 'utf8'))).toEqual({ version: 2 });
    expect(parseYaml(await readFile(join(dir, 'reader-view'), 'utf8'))).toEqual({ version: 1 });
  });

  it('survives concurrent writers of the same file', async () => {
    const dir = await runDir();
    const path = join(dir, 'env_checklist.yaml');
    await Promise.all(Array.from({ length: 12 }, (_, i) => writeYamlFile(path, { writer: i, body: 'y'.repeat(20_000) })));
    const final = parseYaml(await readFile(path, 'utf8')) as { writer: number; body: string };
    expect(final.body).toHaveLength(20_000);
    expect(await readdir(dir)).toEqual(['env_checklist.yaml']);
  });
});

describe('readEnvChecklist', () => {
  it('returns null when the run has no checklist yet', async () => {
    expect(await readEnvChecklist(await runDir())).toBeNull();
  });

  it('fills defaults for lists a stage has not written yet', async () => {
    const dir = await runDir();
    const { setup_commands: _s, preconditions: _p, postconditions: _q, ...partial } = aChecklist();
    await writeYamlFile(join(dir, 'env_checklist.yaml'), partial);
    expect(await readEnvChecklist(dir)).toEqual(aChecklist());
  });

  it('names the file and the field when the checklist does not match its schema', async () => {
    const dir = await runDir();
    const path = join(dir, 'env_checklist.yaml');
    await writeYamlFile(path, { ...aChecklist(), workflow_rev: 42 });
    const err = await readEnvChecklist(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect((err as Error).message).toBe(`${path}: workflow_rev: Invalid input: expected string, received number`);
  });

  it('names the file when it is not YAML at all', async () => {
    const dir = await runDir();
    const path = join(dir, 'env_checklist.yaml');
    await writeFile(path, 'workflow_rev: [unclosed\n');
    const err = await readEnvChecklist(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect((err as Error).message).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid YAML: `));
  });
});

describe('updateEnvChecklist', () => {
  it('merges a patch into the file on disk and keeps the other fields', async () => {
    const dir = await runDir();
    await writeYamlFile(join(dir, 'env_checklist.yaml'), aChecklist({ preconditions: [aCheck('pre', true)] }));
    const next = await updateEnvChecklist(dir, { postconditions: [aCheck('post', false)], candidate_cli_version: '2.0.1' });
    expect(next).toEqual(aChecklist({ preconditions: [aCheck('pre', true)], postconditions: [aCheck('post', false)], candidate_cli_version: '2.0.1' }));
    expect(await readEnvChecklist(dir)).toEqual(next);
  });

  it('starts from the given base instead of the file', async () => {
    const dir = await runDir();
    await writeYamlFile(join(dir, 'env_checklist.yaml'), aChecklist({ workflow_rev: 'old' }));
    const next = await updateEnvChecklist(dir, { project_rev: 'p2' }, aChecklist({ workflow_rev: 'new' }));
    expect(next.workflow_rev).toBe('new');
    expect(await readEnvChecklist(dir)).toMatchObject({ workflow_rev: 'new', project_rev: 'p2' });
  });

  it('rejects a patch that breaks the schema, naming the file, and leaves the file alone', async () => {
    const dir = await runDir();
    const path = join(dir, 'env_checklist.yaml');
    await writeYamlFile(path, aChecklist());
    const err = await updateEnvChecklist(dir, { preconditions: [{ ...aCheck('pre', true), severity: 'fatal' as 'hard' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect((err as Error).message).toContain(`${path}: preconditions.0.severity: `);
    expect(await readEnvChecklist(dir)).toEqual(aChecklist());
  });

  it('fails with an evalflow error when there is no checklist to update', async () => {
    const dir = await runDir();
    const err = await updateEnvChecklist(dir, { project_rev: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalError);
    expect((err as Error).message).toBe(`env_checklist.yaml missing in ${dir}`);
    expect(existsSync(join(dir, 'env_checklist.yaml'))).toBe(false);
  });
});
