import { hostStageActivities, type HostStages } from '../../src/activities/hostStages.js';
import type { Activities } from '../../src/activities/index.js';
import type { RunOutcome } from '../../src/run/runOutcome.js';
import type { RunSpec } from '../../src/run/runSpec.js';

/** Stands in for a stage's work: told which stage (and, for record, what it is handed), returns what the stage returns. */
export type StubStage = <T>(name: string, value: T, input?: unknown) => Promise<T>;

/**
 * The activities of one run on host `hostId` with every stage's work replaced by `stage`:
 * prepare, setup, examiner (turn 1; turn 2 ends at once), candidate, verify, judge, cleanup,
 * record. The host is claimed as evalflow's own worker claims it (its own, by `claimHost`), and the host
 * stages inside a workflow task refuse on another host, as evalflow's do.
 */
export function stubRunActivities(hostId: string, stage: StubStage): Partial<Activities> {
  const outcome = (spec: RunSpec): RunOutcome => ({ runId: spec.runId, caseId: spec.evalCase.id, status: 'completed', result: 'pass', overall: 4, runDir: '/nowhere', anomalies: [] });
  const hostStages = {
    prepareRun: () => stage('prepareRun', { runDir: '/nowhere', sandboxDir: '/nowhere', workflowRev: 'stub' }),
    setupSandbox: () => stage('setupSandbox', { aborted: false }),
    verifyRun: () => stage('verifyRun', []),
    cleanupRun: () => stage('cleanupRun', { anomalies: [], parked: false }),
    recordRun: (input: { spec: RunSpec }) => stage('recordRun', outcome(input.spec), input),
  } as unknown as HostStages;
  return {
    markRunFailed: async () => true,
    ...hostStages,
    ...hostStageActivities(hostId, hostStages),
    examinerTurn: (async ({ turn }: { turn: number }) =>
      turn === 1 ? stage('examinerTurn', { message: 'go', ended: false, attempt: 1, anomalies: [] }) : { message: '<<END>>', ended: true, attempt: 1, anomalies: [] }) as unknown as Activities['examinerTurn'],
    candidateTurn: (async () => stage('candidateTurn', { session: { id: 's' }, attempt: 1, anomalies: [] })) as unknown as Activities['candidateTurn'],
    judgeRun: (async () => stage('judgeRun', { verdict: { score: { result: 'pass' } }, attempt: 1, anomalies: [] })) as unknown as Activities['judgeRun'],
  };
}

/** A run of a stub case for the stub activities (nothing in it is read but its ids and turns). */
export function stubRunSpec(runId: string, overrides: Partial<RunSpec> = {}): RunSpec {
  return {
    runId,
    evalCase: { id: 'stub-case', version: '1', hash: 'h', dir: '/nowhere', maxTurns: 2, targetWorkflow: '', category: 'stub', task: { prompt: '', scenario: '', guidance: '' }, rubric: { hard: [], quality: [], commonFailures: [] }, env: { setup_commands: [], preconditions: [], post_run_cleanup: [], postconditions: [] } },
    candidate: { name: 'stub', adapter: 'command', args: [], env: {} },
    turnTimeoutS: 60,
    runsDir: '/nowhere-runs',
    ...overrides,
  } as unknown as RunSpec;
}
