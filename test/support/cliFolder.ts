import { cp, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { TestTemporal } from './temporalServer.js';

const REPO = resolve(import.meta.dirname, '../..');

/** Copies examples/project and examples/workflow into `root`, where `writeCliConfig` points. */
export async function copyExamples(root: string): Promise<void> {
  await cp(join(REPO, 'examples/project'), join(root, 'project'), { recursive: true });
  await cp(join(REPO, 'examples/workflow'), join(root, 'workflow'), { recursive: true });
}

export interface CliConfig {
  /** Each `command` candidate's name and the script it runs, relative to the folder. */
  candidates: Record<string, string>;
  /** The scripted mock model server, the examiner's and the judge's endpoint. */
  mockUrl: string;
  /** The model names the mock answers as examiner and as judge. */
  examiner: string;
  judge: string;
  runsDir?: string;
  /** The candidates' own model endpoint (`base_url`), relayed into their sandboxes: how a script reaches the mock. */
  candidateBaseUrl?: string;
  /** Further top-level lines: the settings a test is about. */
  extra?: string[];
}

/** Writes a config file in `root` (evalflow.config.yaml unless `file`): the copied examples, `command` candidates, examiner and judge on the mock. */
export async function writeCliConfig(root: string, config: CliConfig, file = 'evalflow.config.yaml'): Promise<void> {
  const lines = [
    'project: project',
    'workflow_dir: workflow',
    ...(config.runsDir ? [`runs_dir: ${config.runsDir}`] : []),
    'candidates:',
    ...Object.entries(config.candidates).flatMap(([name, script]) => [`  ${name}:`, '    adapter: command', `    args: [${script}]`, ...(config.candidateBaseUrl ? [`    base_url: ${config.candidateBaseUrl}`] : [])]),
    'examiner:',
    `  model: ${config.examiner}`,
    `  base_url: ${config.mockUrl}`,
    'judge:',
    `  model: ${config.judge}`,
    `  base_url: ${config.mockUrl}`,
    ...(config.extra ?? []),
    '',
  ];
  await writeFile(join(root, file), lines.join('\n'));
}

/**
 * The environment of an evalflow command run in `root`: its state and sandboxes inside `root`
 * (never the user's), a key for the mock, and the test's Temporal dev server when given.
 */
export function cliEnv(root: string, temporal?: TestTemporal): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    OPENAI_API_KEY: 'sk-test',
    EVALFLOW_HOME: join(root, '.evalflow'),
    EVALFLOW_SANDBOX_ROOT: join(root, 'sandboxes'),
    // Look-ups open the store themselves: no store service outlives the test.
    EVALFLOW_STORE_LINGER: '0',
    ...(temporal ? { EVALFLOW_TEMPORAL_PORT: String(temporal.port), EVALFLOW_TEMPORAL_UI_PORT: String(temporal.uiPort) } : {}),
  };
}
