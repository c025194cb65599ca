import { relative, resolve } from 'node:path';
import { checkCandidateCanStart, knownAdapterNames } from '../candidates/index.js';
import { loadSettings, resolveCandidate } from '../config.js';
import { loadEvalBank } from '../evalset/index.js';
import { uncommittedChanges } from '../sandbox/projectRepo.js';
import { checkLocalFolders } from './checkLocalFolders.js';
import { executeBatch, formatRunProblems, formatRunTable } from './executeBatch.js';
import type { CommandIo } from './io.js';
import { checkJudging, judgingOverrides, type JudgingFlags } from './judging.js';
import { openRuntime } from './runtime.js';

/** The flags of `evalflow run`; the judging ones (--review, --judges, --allow-self-judge) come from `JudgingFlags`. */
export interface RunOptions extends JudgingFlags {
  paths?: string[];
  config?: string;
  only?: string;
  candidate?: string;
  candidateModel?: string;
  project?: string;
  workflowDir?: string;
  runsDir?: string;
  runsPerCase?: number;
  parallelism?: number;
  /** commander's --no-worker gives `worker: false`. */
  worker?: boolean;
}

/**
 * `evalflow run`: validates the selected cases, then runs each (k times) as a durable
 * workflow and prints one table row per run. Exit 0 when every run completed (pass or fail).
 */
export async function run(options: RunOptions, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, {
    ...(options.config ? { configPath: options.config } : {}),
    ...(options.project ? { project: options.project } : {}),
    ...(options.workflowDir ? { workflowDir: options.workflowDir } : {}),
    ...(options.runsDir ? { runsDir: options.runsDir } : {}),
    ...(options.candidate ? { candidate: options.candidate } : {}),
    ...(options.candidateModel ? { candidateModel: options.candidateModel } : {}),
    ...judgingOverrides(options),
  });
  const paths = options.paths?.length ? options.paths.map((p) => resolve(io.cwd, p)) : [settings.evalSets];
  const only = options.only?.split(',').map((s) => s.trim()).filter(Boolean);
  const bank = await loadEvalBank(paths, { cwd: io.cwd, ...(only ? { only } : {}) });
  if (bank.problems.length > 0) {
    for (const problem of bank.problems) io.err(`error: ${problem}`);
    io.err(`nothing was run: fix the problems above (\`evalflow validate\` checks a bank without running it)`);
    return 1;
  }
  if (bank.cases.length === 0) {
    io.err(`error: no eval cases found under ${paths.join(', ')}`);
    return 1;
  }
  const candidate = resolveCandidate(settings, settings.defaultCandidate, knownAdapterNames, io.env);
  checkJudging(settings, candidate, io);
  // Workers of a cluster may have these folders where this machine does not.
  const folderProblems = options.worker !== false && !settings.temporal.address ? await checkLocalFolders(settings) : [];
  if (folderProblems.length > 0) {
    for (const problem of folderProblems) io.err(`error: ${problem}`);
    return 1;
  }
  // Runs on this machine would each fail with the same message; say it once, up front.
  if (options.worker !== false && !settings.temporal.address) await checkCandidateCanStart(candidate, io.env, { cwd: settings.project });
  await warnAboutUncommittedChanges(settings.project, io);
  const runtime = await openRuntime(settings, io, { worker: options.worker === false ? false : 'auto' });
  try {
    const report = await executeBatch(
      settings,
      runtime,
      {
        paths,
        ...(only ? { only } : {}),
        cases: bank.cases,
        candidate,
        runsPerCase: options.runsPerCase ?? settings.runsPerCase,
        parallelism: options.parallelism ?? settings.parallelism,
      },
      io,
    );
    io.out('');
    for (const line of formatRunTable(report.runs, io.cwd)) io.out(line);
    const problems = formatRunProblems(report.runs);
    if (problems.length > 0) {
      io.out('');
      for (const line of problems) io.out(line);
    }
    const passed = report.runs.filter((r) => r.result === 'pass').length;
    const judged = report.runs.filter((r) => r.result !== null).length;
    io.out('');
    io.out(`${report.runs.length} runs: ${passed}/${judged} passed${judged < report.runs.length ? `, ${report.runs.length - judged} not judged` : ''} (batch ${report.batchId})`);
    if (runtime.temporal.uiUrl) io.out(`Web UI: ${runtime.temporal.uiUrl} (search EvalBatch="${report.batchId}")`);
    return report.allCompleted ? 0 : 1;
  } finally {
    await runtime.close();
  }
}

/** Sandboxes start from the project's last commit: work not yet committed is silently absent. */
async function warnAboutUncommittedChanges(project: string, io: CommandIo): Promise<void> {
  const changed = await uncommittedChanges(project);
  if (!changed?.length) return;
  const shown = changed.slice(0, 3).join(', ') + (changed.length > 3 ? ', …' : '');
  io.err(
    `warning: project ${relative(io.cwd, project) || '.'} has ${changed.length} uncommitted change${changed.length === 1 ? '' : 's'} (${shown}); ` +
      'sandboxes start from its last commit without them: commit them to evaluate them',
  );
}
