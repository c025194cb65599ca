import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer, type MockServer } from '../../src/llm/mock/server.js';
import { cliEnv, copyExamples, writeCliConfig } from './cliFolder.js';
import { passingJudgeAnswer } from './judgeAnswer.js';
import { beaconTurns, turnBeaconLines } from './turnBeacon.js';

export interface BatchFixture {
  root: string;
  mock: MockServer;
  /** The environment every evalflow process of the test gets (PATH, HOME, the state folder, a key for the mock). */
  env: NodeJS.ProcessEnv;
  /** How many candidate turns have started so far (each announces itself to the mock model). */
  startedTurns(): number;
  /** Resolves once `n` candidate turns have started. */
  waitForTurns(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A folder to run small batches in: one eval case `tiny` (one turn, no postconditions), the
 * example project and workflow, the scripted mock model (examiner ends at once, the judge
 * passes), and `command` candidates: `quick` answers at once, `slow` takes `slowSeconds`,
 * `sleeper` sleeps two minutes (until cancelled). They run contained, as every candidate does by default.
 */
export async function createBatchFixture(options: { slowSeconds?: number } = {}): Promise<BatchFixture> {
  const mock = await startMockServer({
    script: (request) => ({ text: request.model === 'fx-examiner' ? '<<END>>' : passingJudgeAnswer(['replies'], 'transcript') }),
  });
  const root = await mkdtemp(join(tmpdir(), 'evalflow-batch-'));
  await copyExamples(root);
  await writeFiles(join(root, 'eval_sets', 'tiny'), {
    'meta.yaml': 'id: tiny\nversion: v1\ntarget_workflow: default\ncategory: feature\npurpose: A batch fixture that only needs a reply.\nmax_turns: 1\ntags: []\n',
    'task.md': '# Task\n\n## Prompt\n\n> Say hello.\n\n## Scenario\n\nA user who wants a greeting.\n\n## Guidance\n\nEnd at once.\n',
    'rubric.md': '# Rubric\n\n## Hard requirements\n\n- The candidate replies.\n\n## Quality\n\n## Common failures\n',
    'env.yaml': 'setup_commands: []\npreconditions: []\npost_run_cleanup: []\npostconditions: []\n',
  });
  const script = (seconds: number) => ['#!/usr/bin/env bash', 'cat > /dev/null', ...turnBeaconLines(mock, TURN_BEACON), `sleep ${seconds}`, 'echo hello', ''].join('\n');
  await writeFiles(root, {
    'quick.sh': script(0),
    'slow.sh': script(options.slowSeconds ?? 3),
    'sleeper.sh': script(120),
  });
  for (const name of ['quick.sh', 'slow.sh', 'sleeper.sh']) await chmod(join(root, name), 0o755);
  await writeCliConfig(root, {
    candidates: { quick: './quick.sh', slow: './slow.sh', sleeper: './sleeper.sh' },
    mockUrl: mock.url,
    examiner: 'fx-examiner',
    judge: 'fx-judge',
    runsDir: 'out/runs',
    candidateBaseUrl: mock.url,
  });
  const startedTurns = () => beaconTurns(mock, TURN_BEACON).length;
  return {
    root,
    mock,
    env: cliEnv(root),
    startedTurns,
    async waitForTurns(n, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (startedTurns() < n) {
        if (Date.now() > deadline) throw new Error(`only ${startedTurns()} of ${n} candidate turns started within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async close() {
      await mock.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** The model name the candidates' turn beacons ask for. */
const TURN_BEACON = 'fx-turn';

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
}
