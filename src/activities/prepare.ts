import { mkdir } from 'node:fs/promises';
import { hostname, platform } from 'node:os';
import { join } from 'node:path';
import { expandVariables } from '../evalset/expandVariables.js';
import type { RunSpec } from '../run/runSpec.js';
import { readEnvChecklist, updateEnvChecklist, writeYamlFile, type EnvChecklist, type RunConfigFile } from '../run/runFiles.js';
import { runCheck, runCommands } from '../sandbox/checks.js';
import { linkWorkflow } from '../sandbox/linkWorkflow.js';
import { ensureProjectRepo } from '../sandbox/projectRepo.js';
import { createWorktree, hideFromGit } from '../sandbox/worktree.js';
import { snapshotWorkflow } from '../sandbox/workflowSnapshot.js';
import { createRedactor } from '../transcript/redact.js';
import type { ActivityDeps } from './deps.js';
import { heartbeatWhile, temporalIds } from './temporalContext.js';
import { caseVariables, runPaths } from './runPaths.js';

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
  return {
    /** Run directory, config.yaml, workflow snapshot, git worktree sandbox, env_checklist.yaml. Idempotent. */
    async prepareRun(spec: RunSpec): Promise<PreparedRun> {
      const paths = runPaths(spec, deps);
      await mkdir(paths.runDir, { recursive: true });
      await mkdir(paths.homeDir, { recursive: true });
      const ids = temporalIds();
      await deps.store.upsertRun({
        run_id: spec.runId,
        batch_id: spec.batchId,
        case_id: spec.evalCase.id,
        case_version: spec.evalCase.version,
        case_hash: spec.evalCase.hash,
        candidate: spec.candidate.name,
        candidate_adapter: spec.candidate.adapter,
        models: {
          examiner: spec.examiner.model,
          judge: spec.judge.model,
          ...(spec.candidate.model ? { candidate: spec.candidate.model } : {}),
        },
        status: 'running',
        run_dir: paths.runDir,
        temporal_workflow_id: ids.workflowId,
        temporal_run_id: ids.runId,
        config: runConfig(spec) as unknown as Record<string, unknown>,
        spec: spec as unknown as Record<string, unknown>,
        started_at: deps.now().toISOString(),
      });
      await writeYamlFile(join(paths.runDir, 'config.yaml'), runConfig(spec));

      const snapshot = await snapshotWorkflow(spec.workflowDir, paths.workflowSnapshot);
      const project = await ensureProjectRepo(spec.project, deps.stateDir);
      await createWorktree(project.repoDir, paths.sandboxDir, project.rev);
      const placed = await linkWorkflow(paths.sandboxDir, snapshot.dir, deps.candidates.workflowLinks(spec.candidate.adapter));
      await hideFromGit(paths.sandboxDir, paths.excludesFile, placed);

      const checklist: EnvChecklist = {
        workflow_rev: snapshot.workflowRev,
        project_rev: project.rev,
        project_repo: project.repoDir,
        candidate_cli_version: await deps.candidates.version(spec.candidate),
        host: { id: deps.hostId, hostname: hostname(), platform: platform(), node: process.version, evalflow: deps.version },
        setup_commands: [],
        preconditions: [],
        postconditions: [],
      };
      const existing = await readEnvChecklist(paths.runDir);
      await updateEnvChecklist(paths.runDir, existing ? { ...checklist, ...pickResults(existing) } : checklist, checklist);
      await deps.store.updateRun(spec.runId, { workflow_rev: snapshot.workflowRev });
      return { runDir: paths.runDir, sandboxDir: paths.sandboxDir, workflowRev: snapshot.workflowRev };
    },

    /** setup_commands, then preconditions; a failing setup command or hard precondition aborts the run. */
    async setupSandbox(spec: RunSpec): Promise<SetupOutcome> {
      const paths = runPaths(spec, deps);
      const vars = caseVariables(spec, paths);
      const env = { ...vars };
      const redact = createRedactor(deps.env);
      const setup = await heartbeatWhile(() =>
        runCommands(spec.evalCase.env.setup_commands.map((c) => expandVariables(c, vars)), { cwd: paths.sandboxDir, env }),
      );
      const setupResults = setup.map((s) => ({ command: s.command, exit_code: s.exitCode, output: redact(s.output) }));
      const failedSetup = setup.find((s) => s.exitCode !== 0);
      const preconditions = [];
      if (!failedSetup) {
        for (const condition of spec.evalCase.env.preconditions) {
          const result = await heartbeatWhile(() =>
            runCheck({ ...condition, check: expandVariables(condition.check, vars) }, { cwd: paths.sandboxDir, env }),
          );
          preconditions.push({ ...result, output: redact(result.output) });
        }
      }
      await updateEnvChecklist(paths.runDir, { setup_commands: setupResults, preconditions });
      if (failedSetup) {
        return { aborted: true, reason: `setup command failed (exit ${failedSetup.exitCode ?? 'timeout'}): ${failedSetup.command}` };
      }
      const hardFailure = preconditions.find((p) => !p.passed && p.severity === 'hard');
      if (hardFailure) return { aborted: true, reason: `hard precondition failed: ${hardFailure.description} (${hardFailure.check})` };
      return { aborted: false };
    },
  };
}

function pickResults(checklist: EnvChecklist): Partial<EnvChecklist> {
  return { setup_commands: checklist.setup_commands, preconditions: checklist.preconditions, postconditions: checklist.postconditions };
}

function runConfig(spec: RunSpec): RunConfigFile {
  return {
    run_id: spec.runId,
    batch_id: spec.batchId,
    attempt_index: spec.k ?? null,
    case: { id: spec.evalCase.id, version: spec.evalCase.version, hash: spec.evalCase.hash, dir: spec.evalCase.dir },
    candidate: {
      name: spec.candidate.name,
      adapter: spec.candidate.adapter,
      model: spec.candidate.model ?? null,
      args: spec.candidate.args,
      env_names: Object.keys(spec.candidate.env).sort(),
      base_url: spec.candidate.baseUrl ?? null,
      api_key_env: spec.candidate.apiKeyEnv ?? null,
    },
    examiner: { model: spec.examiner.model, base_url: spec.examiner.baseUrl ?? null, adapter: spec.examiner.adapter ?? null },
    judge: { model: spec.judge.model, base_url: spec.judge.baseUrl ?? null, adapter: spec.judge.adapter ?? null },
    project: spec.project,
    workflow_dir: spec.workflowDir,
    max_turns: spec.evalCase.maxTurns,
    turn_timeout_s: spec.turnTimeoutS,
    created_at: spec.createdAt,
  };
}
