import { chmod, cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startMockServer, type MockServer } from '../../src/llm/mock/server.js';
import type { MockRequest } from '../../src/llm/mock/types.js';
import { openStore, type Store } from '../../src/store/index.js';
import { REFERENCE_SOLUTIONS, solverScript } from '../evalset/referenceSolutions.js';
import { cliEnv, copyExamples, writeCliConfig } from './cliFolder.js';
import { startCli, type CliProcess } from './cliProcess.js';
import { passingJudgeAnswer } from './judgeAnswer.js';
import { dropSchema, postgresUrl, randomSchema } from './postgres.js';
import { startTestTemporal, type TestTemporal } from './temporalServer.js';

const REPO = resolve(import.meta.dirname, '../..');

/** The judge says pass with every hard item met; the hard postconditions decide the rest. */
const PASS = passingJudgeAnswer([1, 2, 3, 4, 5].map((i) => `item ${i}`));

/** A CLI folder whose batches the real server, PostgreSQL and separate `evalflow worker` processes run. */
export interface SolverFolder {
  temporal: TestTemporal;
  root: string;
  /** What the CLI and every worker run with: they share the server and a PostgreSQL schema. */
  env: NodeJS.ProcessEnv;
  /** The store on that schema. */
  store: Store;
  /** An `evalflow worker` in the folder, once it says it is on; killed by `close` if still running. */
  startWorker(): Promise<CliProcess>;
  close(): Promise<void>;
}

/**
 * A folder with `cases` copied from eval_sets and one `command` candidate per entry of
 * `candidates` (name → the cases it breaks; it writes every other case's reference solution);
 * the mock examines (it ends at once) and judges (a pass). `name` tells its models, temp folder
 * and host id apart.
 */
export async function startSolverFolder(name: string, cases: readonly string[], candidates: Record<string, string[]>): Promise<SolverFolder> {
  const workers: CliProcess[] = [];
  const opened: { temporal?: TestTemporal; mock?: MockServer; root?: string; schema?: string; store?: Store } = {};
  async function close(): Promise<void> {
    for (const worker of workers) worker.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await opened.store?.close();
    await opened.mock?.close();
    await opened.temporal?.stop();
    if (opened.schema) await dropSchema(opened.schema);
    if (opened.root) await rm(opened.root, { recursive: true, force: true });
  }
  try {
    const temporal = (opened.temporal = await startTestTemporal());
    const mock = (opened.mock = await startMockServer({ script: (request: MockRequest) => ({ text: request.model === `${name}-judge` ? PASS : '<<END>>' }) }));
    const root = (opened.root = await mkdtemp(join(tmpdir(), `evalflow-${name}-`)));
    for (const id of cases) await cp(join(REPO, 'eval_sets', id), join(root, 'eval_sets', id), { recursive: true });
    await copyExamples(root);
    const solutions = Object.fromEntries(cases.map((id) => [id, REFERENCE_SOLUTIONS[id]]));
    for (const [candidate, breaks] of Object.entries(candidates)) {
      await writeFile(join(root, `${candidate}.cjs`), solverScript(solutions, breaks));
      await chmod(join(root, `${candidate}.cjs`), 0o755);
    }
    const paths = Object.fromEntries(Object.keys(candidates).map((candidate) => [candidate, `./${candidate}.cjs`]));
    await writeCliConfig(root, { candidates: paths, mockUrl: mock.url, examiner: `${name}-examiner`, judge: `${name}-judge` });
    const schema = (opened.schema = randomSchema());
    const env = { ...cliEnv(root), TEMPORAL_ADDRESS: temporal.address, DATABASE_URL: await postgresUrl(), EVALFLOW_STORE_SCHEMA: schema, EVALFLOW_HOST_ID: `${name}-host` };
    const store = (opened.store = await openStore({ databaseUrl: env.DATABASE_URL, schema }));
    return {
      temporal,
      root,
      env,
      store,
      async startWorker() {
        const worker = startCli(['worker'], { cwd: root, env });
        workers.push(worker);
        await worker.waitForLine(/^worker on /, 120_000);
        return worker;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
