import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openStore } from '../../src/store/index.js';

/** Runs per seeded batch: `compare` of two batches compares 1,000 runs with 1,000. */
export const RUNS_PER_BATCH = 1_000;
/** Cases of the bank; each batch runs each case RUNS_PER_BATCH / CASES times. */
const CASES = 50;
/** Batches per workflow_rev: `history` has a row per rev. */
const BATCHES_PER_REV = 5;
/** Transcript events per run, each about 300 characters: a short dialogue. */
const EVENTS_PER_RUN = 8;

/** What a seeded store holds, by name, for the commands a benchmark runs against it. */
export interface SeededStore {
  batchIds: string[];
  /** A run in the middle of the history, its run dir written (config.yaml, transcript.jsonl, review.md). */
  runId: string;
}

export const batchId = (b: number): string => `batch-20260101T000000-s${String(b).padStart(5, '0')}`;
export const runIdOf = (i: number): string => `run-case-${String(i % CASES).padStart(2, '0')}-cand@s${String(Math.floor(i / RUNS_PER_BATCH)).padStart(5, '0')}-${i}`;

/**
 * Fills the embedded store at `pgliteDir` with `runs` runs as the pipeline leaves them, in bulk
 * SQL (the workflow would take hours): batches of RUNS_PER_BATCH runs, each run with its spec,
 * config and judge input, a verdict in `scores` and `score_history`, EVENTS_PER_RUN transcript
 * events, two workflow-usage rows, and its run dir under `workspace/runs` in `run_dir` (absolute,
 * as rows were written before they were kept relative). Only one run's dir is written to disk.
 */
export async function seedLookups(pgliteDir: string, workspace: string, runs: number): Promise<SeededStore> {
  // The store's own open applies every migration; the rows then go in straight through PGlite.
  await (await openStore({ pgliteDir })).close();
  const db = new PGlite(pgliteDir);
  // Nothing here needs to survive a crash before close: no flush per statement.
  await db.exec('SET synchronous_commit = off');
  const batches = Math.ceil(runs / RUNS_PER_BATCH);
  const runsDir = join(workspace, 'runs');
  try {
    await db.query(
      `INSERT INTO batches (batch_id, status, spec, counts, created_at, updated_at)
       SELECT 'batch-20260101T000000-s' || lpad(b::text, 5, '0'), 'completed',
              jsonb_build_object('candidate', 'cand', 'total', ${RUNS_PER_BATCH}, 'cases', ${CASES}, 'runsPerCase', ${RUNS_PER_BATCH / CASES}),
              jsonb_build_object('finished', ${RUNS_PER_BATCH}, 'passed', ${(RUNS_PER_BATCH * 7) / 10}, 'failed', ${(RUNS_PER_BATCH * 3) / 10}),
              t, t
       FROM generate_series(0, $1::int - 1) AS b, LATERAL (SELECT timestamptz '2026-01-01' + b * interval '1 hour' AS t) AS at`,
      [batches],
    );
    // Runs in chunks of a batch or ten: one statement for 100,000 runs holds them all in memory at once.
    for (let from = 0; from < runs; from += RUNS_PER_BATCH * 10) {
      const to = Math.min(runs, from + RUNS_PER_BATCH * 10) - 1;
      await db.query(
        `INSERT INTO runs (run_id, batch_id, case_id, case_version, case_hash, candidate, candidate_adapter, models, workflow_rev,
                           status, result, overall, run_dir, temporal_workflow_id, temporal_run_id, config, spec, judge_input,
                           anomalies, error, project_rev, candidate_cli_version, workflow_dirty, workflow_hash, attempt_index, tokens,
                           started_at, finished_at, created_at, updated_at)
         SELECT id, 'batch-20260101T000000-s' || lpad(b::text, 5, '0'), c, 'v1', 'sha256:' || md5(c), 'cand', 'command',
                '{"candidate":"model-c","judge":"model-j","examiner":"model-e"}'::jsonb,
                md5('rev' || (b / ${BATCHES_PER_REV})::text) || md5('rev2' || (b / ${BATCHES_PER_REV})::text),
                CASE WHEN i % 97 = 0 THEN 'infra_error' ELSE 'completed' END,
                CASE WHEN i % 97 = 0 THEN NULL WHEN (i * 7919) % 10 < 7 THEN 'pass' ELSE 'fail' END,
                CASE WHEN i % 97 = 0 THEN NULL ELSE ((i * 31) % 50) / 10.0 END,
                $3 || '/' || id, id, md5(id), ${CONFIG_JSON}, ${SPEC_JSON}, ${JUDGE_INPUT_JSON},
                '[]'::jsonb, CASE WHEN i % 97 = 0 THEN 'sandbox: git worktree add failed' ELSE NULL END,
                md5('project'), '1.0.0', false, md5('workflow' || b), (i % ${RUNS_PER_BATCH / CASES}) / ${CASES} + 1,
                '{"examiner":{"input_tokens":900,"output_tokens":120},"candidate":{"input_tokens":40000,"output_tokens":3000},"judge":{"input_tokens":6000,"output_tokens":400}}'::jsonb,
                t, t + interval '3 minutes', t, t + interval '3 minutes'
         FROM generate_series($1::int, $2::int) AS i,
              LATERAL (SELECT i / ${RUNS_PER_BATCH} AS b, 'case-' || lpad((i % ${CASES})::text, 2, '0') AS c,
                              'run-case-' || lpad((i % ${CASES})::text, 2, '0') || '-cand@s' || lpad((i / ${RUNS_PER_BATCH})::text, 5, '0') || '-' || i AS id,
                              timestamptz '2026-01-01' + (i / ${RUNS_PER_BATCH}) * interval '1 hour' + (i % ${RUNS_PER_BATCH}) * interval '3 seconds' AS t) AS r`,
        [from, to, runsDir],
      );
      for (const table of ['scores', 'score_history']) {
        await db.query(
          `INSERT INTO ${table} (run_id, result, compliance, execution_quality, overall, summary, hard_requirements, suggestions, judge_model, judged_at, raw, salvaged)
           SELECT run_id, result, 3.5, 3, overall, 'The candidate ran the tests before committing and named the failing case in its message; it skipped the linter.',
                  '[{"item":"ran the tests","met":true,"evidence":"shell: go test ./... → exit=0"},{"item":"kept the API","met":true,"evidence":"diff touches internal/ only"}]'::jsonb,
                  '["[workflow] name the lint command in the skill"]'::jsonb, 'model-j', finished_at,
                  'result: ' || result || E'\\n' || repeat('reasoning about the transcript, turn by turn. ', 30), false
           FROM runs WHERE run_id IN (SELECT ${RUN_ID_SQL} FROM generate_series($1::int, $2::int) AS i) AND result IS NOT NULL`,
          [from, to],
        );
      }
      await db.query(
        `INSERT INTO transcript_events (run_id, turn, attempt, seq, ts, role, content, tool, usage)
         SELECT ${RUN_ID_SQL}, e / 2, 1, e % 2, timestamptz '2026-01-01' + i * interval '3 seconds' + e * interval '10 seconds',
                CASE WHEN e % 2 = 0 THEN 'examiner' ELSE 'candidate' END,
                repeat('The candidate read the failing test, changed the handler and ran the suite again. ', 4),
                CASE WHEN e % 2 = 1 THEN '{"id":"call-1","name":"Bash","kind":"shell","target":"go test ./...","exit_code":0}'::jsonb ELSE NULL END, NULL
         FROM generate_series($1::int, $2::int) AS i, generate_series(0, ${EVENTS_PER_RUN - 1}) AS e`,
        [from, to],
      );
      await db.query(
        `INSERT INTO workflow_usage (run_id, item, kind, name, loaded, invoked, first_turn, evidence)
         SELECT ${RUN_ID_SQL}, 'skills/' || s, 'skill', s, 'yes', CASE WHEN i % 3 = 0 THEN 'no' ELSE 'yes' END, 1, 'read SKILL.md'
         FROM generate_series($1::int, $2::int) AS i, unnest(ARRAY['testing', 'commits']) AS s`,
        [from, to],
      );
    }
    await db.exec('ANALYZE');
  } finally {
    await db.close();
  }
  const seeded = { batchIds: Array.from({ length: batches }, (_, b) => batchId(b)), runId: runIdOf(Math.floor(runs / 2)) };
  await writeRunDir(join(runsDir, seeded.runId), seeded.runId);
  return seeded;
}

const RUN_ID_SQL = `'run-case-' || lpad((i % ${CASES})::text, 2, '0') || '-cand@s' || lpad((i / ${RUNS_PER_BATCH})::text, 5, '0') || '-' || i`;

const CONFIG_JSON = `jsonb_build_object('candidate', jsonb_build_object('name', 'cand', 'adapter', 'command', 'args', jsonb_build_array('./agent.sh', '--fast'), 'isolation', 'sandbox'),
  'examiner', jsonb_build_object('model', 'model-e', 'base_url', 'http://127.0.0.1:9000/v1'), 'judge', jsonb_build_object('model', 'model-j', 'base_url', 'http://127.0.0.1:9000/v1'),
  'turn_timeout_s', 600, 'runs_per_case', 20)`;

/** About 2.5 KB, as a case with a page-long prompt and rubric makes it. */
const SPEC_JSON = `jsonb_build_object('runId', id, 'batchId', 'batch-20260101T000000-s' || lpad(b::text, 5, '0'),
  'evalCase', jsonb_build_object('id', c, 'version', 'v1', 'category', 'bugfix', 'targetWorkflow', 'go-service', 'maxTurns', 10,
    'purpose', 'Checks that the candidate runs the tests before committing.',
    'prompt', repeat('Fix the failing login handler so that expired sessions are refused, and keep the API as it is. ', 12),
    'rubric', jsonb_build_object('hard', jsonb_build_array('ran the tests', 'kept the API'), 'soft', jsonb_build_array(repeat('wrote a clear commit message ', 10))),
    'expectWorkflow', jsonb_build_object('must_use', jsonb_build_array('skills/testing'), 'must_not_use', jsonb_build_array('skills/commits'))),
  'candidate', jsonb_build_object('name', 'cand', 'adapter', 'command', 'isolation', 'sandbox'),
  'examiner', jsonb_build_object('model', 'model-e'), 'judge', jsonb_build_object('model', 'model-j'),
  'project', '/home/user/project', 'workflowDir', '/home/user/project/workflow', 'runsDir', $3, 'turnTimeoutS', 600)`;

const JUDGE_INPUT_JSON = `jsonb_build_object('facts', jsonb_build_object('turnsUsed', 4, 'maxTurns', 10, 'turnLimitHit', false, 'examinerEnded', true),
  'postconditions', jsonb_build_array(jsonb_build_object('name', 'tests pass', 'ok', true, 'output', repeat('ok  	example.com/svc/login	0.412s ', 8))), 'host', 'bench-host')`;

async function writeRunDir(runDir: string, runId: string): Promise<void> {
  await mkdir(join(runDir, 'workflow'), { recursive: true });
  await writeFile(join(runDir, 'config.yaml'), `run_id: ${runId}\ncandidate: cand\n`);
  await writeFile(join(runDir, 'transcript.jsonl'), '{"turn":0,"role":"examiner","content":"fix the login handler"}\n');
  await writeFile(join(runDir, 'score.yaml'), 'result: pass\noverall: 3.5\n');
  await writeFile(join(runDir, 'review.md'), `# ${runId}\n\nThe candidate ran the tests before committing.\n`);
}


/**
 * The store of `size` runs in `workspace`: seeded now, or, when `kept`, the one a former run
 * seeded there (its `seeded.json` says what it holds). What it did goes to `notes`.
 */
export async function seededWorkspace(workspace: string, size: number, options: { kept: boolean; label: string; notes: string[] }): Promise<SeededStore> {
  const marker = join(workspace, 'seeded.json');
  if (options.kept && existsSync(marker)) {
    options.notes.push(`${options.label}: the store seeded by a former run in ${workspace}`);
    return JSON.parse(await readFile(marker, 'utf8')) as SeededStore;
  }
  await mkdir(workspace, { recursive: true });
  const seedStart = Date.now();
  const seeded = await seedLookups(join(workspace, '.evalflow', 'pglite'), workspace, size);
  options.notes.push(`${options.label}: seeded in ${((Date.now() - seedStart) / 1000).toFixed(0)} s (bulk SQL): ${seeded.batchIds.length} batches of 1,000 runs, 8 transcript events, a verdict and its history row, 2 workflow-usage rows per run`);
  if (options.kept) await writeFile(marker, JSON.stringify(seeded));
  return seeded;
}
