import { relative, resolve } from 'node:path';
import { knownAdapterNames } from '../candidates/index.js';
import { loadSettings, resolveCandidate } from '../config.js';
import { checkIsolation } from '../cli/checks/checkIsolation.js';
import { loadEvalBank } from '../evalset/index.js';
import { loadMockScript } from '../llm/mock/scriptFile.js';
import { startMockServer } from '../llm/mock/server.js';
import { resolveArmFlags } from '../cli/armFlags.js';
import { reportArms } from '../cli/output/armsReport.js';
import { executeBatch } from '../cli/batch/start.js';
import { formatRunTable } from '../cli/output/runTable.js';
import type { CommandIo } from '../cli/io.js';
import { openRuntime } from '../cli/runtime.js';
import { packageRoot } from '../packageRoot.js';

const PACKAGE_ROOT = packageRoot();
const SCRIPT = resolve(PACKAGE_ROOT, 'examples/mock/demo.yaml');

/**
 * `evalflow demo` (`npm run demo`): the five example cases end to end, fully offline, as an
 * A/B batch: each case once with the team's workflow (`with_workflow`) and once without any
 * (`no_workflow`), compared at the end. The examiner, the builtin candidate and the judge are
 * all played by the scripted mock model server on 127.0.0.1; everything else (Temporal, the
 * store, git sandboxes, checks) is real.
 */
export async function run(options: { runsDir?: string }, io: CommandIo): Promise<number> {
  const mock = await startMockServer({ script: await loadMockScript(SCRIPT) });
  io.err(`[mock LLM] scripted model server on ${mock.url} plays examiner, candidate and judge (${relative(io.cwd, SCRIPT)}); its answers are scripted, not a real model's`);
  const env: NodeJS.ProcessEnv = {
    ...io.env,
    OPENAI_BASE_URL: mock.url,
    OPENAI_API_KEY: 'mock-key',
    EVALFLOW_EXAMINER_MODEL: 'mock-examiner',
    EVALFLOW_JUDGE_MODEL: 'mock-judge',
    EVALFLOW_CANDIDATE_MODEL: 'mock-candidate',
  };
  delete env.EVALFLOW_EXAMINER_BASE_URL;
  delete env.EVALFLOW_JUDGE_BASE_URL;
  delete env.EVALFLOW_CANDIDATE_BASE_URL;
  try {
    const settings = await loadSettings(PACKAGE_ROOT, env, {
      candidate: 'builtin',
      runsDir: resolve(io.cwd, options.runsDir ?? io.env.EVALFLOW_RUNS_DIR ?? 'runs'),
    });
    const bank = await loadEvalBank([settings.evalSets], { cwd: io.cwd });
    if (bank.problems.length > 0) {
      for (const problem of bank.problems) io.err(`error: ${problem}`);
      return 1;
    }
    const candidate = resolveCandidate(settings, 'builtin', knownAdapterNames, env);
    const arms = await resolveArmFlags(['with_workflow=base', 'no_workflow=workflow=none'], settings, candidate, { cwd: io.cwd, env });
    checkIsolation([candidate], io, { probe: true });
    const runtime = await openRuntime(settings, { ...io, env }, { worker: true });
    try {
      // The demo's mock model ends with this process: a detached batch could not go on.
      const execution = await executeBatch(settings, runtime, { paths: [settings.evalSets], cases: bank.cases, candidate, runsPerCase: 1, parallelism: 3, arms }, { ...io, env }, { onInterrupt: 'cancel' });
      if (execution.detached) return 130;
      const { report } = execution;
      io.out('');
      for (const line of formatRunTable(report.runs, io.cwd)) io.out(line);
      io.out('');
      io.out(`Run directories (transcript.jsonl, score.yaml, review.md, config.yaml, env_checklist.yaml, workflow/): ${relative(io.cwd, settings.runsDir) || '.'}/`);
      io.out(`Inspect one:  node bin/evalflow.js show ${report.runs[0]?.run_id ?? '<run_id>'}`);
      io.out(
        runtime.temporal.mode === 'embedded'
          ? `Web UI: run \`node bin/evalflow.js server\` and open ${runtime.temporal.uiUrl} (history is kept in ${relative(io.cwd, settings.temporal.dbFilename)})`
          : `Web UI: ${runtime.temporal.uiUrl ?? '(the cluster\'s UI)'}`,
      );
      await reportArms(runtime.store, report.batchId, arms, settings.summariesDir, io);
      io.out('');
      io.out('The verdicts are scripted by the mock judge (examples/mock/demo.yaml): add-truncate fails on purpose in both arms, and fix-slug-dashes fails without the workflow (no regression test).');
      io.out('One run a side proves nothing: the comparison says so (insufficient_data). With --runs-per-case 5 a 0/5 → 5/5 change is an improvement (the workflow helps), 5/5 → 0/5 a regression.');
      io.out('add-wordcount-test and explain-wordcount measure the node-test skill: it must fire in the first and not in the second (expect_workflow); see "Workflow used" in their review.md and the trigger quality above.');
      return report.allCompleted ? 0 : 1;
    } finally {
      await runtime.close();
    }
  } finally {
    await mock.close();
  }
}
