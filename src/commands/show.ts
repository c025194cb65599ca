import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ConfigError } from '../errors.js';
import { loadSettings } from '../config.js';
import { describeAnomaly } from '../vocabulary/anomaly.js';
import { openStore } from '../store/index.js';
import { runIsolation } from '../summaries/runIsolation.js';
import type { CommandIo } from '../cli/io.js';
import { lookupStoreOptions } from '../cli/storeOptions.js';
import { printJson } from '../cli/json/document.js';
import { runJson } from '../cli/json/runs.js';
import { RUN_FILES, ShowJson } from '../cli/json/show.js';

/**
 * `evalflow show <run_id>`: the run's row (with how its candidate was contained), its score,
 * review.md and where its files are. A batch id shows where the batch stands, as `evalflow
 * status` does.
 */
export async function run(options: { runId: string; config?: string; json?: boolean }, io: CommandIo): Promise<number> {
  // A batch is shown by `status`, which loads Temporal; a run needs only the store.
  if (options.runId.startsWith('batch-')) {
    return (await import('./status.js')).run({ batchId: options.runId, ...(options.config ? { config: options.config } : {}), ...(options.json ? { json: true } : {}) }, io);
  }
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const store = await openStore(lookupStoreOptions(settings));
  try {
    const runRow = await store.getRun(options.runId);
    if (!runRow) {
      const recent = (await store.listRuns({ limit: 5 })).map((r) => r.run_id);
      throw new ConfigError(`no run ${options.runId} in the store${recent.length ? `; recent runs: ${recent.join(', ')}` : ''}`);
    }
    const score = await store.getScore(options.runId);
    const hosts = await store.getRunHosts([runRow.run_id]);
    const review = join(runRow.run_dir, 'review.md');
    if (options.json) {
      printJson(io, ShowJson, {
        schema_version: 1,
        run: runJson(runRow, hosts),
        candidate_adapter: runRow.candidate_adapter,
        candidate_model: runRow.models.candidate ?? null,
        isolation: runIsolation(runRow),
        score: score && { result: score.result, compliance: score.compliance, execution_quality: score.execution_quality, overall: score.overall, judge_model: score.judge_model, judged_at: score.judged_at, salvaged: score.salvaged },
        host_attempts: hosts.map((h) => ({ host_id: h.host_id, attempt: h.generation + 1, claimed_at: h.claimed_at })),
        anomalies: runRow.anomalies.map((anomaly) => ({ kind: anomaly.kind, description: describeAnomaly(anomaly) })),
        files: RUN_FILES.map((name) => ({ name, path: join(runRow.run_dir, name), exists: existsSync(join(runRow.run_dir, name)) })),
        review_md: existsSync(review) ? await readFile(review, 'utf8') : null,
      });
      return 0;
    }
    const rel = (p: string) => relative(io.cwd, p) || '.';
    io.out(`run       ${runRow.run_id}`);
    io.out(`case      ${runRow.case_id} (${runRow.case_version})`);
    io.out(`candidate ${runRow.candidate} (${runRow.candidate_adapter}${runRow.models.candidate ? `, ${runRow.models.candidate}` : ''})`);
    io.out(`isolation ${runIsolation(runRow) === 'sandbox' ? 'sandbox' : 'none (uncontained: the candidate ran outside a sandbox)'}`);
    io.out(`status    ${runRow.status}${runRow.result ? `, ${runRow.result}` : ''}${runRow.overall !== null ? `, overall ${runRow.overall}` : ''}`);
    if (score) io.out(`scores    compliance ${score.compliance}, execution quality ${score.execution_quality}, overall ${score.overall} (judge ${score.judge_model}${score.salvaged ? ', salvaged' : ''})`);
    if (hosts.length > 0) io.out(`host      ${hosts.map((h) => `${h.host_id} (attempt ${h.generation + 1}, from ${h.claimed_at})`).join(', ')}`);
    if (runRow.workflow_rev) io.out(`workflow  ${runRow.workflow_rev}`);
    if (runRow.error) io.out(`error     ${runRow.error}`);
    for (const anomaly of runRow.anomalies) io.out(`anomaly   ${describeAnomaly(anomaly)}`);
    io.out('');
    io.out('files:');
    for (const name of RUN_FILES) {
      const path = join(runRow.run_dir, name);
      io.out(`  ${existsSync(path) ? '✓' : '✗'} ${rel(path)}`);
    }
    if (existsSync(review)) {
      io.out('');
      for (const line of (await readFile(review, 'utf8')).trimEnd().split('\n')) io.out(line);
    }
    return 0;
  } finally {
    await store.close();
  }
}
