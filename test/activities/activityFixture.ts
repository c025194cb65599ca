import { join } from 'node:path';
import { createActivities, type ActivityDeps } from '../../src/activities/index.js';
import type { Candidate, CandidateSpec } from '../../src/candidates/adapter.js';
import type { LlmClient } from '../../src/llm/port.js';
import type { RunSpec } from '../../src/run/runSpec.js';
import { openStore, type Store } from '../../src/store/index.js';
import { createRepo, tempDir, writeFiles } from '../sandbox/sandboxFixture.js';
import { FAKE_WORKFLOW_SUPPORT } from '../support/fakeWorkflowSupport.js';

/**
 * The activities over real parts (PGlite in memory, a git project, a workflow folder) with
 * the candidate, the model and the clock as test doubles the test can swap at any time.
 */
export interface ActivityFixture {
  root: string;
  store: Store;
  hostEnv: NodeJS.ProcessEnv;
  /** What the next candidate turn runs. */
  candidate: Candidate;
  /** The examiner's and judge's model. */
  llm: LlmClient;
  /** Wraps the store the activities see (e.g. to fail a write); identity by default. */
  wrapStore: (store: Store) => Store;
  /** Advances one second per call, so repeated records get different times. */
  now: () => Date;
  activities(): ReturnType<typeof createActivities>;
  /** A run spec whose prepareRun has run: run dir, worktree sandbox, checklist, store row. */
  preparedSpec(candidate?: Partial<CandidateSpec>, evalCase?: Partial<RunSpec['evalCase']>, spec?: Partial<RunSpec>): Promise<RunSpec>;
  close(): Promise<void>;
}

export async function createActivityFixture(hostEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH }): Promise<ActivityFixture> {
  const root = await tempDir('evalflow-activities-');
  const project = await createRepo({ 'README.md': 'hello\n' }, join(root, 'project'));
  await writeFiles(join(root, 'workflow'), { 'rules/r.md': 'a rule\n' });
  const store = await openStore({});
  let runs = 0;
  let tick = Date.parse('2026-01-01T00:00:00Z');
  const fixture: ActivityFixture = {
    root,
    store,
    hostEnv,
    candidate: { runTurn: () => Promise.reject(new Error('no candidate set')) },
    llm: { chat: () => Promise.reject(new Error('no model set')) },
    wrapStore: (s) => s,
    now: () => new Date((tick += 1000)),
    activities() {
      const deps: ActivityDeps = {
        store: fixture.wrapStore(store),
        hostId: 'test-host',
        stateDir: join(root, '.evalflow'),
        sandboxRoot: join(root, 'sandboxes'),
        llmFor: () => fixture.llm,
        candidates: { create: () => fixture.candidate, workflowSupport: () => FAKE_WORKFLOW_SUPPORT, version: async () => null },
        env: hostEnv,
        log: { info: () => undefined, warn: () => undefined },
        now: () => fixture.now(),
        version: 'test',
      };
      return createActivities(deps);
    },
    async preparedSpec(candidate = {}, evalCase = {}, overrides = {}) {
      runs += 1;
      const spec: RunSpec = {
        runId: `run-activity-test@20260101T0000${String(runs).padStart(2, '0')}`,
        batchId: 'batch-test',
        evalCase: {
          id: 'activity-test',
          version: 'v1',
          hash: 'h',
          dir: join(root, 'case'),
          maxTurns: 1,
          targetWorkflow: 't',
          category: 'c',
          task: { prompt: 'Do it.', scenario: 's', guidance: 'g' },
          rubric: { hard: ['It is done'], quality: [], commonFailures: [] },
          env: { setup_commands: [], preconditions: [], post_run_cleanup: [], postconditions: [] },
          ...evalCase,
        },
        candidate: { name: 'fake', adapter: 'fake', args: [], env: {}, ...candidate },
        examiner: { model: 'e' },
        judge: { model: 'j' },
        project,
        workflowDir: join(root, 'workflow'),
        runsDir: join(root, 'runs'),
        turnTimeoutS: 60,
        createdAt: '2026-01-01T00:00:00Z',
        ...overrides,
      };
      await fixture.activities().prepareRun(spec);
      return spec;
    },
    async close() {
      await store.close();
    },
  };
  return fixture;
}
