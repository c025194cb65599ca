import { agentCacheDir } from '../candidates/agentCache.js';
import { parseEndpoint } from '../containment/endpoint.js';
import { candidateView, checkView, isolationOf, privatePlaces, whyCannotContain, type SandboxView } from '../containment/index.js';
import { SandboxError } from '../errors.js';
import { dirname } from 'node:path';
import { localCaseDir } from '../run/caseFolder.js';
import { readEnvChecklist } from '../run/runFiles.js';
import type { RunPaths } from '../run/runPaths.js';
import type { RunSpec } from '../run/runSpec.js';
import { historyBaseDir } from '../sandbox/historyBase.js';
import { localPathOfSource } from '../sandbox/gitUrl.js';
import type { ActivityDeps } from './deps.js';

/** What a run's processes see of this host: the candidate's view, and a check's. */
export interface RunViews {
  candidate: SandboxView;
  check(network: 'loopback' | 'host'): SandboxView;
}

/**
 * The run's views when its candidate is contained (`isolation: sandbox`), else null (it runs
 * as the worker's user: `none`, or a spec of an earlier version). A host that cannot contain
 * it fails the stage as ours, before anything of the candidate runs.
 */
export async function runViewsOf(deps: ActivityDeps, spec: RunSpec, paths: RunPaths): Promise<RunViews | null> {
  if (isolationOf(spec.candidate) === 'none') return null;
  const why = whyCannotContain();
  if (why) throw new SandboxError(`${spec.runId}: isolation sandbox: ${why}`);
  const checklist = await readEnvChecklist(paths.runDir);
  // A remote URL names nothing on this host; a file:// one names the repository, later commits and all.
  const [project, workflowDir] = [localPathOfSource(spec.project), localPathOfSource(spec.workflowDir)];
  const hidden = privatePlaces({
    env: deps.env,
    stateDir: deps.stateDir,
    sandboxRoot: deps.sandboxRoot,
    ...(deps.workspaceDir ? { workspaceDir: deps.workspaceDir } : {}),
    runsDir: dirname(paths.runDir),
    ...(project ? { project } : {}),
    ...(checklist ? { projectRepo: checklist.project_repo } : {}),
    ...(workflowDir ? { workflowDir } : {}),
    caseDir: spec.evalCase.dir,
  });
  const agents = agentCacheDir(deps.env);
  const readable = [
    // The workflow snapshot the sandbox links to, read-only.
    paths.workflowSnapshot,
    // The case's history: what the sandbox's git borrows its objects from, and nothing more.
    ...(checklist ? [historyBaseDir(deps.sandboxRoot, checklist.project_repo, checklist.project_rev)] : []),
    ...(agents ? [agents] : []),
  ];
  const caseDir = await localCaseDir(deps, spec.evalCase);
  const base = { hidden, sandboxDir: paths.sandboxDir, homeDir: paths.homeDir, readable };
  return {
    candidate: { ...candidateView(base), allow: (spec.candidate.networkAllow ?? []).map(parseEndpoint) },
    check: (network) => checkView({ ...base, caseDir, runDir: paths.runDir, network }),
  };
}

