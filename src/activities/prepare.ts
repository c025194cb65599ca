import { mkdir } from 'node:fs/promises';
import { hostname, platform } from 'node:os';
import { expandVariables } from '../evalset/expandVariables.js';
import { localCaseDir } from '../run/caseFolder.js';
import { caseVariables } from '../run/runPaths.js';
import { createRunRecord } from '../run/runRecord.js';
import type { RunSpec } from '../run/runSpec.js';
import { readEnvChecklist, updateEnvChecklist, type EnvChecklist } from '../run/runFiles.js';
import { createStepLedger } from '../run/stepLedger.js';
import { runCommands } from '../sandbox/checks.js';
import { runStageChecks } from '../sandbox/stageChecks.js';
import { placeWorkflow } from '../sandbox/placeWorkflow.js';
import { ensureProjectRepo } from '../sandbox/projectRepo.js';
import { checkProtectedPathsExist } from '../sandbox/restoreProtected.js';
import { notePool, poolDirFor, poolSize } from '../sandbox/sandboxPool.js';
import { createSandbox, hideFromGit } from '../sandbox/sandboxRepo.js';
import { snapshotWorkflow, snapshotWorkflowAt, snapshotWorkflowFromUrl, type WorkflowSnapshot } from '../sandbox/workflowSnapshot.js';
import { looksLikeGitUrl } from '../sandbox/gitUrl.js';
import { transcriptAttempt } from '../transcript/attempts.js';
import { createRedactor } from '../transcript/redact.js';
import { checkExpectedItemsExist, listWorkflowItems, type WorkflowPlacement } from '../workflowUsage/index.js';
import { join } from 'node:path';
import { isolationOf } from '../containment/isolationOf.js';
import type { ActivityDeps } from './deps.js';
import { runViewsOf } from './runViews.js';
import { activityAttempt, temporalIds } from './temporalContext.js';

export interface PreparedRun {
  runDir: string;
  sandboxDir: string;
  workflowRev: string;
}

export interface SetupOutcome {
  aborted: boolean;
  reason?: string;
}

export function prepareActivities(deps: ActivityDeps) {
  const record = createRunRecord(deps);
  const steps = createStepLedger(deps.store, deps.now);
  return {
    /** Run directory, config.yaml, workflow snapshot, sandbox, env_checklist.yaml. Idempotent. */
    async prepareRun(spec: RunSpec): Promise<PreparedRun> {
      const paths = await record.open(spec, temporalIds());
      await mkdir(paths.homeDir, { recursive: true });
      const snapshot = await snapshotFor(spec, paths.workflowSnapshot, deps.stateDir);
      // An expected item missing from the snapshot is the case's mistake: said before anything runs.
      // Without a workflow (`workflow=none`) there is nothing to expect.
      if (spec.evalCase.expectWorkflow && !spec.noWorkflow) {
        checkExpectedItemsExist(spec.evalCase.expectWorkflow, await listWorkflowItems(snapshot.dir), join(spec.evalCase.dir, 'meta.yaml'));
      }
      const project = await ensureProjectRepo(spec.project, deps.stateDir, spec.projectCommit);
      // A protected path the project lacks is the case's mistake too; only here is the project known.
      if (spec.evalCase.env.protected) await checkProtectedPathsExist(project, spec.evalCase.env.protected, join(spec.evalCase.dir, 'env.yaml'));
      const poolDir = poolSize(deps.env) > 0 ? poolDirFor(deps.sandboxRoot, project.repoDir) : undefined;
      if (poolDir) await notePool(paths.poolNote, { poolDir, sandboxRoot: deps.sandboxRoot, repoDir: project.repoDir, rev: project.rev });
      await createSandbox(project.repoDir, paths.sandboxDir, project.rev, { sandboxRoot: deps.sandboxRoot, ...(poolDir ? { poolDir } : {}) });
      let placement: WorkflowPlacement | null = null;
      if (snapshot.folders.length > 0) {
        const placed = await placeWorkflow(paths.sandboxDir, snapshot.dir, spec.candidate.adapter, deps.candidates.workflowSupport(spec.candidate.adapter));
        await hideFromGit(paths.sandboxDir, placed.placed);
        placement = placed.placement;
        await deps.store.saveWorkflowPlacement(spec.runId, placement);
      }

      const cliVersion = await deps.candidates.version(spec.candidate);
      const checklist: EnvChecklist = {
        workflow_rev: snapshot.workflowRev,
        project_rev: project.rev,
        project_repo: project.repoDir,
        ...(project.url ? { project_url: project.url } : {}),
        ...(snapshot.url ? { workflow_url: snapshot.url } : {}),
        candidate_cli_version: cliVersion,
        host: { id: deps.hostId, hostname: hostname(), platform: platform(), node: process.version, evalflow: deps.version },
        setup_commands: [],
        preconditions: [],
        postconditions: [],
        workflow_placement: placement,
        isolation: isolationOf(spec.candidate),
      };
      const existing = await readEnvChecklist(paths.runDir);
      await updateEnvChecklist(paths.runDir, existing ? { ...checklist, ...pickResults(existing) } : checklist, checklist);
      await record.notePrepared(spec, { workflowRev: snapshot.workflowRev, workflowDirty: snapshot.dirty, workflowHash: snapshot.contentHash, projectRev: project.rev, cliVersion });
      return { runDir: paths.runDir, sandboxDir: paths.sandboxDir, workflowRev: snapshot.workflowRev };
    },

    /**
     * setup_commands, then preconditions; a failing setup command or hard precondition aborts
     * the run. Done once per generation: a resumed run keeps the setup it had.
     */
    async setupSandbox({ spec, generation = 0 }: { spec: RunSpec; generation?: number }): Promise<SetupOutcome> {
      const key = { runId: spec.runId, role: 'setup' as const, turn: 0, attempt: transcriptAttempt(generation, activityAttempt(), spec.resumes) };
      const prior = await steps.prior(key);
      if (prior.finished) return prior.finished as unknown as SetupOutcome;
      const paths = record.paths(spec);
      const vars = caseVariables(await localCaseDir(deps, spec.evalCase), paths);
      const env = { ...vars };
      const redact = createRedactor(deps.env);
      const views = await runViewsOf(deps, spec, paths);
      // Setup runs before any candidate exists; it alone may have the host's network (installing dependencies).
      const within = (network: 'loopback' | 'host') => ({ cwd: paths.sandboxDir, env, ...(views ? { view: views.check(network), home: paths.homeDir } : {}) });
      const setup = await runCommands(spec.evalCase.env.setup_commands.map((c) => expandVariables(c, vars)), within(spec.evalCase.env.setup_network ? 'host' : 'loopback'));
      const setupResults = setup.map((s) => ({ command: s.command, exit_code: s.exitCode, output: redact(s.output) }));
      const failedSetup = setup.find((s) => s.exitCode !== 0);
      const conditions = spec.evalCase.env.preconditions.map((condition) => ({ ...condition, check: expandVariables(condition.check, vars) }));
      const preconditions = failedSetup ? [] : (await runStageChecks(conditions, within('loopback'))).map((result) => ({ ...result, output: redact(result.output) }));
      await updateEnvChecklist(paths.runDir, { setup_commands: setupResults, preconditions });
      const hardFailure = preconditions.find((p) => !p.passed && p.severity === 'hard');
      const outcome: SetupOutcome = failedSetup
        ? { aborted: true, reason: `setup command failed (exit ${failedSetup.exitCode ?? 'timeout'}): ${failedSetup.command}` }
        : hardFailure
          ? { aborted: true, reason: `hard precondition failed: ${hardFailure.description} (${hardFailure.check})` }
          : { aborted: false };
      await steps.finish(key, null, outcome as unknown as Record<string, unknown>);
      return outcome;
    },
  };
}

/**
 * The run's workflow snapshot: the folders as they are, as of a commit (an arm), from this host's
 * mirror of a git URL at the commit the batch pinned, or none at all (`workflow=none`).
 */
async function snapshotFor(spec: RunSpec, target: string, stateDir: string): Promise<WorkflowSnapshot> {
  if (spec.noWorkflow) {
    await mkdir(target, { recursive: true });
    return { dir: target, workflowRev: 'none', dirty: false, contentHash: 'none', folders: [], files: 0 };
  }
  if (looksLikeGitUrl(spec.workflowDir)) return snapshotWorkflowFromUrl(spec.workflowDir, spec.workflowRev, stateDir, target);
  if (spec.workflowRev) return snapshotWorkflowAt(spec.workflowDir, spec.workflowRev, target);
  return snapshotWorkflow(spec.workflowDir, target);
}

function pickResults(checklist: EnvChecklist): Partial<EnvChecklist> {
  const restored = checklist.protected_restored ? { protected_restored: checklist.protected_restored } : {};
  return { setup_commands: checklist.setup_commands, preconditions: checklist.preconditions, postconditions: checklist.postconditions, ...restored };
}
