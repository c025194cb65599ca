import { Command, Option, type CommanderError } from 'commander';
import * as flag from './cli/flagValues.js';
import { DESCRIBE_ONLY } from './cliReference.js';
import { COMMAND_MODULES, type CommandName } from './commands/index.js';
import { EXIT } from './cli/exitCodes.js';
import { INTERRUPT_MODES } from './cli/batch/interrupts.js';
import { processIo, type CommandIo } from './cli/io.js';
import { registerSelfLaunch } from './cli/selfLaunch.js';
import { withSelection } from './cli/selectionOptions.js';
import { EvalflowError, FormatError, StoreBusyError, SourceFetchError, TemporalUnreachableError, UsageError } from './errors.js';
import { RUN_STATES } from './vocabulary/runStates.js';
import { BATCH_STATUSES } from './vocabulary/batchStatuses.js';

/**
 * The evalflow CLI: every command and flag on one screen. Each action lazily loads
 * `commands/<name>.ts` and calls its `run(options, io)`, which returns the exit code.
 */
export const program = new Command('evalflow')
  .description('Reproducible evals for AI agent workflows, run as durable Temporal workflows')
  .version(process.env.npm_package_version ?? '0.1.0')
  .exitOverride(usageErrorExit);

const configOption = new Option('-c, --config <file>', 'evalflow.config.yaml to use (default: ./evalflow.config.yaml if present)');
const onInterruptOption = new Option('--on-interrupt <what>', 'what Ctrl-C does: ask (on a terminal; else detach), detach, cancel').choices(INTERRUPT_MODES).default('ask');

withSelection(
  program
    .command('run')
    .description('run eval cases against a candidate; one durable Temporal workflow per run')
    .argument('[paths...]', 'eval bank folders or case folders (default: eval_sets)')
    .addOption(configOption),
)
  .option('--gate <conditions>', "CI gate, e.g. 'pass_rate>=0.8,overall>=3.5': exit 0 met, 1 failed, 2 infrastructure")
  .option('--baseline <batch|rev>', 'gate: also fail when a case regresses against this batch or workflow_rev')
  .option('--junit <file>', 'write a JUnit XML report, one testcase per run')
  .option('--max-infra-errors <n>', 'gate: exit 2 when more runs than this end infra_error or judge_failed', flag.count)
  .addOption(new Option('--review <when>', "a verdict in doubt: wait for a person's decision inside the run, or record needs_review (default later)").choices(['wait', 'later']))
  .option('--judges <n>', 'independent judge samples per run, 1-9; samples that disagree need a person (default 1)', flag.positiveInteger)
  .option('--allow-self-judge', "let the judge use the candidate's own model or agent")
  .addOption(new Option('--until-decided', 'A/B: add rounds of interleaved runs per case until a sequential test decides it (docs/how-many-runs.md)'))
  .addOption(new Option('--max-runs-per-case <n>', 'with --until-decided: at most n runs a side per case (default 60)').argParser(flag.positiveInteger))
  .addOption(new Option('--max-runs <m>', 'with --until-decided: at most m runs in the whole batch').argParser(flag.positiveInteger))
  .addOption(new Option('--budget-usd <x>', 'with --until-decided: stop adding rounds once recorded usage at the configured prices reaches x dollars').argParser(flag.positiveNumber))
  .option('--no-worker', 'do not run a worker in this process (workers run elsewhere)')
  .addOption(onInterruptOption)
  .option('--json', 'print the final result as one JSON document on stdout; progress and reports go to stderr (docs/json.md)')
  .action((paths: string[], options) => dispatch('run', { ...options, paths }));

withSelection(
  program
    .command('calibrate')
    .description("measure each case's noise floor: an A/A batch (the same configuration twice, interleaved, --runs-per-case k a side, default 5), then per case its flip rate, stored per case version")
    .argument('[paths...]', 'eval bank folders or case folders (default: eval_sets)')
    .addOption(configOption),
)
  .option('--batch <id>', 'measure this A/A batch again instead of running one (after `rejudge --batch <id> --repeat k`: also the judge\'s share)')
  .option('--judges <n>', "independent judge samples per run, 1-9: the judge's share of the noise without a rejudge (default 1)", flag.positiveInteger)
  .option('--allow-self-judge', "let the judge use the candidate's own model or agent")
  .option('--json', 'print the calibration as JSON (docs/json.md)')
  .option('--no-worker', 'do not run a worker in this process (workers run elsewhere)')
  .addOption(onInterruptOption)
  .action((paths: string[], options) => dispatch('calibrate', { ...options, paths }));

program
  .command('status')
  .description('where a batch stands (default: the newest): progress, what runs, whether a worker serves it')
  .argument('[batch]', 'batch id (batch-…)')
  .addOption(configOption)
  .option('--json', 'print JSON instead of the table (docs/json.md)')
  .action((batchId: string | undefined, options) => dispatch('status', { ...options, batchId }));

program
  .command('attach')
  .description('follow a batch to its end with live progress and the final table; locally, also run it')
  .argument('<batch>', 'batch id (batch-…)')
  .addOption(configOption)
  .option('--no-worker', 'do not run a worker in this process (workers run elsewhere)')
  .addOption(onInterruptOption)
  .option('--json', 'print the final result as one JSON document on stdout; progress goes to stderr (docs/json.md)')
  .action((batchId: string, options) => dispatch('attach', { ...options, batchId }));

program
  .command('cancel')
  .description('cancel a batch: its runs record what they have and clean up; waits for it to close')
  .argument('<batch>', 'batch id (batch-…)')
  .addOption(configOption)
  .option('--no-wait', 'request the cancellation and return')
  .action((batchId: string, options) => dispatch('cancel', { ...options, batchId }));

program
  .command('batches')
  .description('batches in the store, newest first: id, status, counts, candidate, started')
  .addOption(configOption)
  .addOption(new Option('--status <status>', 'only batches with this status').choices(BATCH_STATUSES))
  .option('--limit <n>', 'at most n batches (default 20)', flag.positiveInteger)
  .option('--after <batch_id>', 'the next page: batches listed after this one (the last line printed names it)')
  .option('--json', 'print JSON instead of the table (docs/json.md)')
  .action((options) => dispatch('batches', options));

program
  .command('runs')
  .description('runs in the store, newest first, as the table `run` prints')
  .addOption(configOption)
  .option('--batch <id>', 'runs of this batch')
  .addOption(new Option('--status <status>', 'runs with this status').choices(RUN_STATES))
  .option('--limit <n>', 'at most n runs (default 50)', flag.positiveInteger)
  .option('--after <run_id>', 'the next page: runs listed after this one (the last line printed names it)')
  .option('--query <visibility query>', 'runs whose workflows match this Temporal visibility query, e.g. \'EvalBatch="batch-…" AND EvalResult="fail"\'')
  .option('--json', 'print JSON instead of the table (docs/json.md)')
  .action((options) => dispatch('runs', options));

program
  .command('show')
  .description('print the score, review and file paths of a run (a batch id: where the batch stands)')
  .argument('<run_id>')
  .addOption(configOption)
  .option('--json', 'print the run (or the batch, as status does) as JSON (docs/json.md)')
  .action((runId: string, options) => dispatch('show', { ...options, runId }));

program
  .command('rejudge')
  .description('judge finished runs again from their stored transcripts (the candidate is not re-run); the old verdict stays in the score history')
  .argument('[run_ids...]')
  .addOption(configOption)
  .option('--batch <id>', 'every run of a batch (with --status: only those)')
  .option('--status <status>', 'runs with this status, e.g. judge_failed')
  .option('--judge-model <model>', 'judge with this model instead of the run\'s own')
  .option('--repeat <k>', 'judge each completed run k more times as samples and label each case stable, flaky_agent or flaky_judge', flag.positiveInteger)
  .option('--json', 'print the runs (with --repeat, also the stability) as JSON; progress stays on stderr (docs/json.md)')
  .action((runIds: string[], options) => dispatch('rejudge', { ...options, runIds }));

program
  .command('compare')
  .description('compare two sides case by case (batches, batch:arm, workflow revs); exit 1 on a regression, 3 when nothing compares')
  .argument('<a>', 'a batch id, batch:arm, an arm of --batch, or a workflow_rev')
  .argument('<b>', 'the same for side B')
  .addOption(configOption)
  .option('--batch <id>', 'compare two arms of this batch: A and B are arm names')
  .option('--tolerance <drop>', 'a regressed case fails only when its pass rate dropped by more (0..1, default 0)', flag.fraction)
  .option('--json', 'print the comparison as JSON (docs/json.md)')
  .action((a: string, b: string, options) => dispatch('compare', { ...options, a, b }));

program
  .command('history')
  .description('per workflow_rev in time order: runs, pass rate with its interval, mean overall, change from the rev before')
  .addOption(configOption)
  .option('--case <id>', 'one eval case only')
  .option('--candidate <name>', 'one candidate only')
  .option('--json', 'print JSON instead of the table (docs/json.md)')
  .action((options) => dispatch('history', options));

program
  .command('plan')
  .description('per case of the latest batch: its measured pass rate, the runs per side a comparison needs to detect a difference, and their cost')
  .addOption(configOption)
  .requiredOption('--detect <d>', 'the difference in pass rate to detect, strictly between 0 and 1 (0.3: thirty points)', flag.openFraction)
  .option('--power <p>', 'the chance to detect it when it is there, strictly between 0 and 1 (default 0.8)', flag.openFraction)
  .option('--alpha <a>', 'the two-sided false-alarm rate, strictly between 0 and 1 (default 0.05)', flag.openFraction)
  .option('--batch <id>', 'measure this batch (default: the newest); a batch with arms is measured on its baseline arm (the one without the workflow, else the first)')
  .option('--json', 'print the plan as JSON (docs/json.md)')
  .action((options) => dispatch('plan', options));

program
  .command('summarize')
  .description('rebuild summaries/ (latest.md, latest-stats.yaml, score-history.yaml, batch-insights.md) from the store')
  .addOption(configOption)
  .option('--batch <id>', 'the summaries as of this batch (default: the newest); a follow-up over other cases goes to summaries/selections/')
  .option('--out <dir>', 'where to write them (default: summaries/ beside the runs folder)')
  .action((options) => dispatch('summarize', options));

program
  .command('dashboard')
  .description('rebuild the offline dashboard (one self-contained HTML file) from the store')
  .addOption(configOption)
  .option('--out <file>', 'where to write it (default: summaries/dashboard.html)')
  .action((options) => dispatch('dashboard', options));

program
  .command('view')
  .description('a local read-only web app over the store: the dashboard live, batch pages, run pages with the transcript viewer')
  .addOption(configOption)
  .option('--port <n>', 'port to listen on (default 8300)', flag.port)
  .option('--host <address>', 'address to bind (default 127.0.0.1: this machine only)', flag.hostAddress)
  .action((options) => dispatch('view', options));

program
  .command('resume')
  .description('continue an infra_error run from its kept sandbox; finished turns are not run again')
  .argument('<run_id>')
  .addOption(configOption)
  .option('--json', 'print the run as it ended as JSON; progress stays on stderr (docs/json.md)')
  .action((runId: string, options) => dispatch('resume', { ...options, runId }));

program
  .command('review')
  .description("settle a run whose verdict needs a person: your decision and note, kept beside the judge's verdict")
  .argument('[run_id]')
  .addOption(configOption)
  .addOption(new Option('--result <result>', 'your decision').choices(['pass', 'fail']))
  .option('--note <text>', 'why you decided so')
  .option('--pending', 'list the runs that need a review (waiting in their workflow, or recorded)')
  .option('--json', 'with --pending: print the list as JSON (docs/json.md)')
  .option('--wait <seconds>', 'how long to wait for a worker to take the decision before queueing it in the run\'s history (default 10)', flag.integerFlag(0, 3600))
  .action((runId: string | undefined, options) => dispatch('review', { ...options, runId }));

program
  .command('validate')
  .description('check eval cases without running anything; exits 1 on any problem')
  .argument('[paths...]', 'eval bank folders or case folders (default: eval_sets)')
  .option('--json', 'print the checks as JSON (docs/json.md)')
  .action((paths: string[], options) => dispatch('validate', { ...options, paths }));

program
  .command('new')
  .description('scaffold a new eval case folder')
  .argument('<id>', 'eval case id (also the folder name)')
  .option('--dir <dir>', 'eval bank folder', 'eval_sets')
  .action((id: string, options) => dispatch('new', { ...options, id }));

const candidates = program
  .command('candidates')
  .description('list candidate adapters, whether their CLI is installed, and its version')
  .option('--json', 'print the list as JSON (docs/json.md)')
  .action((options) => dispatch('candidates', options));
candidates
  .command('normalize')
  .description('print the transcript events captured agent streams become (several files = consecutive turns)')
  .argument('<adapter>')
  .argument('<streams...>')
  // commander takes the list's --json anywhere on the line: passed on, so normalize can refuse it.
  .action((adapter: string, files: string[]) => dispatch('candidates', { ...candidates.opts(), normalize: { adapter, files } }));

const schedule = program.command('schedule').description('nightly (or any) regressions as Temporal Schedules: create, list, describe, trigger, pause, unpause, delete, backfill');
withSelection(
  schedule
    .command('create')
    .description('a schedule that runs a batch as `run` would, then compares it with the previous one and the baseline')
    .argument('<name>', 'schedule name (lowercase letters, digits, - _ .), e.g. nightly-main')
    .argument('[paths...]', 'eval bank folders or case folders (default: eval_sets)')
    .addOption(configOption)
    .option('--cron <expr>', "when, as cron in UTC, e.g. '0 2 * * *'")
    .option('--every <duration>', 'when, as an interval, e.g. 24h, 6h, 90m', flag.duration),
)
  .option('--baseline <batch|previous>', 'also compare every batch with this one (default previous: only with the batch before)')
  .option('--notify <command>', 'shell command given each batch\'s report as JSON on stdin')
  .option('--catchup-window <duration>', 'firings missed while no server ran are caught up (once) when at most this old (default 24h)', flag.duration)
  .option('--paused', 'create it paused: it fires only when triggered, until unpaused')
  .action((name: string, paths: string[], options) => dispatch('schedule', { ...options, action: 'create', name, paths }));
schedule
  .command('list')
  .description('schedules with their timing, next firing and last verdict')
  .addOption(configOption)
  .option('--json', 'print them as JSON (docs/json.md)')
  .action((options) => dispatch('schedule', { ...options, action: 'list' }));
for (const [action, description] of [
  ['describe', 'timing, next firings, what runs now, the last batches with their verdicts'],
  ['trigger', 'fire now (skipped while a batch of the schedule still runs)'],
  ['pause', 'stop firing until unpaused'],
  ['unpause', 'fire again'],
  ['delete', 'delete the schedule (its batches and reports stay)'],
] as const) {
  const command = schedule.command(action).description(description).argument('<name>').addOption(configOption);
  if (action === 'pause' || action === 'unpause') command.option('--note <text>', 'why');
  if (action === 'describe') command.option('--json', 'print it as JSON (docs/json.md)');
  command.action((name: string, options) => dispatch('schedule', { ...options, action, name }));
}
schedule
  .command('backfill')
  .description('run now the firings that were due in a past time range, one after the other')
  .argument('<name>')
  .addOption(configOption)
  .requiredOption('--from <time>', 'start, e.g. 2026-12-01T00:00:00Z')
  .requiredOption('--to <time>', 'end')
  .action((name: string, options) => dispatch('schedule', { ...options, action: 'backfill', name }));

program
  .command('bless')
  .description("make a batch the baseline its schedule's batches are compared with (nothing else moves it)")
  .argument('<batch>', 'batch id (batch-…)')
  .addOption(configOption)
  .option('--schedule <name>', 'whose baseline (default: the schedule that ran the batch)')
  .action((batchId: string, options) => dispatch('bless', { ...options, batchId }));

program
  .command('server')
  .description('run Temporal with the Web UI in the foreground: the dev server, or with --persistence postgres the full server on PostgreSQL')
  .addOption(configOption)
  .addOption(new Option('--persistence <store>', 'sqlite: the dev server (default); postgres: team mode, history in PostgreSQL').choices(['sqlite', 'postgres']))
  .option('--database-url <url>', 'team mode: postgres://USER@HOST:PORT/NAME; databases NAME and NAME_visibility (default postgres://postgres@127.0.0.1:5432/temporal)')
  .option('--bind <address>', 'the address every service binds: 127.0.0.1 (default, this machine only), 0.0.0.0 or one of this host\'s addresses')
  .option('--ports <list>', 'team mode: ports placed by hand, NAME=PORT,… (frontend, history, matching, worker, http, *_membership, metrics, ui); the rest sit beside the frontend port')
  .option('--tls-cert <file>', 'team mode: the server\'s PEM certificate; clients then reach it over TLS only (docs/scale-out.md)')
  .option('--tls-key <file>', 'team mode: the private key of --tls-cert (PEM, unencrypted)')
  .option('--tls-ca <file>', 'team mode: the CA that signed --tls-cert, which clients trust (default: the system\'s CAs)')
  .option('--tls-client-ca <file>', 'team mode: mutual TLS, only clients with a certificate signed by this CA get in')
  .option('--worker', 'also run a worker here (schedules fire only while a server and a worker run)')
  .action((options) => dispatch('server', options));

program
  .command('worker')
  .description('run a worker for the shared and this host\'s task queues until interrupted (SIGUSR2: drain)')
  .addOption(configOption)
  .option('--slots <n>', 'the most runs this host takes at once (default: its cores)', flag.positiveInteger)
  .option('--drain', "ask this host's running workers to finish their runs, take no new ones and exit; waits until they have")
  .action((options) => dispatch('worker', options));

program
  .command('demo')
  .description('run the five example cases offline, two arms, against the scripted mock model server')
  .option('--runs-dir <dir>', 'where run directories go (default: runs)')
  .action((options) => dispatch('demo', options));

program
  .command('ep')
  .description("edit-prediction evals on Zed's `ep` examples; predict, score and eval run as one durable batch")
  .argument('<subcommand>', 'read | predict | score | eval')
  .argument('[inputs...]', 'example files: .md, .json, .jsonl, or - (JSONL on stdin)')
  .addOption(configOption)
  .option('--name <text>', 'keep examples whose name contains this')
  .option('--repo <text>', 'keep examples whose repository_url contains this')
  .option('--offset <n>', 'skip the first n examples in input order (before sorting and filters)', flag.count)
  .option('--limit <n>', 'process at most n examples (after filters and resume)', flag.count)
  .option('--max-parallelism <n>', 'repositories processed at the same time (default 10)', flag.positiveInteger)
  .option('-o, --output <path>', 'append JSONL here, resuming from what it holds; with --markdown, a directory')
  .option('-i, --in-place', 'rewrite the single input file with the results (as JSONL)')
  .option('-m, --markdown', 'write one .md per example (spec only) into the -o directory')
  .option('-f, --failfast', 'stop after the first failed example')
  .option('--failed <mode>', 'failed examples: keep (written as they are), skip, skip-no-files', 'keep')
  .option('-p, --provider <name>', 'who predicts: noop | openai (default openai)')
  .option('--model <model>', 'model of the openai provider (default: EVALFLOW_EP_MODEL, edit_prediction.model, OPENAI_MODEL)')
  .option('--summary-json <path>', 'score, eval: write the summary metrics as JSON')
  .option('--beta <b>', 'delta chrF β (default 0.5)', flag.positiveNumber)
  .option('--verbose', 'eval: show every row of the report')
  .addOption(onInterruptOption)
  .option('--no-worker', 'do not run a worker in this process (workers run elsewhere)')
  .action((subcommand: string, inputs: string[], options) => dispatch('ep', { ...options, subcommand, inputs }));

// Hidden: started by a look-up that finds the embedded store free (src/store/startLingeringService.ts).
program
  .command('store-service', { hidden: true })
  .requiredOption('--data-dir <dir>').requiredOption('--socket <path>')
  .requiredOption('--linger <seconds>', '', flag.count)
  .option('--schema <name>')
  .action((options) => dispatch('store-service', options));

async function dispatch(name: CommandName, options: Record<string, unknown>): Promise<void> {
  const io = processIo();
  try {
    const command = (await COMMAND_MODULES[name]()) as { run(options: unknown, io: CommandIo): Promise<number> };
    process.exitCode = await command.run(options, io);
  } catch (err) {
    process.exitCode = reportError(err, io);
  }
}

/** Our errors are one line (or one line per problem); anything else is a bug, with its stack. */
function reportError(err: unknown, io: CommandIo): number {
  if (err instanceof TemporalUnreachableError || err instanceof SourceFetchError) {
    io.err(`error: ${err.message}`);
    return EXIT.unreachable;
  }
  if (err instanceof StoreBusyError) {
    io.err(`error: ${err.message}`);
    return EXIT.storeBusy;
  }
  if (err instanceof UsageError) {
    io.err(`error: ${err.message}`);
    return EXIT.usage;
  }
  if (err instanceof FormatError) {
    for (const problem of err.problems) io.err(`error: ${problem}`);
    return 1;
  }
  if (err instanceof EvalflowError) {
    io.err(`error: ${err.message}`);
    return 1;
  }
  io.err('internal error (please report it at the evalflow issue tracker):');
  io.err(err instanceof Error ? (err.stack ?? err.message) : String(err));
  return EXIT.internal;
}

/**
 * A command-line usage error (a bad flag value, an unknown option, a missing argument) exits 2
 * after commander's one line; help and --version keep their own codes.
 */
function usageErrorExit(err: CommanderError): void {
  if (err.exitCode !== 0) process.exit(EXIT.usage);
}

// `evalflow ... | head` closes stdout early; that is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

if (!(DESCRIBE_ONLY in globalThis)) {
  registerSelfLaunch([...process.execArgv, ...(process.argv[1] ? [process.argv[1]] : [])]);
  await program.parseAsync(process.argv);
}
