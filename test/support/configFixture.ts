import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadSettings, type Settings } from '../../src/config.js';

/** What the config tests have to work with: fixtures written to temp dirs, and one config file with every section. */

export const ADAPTERS = ['builtin', 'command', 'claude-code', 'codex'] as const;

/** Writes path→content fixtures into a fresh temp dir and returns it. */
export async function fixture(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'evalflow-config-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

export async function settingsFor(config: string, env: NodeJS.ProcessEnv = {}): Promise<{ root: string; settings: Settings }> {
  const root = await fixture({ 'evalflow.config.yaml': config });
  return { root, settings: await loadSettings(root, env) };
}

export async function loadError(promise: Promise<unknown>): Promise<Error> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof Error)) throw new Error('expected loadSettings to fail');
  return err;
}

export const FULL_CONFIG = `
project: ./app
workflow_dir: wf
eval_sets: cases
runs_dir: out/runs
candidates:
  claude-sonnet:
    adapter: claude-code
    model: sonnet
    args: [--verbose]
    env: { FOO: bar }
    api_key_env: ANTHROPIC_API_KEY
    turn_timeout_s: 120
examiner:
  model: exam-model
  base_url: http://127.0.0.1:9000/v1
judge:
  model: judge-model
  api_key_env: JUDGE_KEY
defaults:
  candidate: claude-sonnet
  parallelism: 4
  runs_per_case: 3
  turn_timeout_s: 600
store:
  pglite_dir: data/pg
  schema: evalflow_test
temporal:
  address: 127.0.0.1:7777
  namespace: evals
  port: 7300
  ui_port: 8300
`;
