import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import * as z from 'zod';
import { EndpointSchema, remoteEndpointOf } from './containment/endpoint.js';
import { DEFAULT_ISOLATION } from './containment/isolation.js';
import { DEFAULT_JUDGING } from './run/judging.js';
import { DEFAULT_RECOVERY } from './run/recovery.js';
import type { CandidateSpec, JudgingPolicy, ModelEndpoint, Recovery } from './run/runSpec.js';
import { ConfigError, FormatError, UsageError } from './errors.js';
import { parseOrThrow } from './format.js';
import { looksLikeGitUrl, parseGitUrl } from './sandbox/gitUrl.js';
import { isSecretName } from './transcript/redact.js';
import { storeLingerFromEnv } from './storeLinger.js';
import { resolveTemporalConnection, TemporalTlsSchema, type TemporalSettings } from './temporalSettings.js';
import { IsolationSchema, type Isolation } from './vocabulary/isolation.js';
import { PricesSchema, type Prices } from './vocabulary/prices.js';
import { DEFAULT_VIEW_HOST, DEFAULT_VIEW_PORT, viewerBaseUrl } from './vocabulary/viewer.js';

export const CONFIG_FILE = 'evalflow.config.yaml';

const ModelEndpointSchema = z
  .object({
    model: z.string().min(1).describe('Model name sent to the endpoint'),
    base_url: z.string().url().optional().describe('OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1'),
    api_key_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional().describe('Name of the env var holding the key'),
    adapter: z.string().optional().describe('Serve this role with an agent CLI in text-only mode instead of an API'),
    executable: z.string().optional().describe('Path of that agent CLI when it is not on PATH'),
  })
  .strict();

const CandidateConfigSchema = z
  .object({
    adapter: z.string().min(1),
    model: z.string().optional(),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    base_url: z.string().url().optional(),
    api_key_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional(),
    executable: z.string().optional(),
    turn_timeout_s: z.number().int().positive().optional(),
    isolation: IsolationSchema.optional().describe("This candidate's containment, when it differs from the top-level isolation"),
    network_allow: z.array(EndpointSchema).optional().describe('Remote host:port endpoints this contained candidate may reach, beside the top-level list and its base_url'),
  })
  .strict();

/** A local path, or a git URL (then checked for a form git is fetched over here). */
const SourceSchema = z.string().superRefine((value, ctx) => {
  const parsed = looksLikeGitUrl(value) ? parseGitUrl(value) : null;
  if (parsed && 'problem' in parsed) ctx.addIssue({ code: 'custom', message: parsed.problem });
});

/** evalflow.config.yaml: the supply side of runs. Eval cases never hold any of this. */
export const ConfigFileSchema = z
  .object({
    project: SourceSchema.optional().describe('Project under test: a git repository or a plain folder, or a git URL (#ref optional) each worker host mirrors'),
    workflow_dir: SourceSchema.optional().describe('Folder with agents/ commands/ rules/ skills/, or a git URL (#ref optional) of a repository with them at its top'),
    eval_sets: z.string().optional(),
    runs_dir: z.string().optional(),
    summaries_dir: z.string().optional().describe('Where summaries/ go (default: beside the runs folder)'),
    prices: PricesSchema.optional().describe('US dollars per million tokens, per model: input, output, cache_read, cache_write'),
    isolation: IsolationSchema.optional().describe('How candidates are contained: sandbox (bubblewrap, the default on Linux) or none (uncontained, recorded and shown with every result)'),
    network_allow: z.array(EndpointSchema).optional().describe('Remote host:port endpoints every contained candidate may reach (its provider); nothing else leaves its sandbox'),
    candidates: z.record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/), CandidateConfigSchema).default({}),
    examiner: ModelEndpointSchema.optional(),
    judge: ModelEndpointSchema.optional(),
    edit_prediction: ModelEndpointSchema.optional().describe('Model of `evalflow ep --provider openai`'),
    defaults: z
      .object({
        candidate: z.string().optional(),
        parallelism: z.number().int().min(1).max(256).optional(),
        runs_per_case: z.number().int().min(1).max(100).optional(),
        turn_timeout_s: z.number().int().positive().optional(),
      })
      .strict()
      .default({}),
    judging: z
      .object({
        samples: z.number().int().min(1).max(9).optional().describe('Independent judge samples per run (default 1); disagreeing samples need a person'),
        review: z.enum(['wait', 'later']).optional().describe("A verdict in doubt: wait for a person's decision inside the run, or record needs_review (default later)"),
        allow_self_judge: z.boolean().optional().describe("Let the judge use the candidate's own model or agent (default false)"),
      })
      .strict()
      .default({}),
    recovery: z
      .object({
        model_outage_s: z.number().int().positive().optional().describe('How long a failing model endpoint is waited out before the step fails (default 3600)'),
        host_lost_after_s: z.number().int().positive().optional().describe('How long a host may have no worker before its runs start again elsewhere (default 600)'),
      })
      .strict()
      .default({}),
    store: z
      .object({
        database_url_env: z.string().default('DATABASE_URL'),
        pglite_dir: z.string().optional(),
        schema: z.string().regex(/^[a-z_][a-z0-9_]*$/).optional(),
      })
      .strict()
      .default({ database_url_env: 'DATABASE_URL' }),
    view: z
      .object({
        host: z.string().min(1).optional().describe('Where `evalflow view` listens unless --host says otherwise (default 127.0.0.1)'),
        port: z.number().int().min(1).max(65535).optional().describe('Its port unless --port says otherwise (default 8300)'),
        url: z.string().url().optional().describe('The address people open the viewer at, when it is not http://HOST:PORT (a proxy, another machine): runs link to it from the Web UI'),
      })
      .strict()
      .default({}),
    temporal: z
      .object({
        address: z.string().optional(),
        namespace: z.string().optional(),
        db_filename: z.string().optional(),
        port: z.number().int().positive().optional(),
        ui_port: z.number().int().positive().optional(),
        /** The variable holding the API key (Temporal Cloud); the key itself never sits in the config. */
        api_key_env: z.string().optional(),
        tls: TemporalTlsSchema.optional(),
      })
      .strict()
      .default({}),
  })
  .strict();
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

export type { ModelEndpoint };

/** The resolved settings every command works from (paths absolute, overrides applied). */
export interface Settings {
  configPath: string | null;
  root: string;
  project: string;
  workflowDir: string;
  evalSets: string;
  runsDir: string;
  /** What set `runsDir`: `--runs-dir`, EVALFLOW_RUNS_DIR, the config's `runs_dir`, or the default; a worker writes to its own only when it set one. */
  runsDirFrom?: 'flag' | 'env' | 'config' | 'default';
  /** summaries/ (latest.md, latest-stats.yaml, score-history.yaml, batch-insights.md). */
  summariesDir: string;
  prices: Prices;
  stateDir: string;
  candidates: Record<string, CandidateSpec & { turnTimeoutS?: number }>;
  /** How candidates are contained unless their own entry says otherwise (EVALFLOW_ISOLATION, `isolation`). */
  isolation: Isolation;
  /** `network_allow`: remote endpoints every contained candidate may reach. */
  networkAllow: string[];
  defaultCandidate: string;
  examiner: ModelEndpoint;
  judge: ModelEndpoint;
  /** The model `evalflow ep --provider openai` predicts with (EVALFLOW_EP_MODEL, edit_prediction, OPENAI_MODEL). */
  editPrediction: ModelEndpoint;
  parallelism: number;
  runsPerCase: number;
  turnTimeoutS: number;
  /** How long runs wait out a failing model endpoint or a host without a worker. */
  recovery: Recovery;
  /** Judge samples, what a verdict in doubt waits for, and whether self-judging is allowed. */
  judging: JudgingPolicy;
  databaseUrl: string | undefined;
  pgliteDir: string;
  storeSchema: string | undefined;
  /** Seconds a store service started by a look-up stays after its last client (EVALFLOW_STORE_LINGER, default 600); 0: none is started. */
  storeLingerS: number;
  temporal: TemporalSettings;
  /** Where `evalflow view` listens by default (`view.host`, `view.port`). */
  view: { host: string; port: number };
  /** The viewer's address runs link to from the Web UI (`viewerBaseUrl`); null when unknown. */
  viewerUrl: string | null;
  /** --candidate-model: replaces the model of the selected candidate for this invocation. */
  candidateModelOverride?: string;
}

export interface ConfigOverrides {
  configPath?: string;
  project?: string;
  workflowDir?: string;
  runsDir?: string;
  candidate?: string;
  candidateModel?: string;
  /** --judges */
  judges?: number;
  /** --review */
  review?: JudgingPolicy['review'];
  /** --allow-self-judge */
  allowSelfJudge?: boolean;
}

/**
 * Reads evalflow.config.yaml (from --config or the working directory; optional), then applies
 * environment variables and flags. Every adapter name also works as a candidate name with
 * defaults, so no config is needed to start.
 */
export async function loadSettings(cwd: string, env: NodeJS.ProcessEnv, overrides: ConfigOverrides = {}): Promise<Settings> {
  const configPath = overrides.configPath ? resolve(cwd, overrides.configPath) : resolve(cwd, CONFIG_FILE);
  let file: ConfigFile = ConfigFileSchema.parse({});
  let found: string | null = null;
  if (existsSync(configPath)) {
    found = configPath;
    let raw: unknown;
    // Loaded only when there is a file to read: most look-ups run without one.
    const { parse: parseYaml } = await import('yaml');
    try {
      raw = parseYaml(await readFile(configPath, 'utf8')) ?? {};
    } catch (err) {
      throw new FormatError(`${configPath}: not valid YAML: ${(err as Error).message}`);
    }
    file = parseOrThrow(ConfigFileSchema, raw, configPath);
  } else if (overrides.configPath) {
    throw new ConfigError(`config file ${configPath} does not exist`);
  }
  const root = found ? resolve(found, '..') : cwd;
  // `~/code/app` in the config (or a quoted flag) means the home folder, as in a shell.
  const home = (p: string) => (/^~(?=$|\/)/.test(p) ? `${env.HOME ?? homedir()}${p.slice(1)}` : p);
  const at = (p: string) => (isAbsolute(home(p)) ? home(p) : resolve(root, p));
  // Flags are typed relative to where the user stands, not to the config file.
  const flag = (p: string) => resolve(cwd, home(p));
  // A git URL is no path: it stays as written (the config's were checked by its schema, a flag's here).
  const source = (value: string, local: (p: string) => string, name?: string) => {
    const parsed = looksLikeGitUrl(value) ? parseGitUrl(value) : null;
    if (parsed && 'problem' in parsed) throw new UsageError(`${name}: ${parsed.problem}`);
    return parsed ? value : local(value);
  };
  const stateDir = at(env.EVALFLOW_HOME ?? '.evalflow');

  const candidates: Settings['candidates'] = {};
  // A path-like command ('./agent.sh', '../bin/x') means relative to the config file, not to the sandbox.
  const command = (value: string) => (/^(\.\.?|~)\//.test(value) ? at(value) : value);
  for (const [name, c] of Object.entries(file.candidates)) {
    rejectLiteralSecrets(found ?? configPath, name, c.env);
    const args = c.adapter === 'command' && !c.executable && c.args[0] ? [command(c.args[0]), ...c.args.slice(1)] : c.args;
    candidates[name] = {
      name,
      adapter: c.adapter,
      args,
      env: c.env,
      ...(c.model ? { model: c.model } : {}),
      ...(c.base_url ? { baseUrl: c.base_url } : {}),
      ...(c.api_key_env ? { apiKeyEnv: c.api_key_env } : {}),
      ...(c.executable ? { executable: command(c.executable) } : {}),
      ...(c.turn_timeout_s ? { turnTimeoutS: c.turn_timeout_s } : {}),
      ...(c.isolation ? { isolation: c.isolation } : {}),
      ...(c.network_allow ? { networkAllow: c.network_allow } : {}),
    };
  }

  const endpoint = (role: 'examiner' | 'judge', configured: ConfigFile['examiner']): ModelEndpoint => {
    const upper = role.toUpperCase();
    const model = env[`EVALFLOW_${upper}_MODEL`] ?? configured?.model ?? env.OPENAI_MODEL ?? 'gpt-4o-mini';
    if (configured?.adapter) {
      // An agent CLI has its own endpoint and key variables; OpenAI's defaults do not apply.
      const baseUrl = env[`EVALFLOW_${upper}_BASE_URL`] ?? configured.base_url;
      return {
        model,
        adapter: configured.adapter,
        ...(baseUrl ? { baseUrl } : {}),
        ...(configured.api_key_env ? { apiKeyEnv: configured.api_key_env } : {}),
        ...(configured.executable ? { executable: at(configured.executable) } : {}),
      };
    }
    const baseUrl = env[`EVALFLOW_${upper}_BASE_URL`] ?? configured?.base_url ?? env.OPENAI_BASE_URL;
    return { model, apiKeyEnv: configured?.api_key_env ?? 'OPENAI_API_KEY', ...(baseUrl ? { baseUrl } : {}) };
  };

  const epBaseUrl = env.EVALFLOW_EP_BASE_URL ?? file.edit_prediction?.base_url ?? env.OPENAI_BASE_URL;
  const editPrediction: ModelEndpoint = {
    model: env.EVALFLOW_EP_MODEL ?? file.edit_prediction?.model ?? env.OPENAI_MODEL ?? 'gpt-4o-mini',
    apiKeyEnv: file.edit_prediction?.api_key_env ?? 'OPENAI_API_KEY',
    ...(epBaseUrl ? { baseUrl: epBaseUrl } : {}),
  };

  const tlsFiles = file.temporal.tls && Object.fromEntries(Object.entries(file.temporal.tls).map(([key, value]) => [key, typeof value === 'string' && key.endsWith('_path') ? at(value) : value]));
  const connection = resolveTemporalConnection(env, { ...file.temporal, ...(tlsFiles ? { tls: tlsFiles } : {}) }, found ?? CONFIG_FILE);
  const dbFile = env.EVALFLOW_TEMPORAL_DB ?? file.temporal.db_filename ?? resolve(stateDir, 'temporal.db');
  const databaseUrl = env[file.store.database_url_env] || undefined;
  const runsDir = overrides.runsDir ? flag(overrides.runsDir) : at(env.EVALFLOW_RUNS_DIR ?? file.runs_dir ?? 'runs');
  const settings: Settings = {
    configPath: found,
    root,
    project: overrides.project ? source(overrides.project, flag, '--project') : source(file.project ?? 'examples/project', at),
    workflowDir: overrides.workflowDir ? source(overrides.workflowDir, flag, '--workflow-dir') : source(file.workflow_dir ?? 'examples/workflow', at),
    evalSets: at(file.eval_sets ?? 'eval_sets'),
    runsDir,
    runsDirFrom: overrides.runsDir ? 'flag' : env.EVALFLOW_RUNS_DIR ? 'env' : file.runs_dir ? 'config' : 'default',
    summariesDir: file.summaries_dir ? at(file.summaries_dir) : resolve(runsDir, '..', 'summaries'),
    prices: file.prices ?? {},
    stateDir,
    candidates,
    isolation: isolationFromEnv(env) ?? file.isolation ?? DEFAULT_ISOLATION,
    networkAllow: file.network_allow ?? [],
    defaultCandidate: overrides.candidate ?? file.defaults.candidate ?? 'builtin',
    examiner: endpoint('examiner', file.examiner),
    judge: endpoint('judge', file.judge),
    editPrediction,
    parallelism: file.defaults.parallelism ?? 2,
    runsPerCase: file.defaults.runs_per_case ?? 1,
    turnTimeoutS: file.defaults.turn_timeout_s ?? 900,
    recovery: {
      modelOutageS: file.recovery.model_outage_s ?? DEFAULT_RECOVERY.modelOutageS,
      hostLostAfterS: file.recovery.host_lost_after_s ?? DEFAULT_RECOVERY.hostLostAfterS,
    },
    judging: {
      samples: overrides.judges ?? file.judging.samples ?? DEFAULT_JUDGING.samples,
      review: overrides.review ?? file.judging.review ?? DEFAULT_JUDGING.review,
      allowSelfJudge: overrides.allowSelfJudge ?? file.judging.allow_self_judge ?? DEFAULT_JUDGING.allowSelfJudge,
    },
    databaseUrl,
    pgliteDir: at(file.store.pglite_dir ?? resolve(stateDir, 'pglite')),
    storeSchema: env.EVALFLOW_STORE_SCHEMA ?? file.store.schema,
    storeLingerS: storeLingerFromEnv(env),
    temporal: {
      address: connection.address,
      namespace: connection.namespace,
      dbFilename: at(dbFile),
      port: portFromEnv(env, 'EVALFLOW_TEMPORAL_PORT') ?? file.temporal.port ?? 7233,
      uiPort: portFromEnv(env, 'EVALFLOW_TEMPORAL_UI_PORT') ?? file.temporal.ui_port ?? 8233,
      connection,
    },
    view: { host: file.view.host ?? DEFAULT_VIEW_HOST, port: file.view.port ?? DEFAULT_VIEW_PORT },
    viewerUrl: viewerBaseUrl(file.view),
  };
  if (overrides.candidateModel) settings.candidateModelOverride = overrides.candidateModel;
  return settings;
}

/**
 * The candidate spec for a name: a configured candidate, or an adapter name used directly
 * with defaults (builtin and command-style adapters take the OpenAI-compatible env).
 */
export function resolveCandidate(settings: Settings, name: string, knownAdapters: readonly string[], env: NodeJS.ProcessEnv): CandidateSpec {
  const configured = settings.candidates[name];
  let spec: CandidateSpec;
  if (configured) {
    const { turnTimeoutS: _t, ...rest } = configured;
    spec = rest;
  } else if (knownAdapters.includes(name)) {
    spec = { name, adapter: name, args: [], env: {} };
    if (name === 'builtin') {
      spec.model = env.EVALFLOW_CANDIDATE_MODEL ?? env.OPENAI_MODEL ?? 'gpt-4o-mini';
      if (env.EVALFLOW_CANDIDATE_BASE_URL ?? env.OPENAI_BASE_URL) spec.baseUrl = env.EVALFLOW_CANDIDATE_BASE_URL ?? env.OPENAI_BASE_URL;
      spec.apiKeyEnv = 'OPENAI_API_KEY';
    } else if (env.EVALFLOW_CANDIDATE_MODEL) {
      spec.model = env.EVALFLOW_CANDIDATE_MODEL;
    }
  } else {
    const configuredNames = Object.keys(settings.candidates);
    throw new ConfigError(
      `unknown candidate '${name}': ${configuredNames.length ? `configured candidates are ${configuredNames.join(', ')}; ` : ''}adapters usable by name are ${knownAdapters.join(', ')}`,
    );
  }
  if (settings.candidateModelOverride) spec.model = settings.candidateModelOverride;
  spec.isolation = spec.isolation ?? settings.isolation;
  // A remote base_url is where the candidate's model is: it must reach it, and nothing else.
  const remote = remoteEndpointOf(spec.baseUrl);
  const allow = [...new Set([...(spec.networkAllow ?? []), ...settings.networkAllow, ...(remote ? [remote] : [])])];
  if (allow.length > 0) spec.networkAllow = allow;
  if (!knownAdapters.includes(spec.adapter)) {
    throw new ConfigError(`candidate '${name}' uses unknown adapter '${spec.adapter}'; known adapters: ${knownAdapters.join(', ')}`);
  }
  return spec;
}

/** Turn timeout of a candidate in seconds (its own setting, else the default). */
export function turnTimeoutFor(settings: Settings, name: string): number {
  return settings.candidates[name]?.turnTimeoutS ?? settings.turnTimeoutS;
}

/** EVALFLOW_ISOLATION, when set: it overrides the config file's `isolation` for every candidate without its own. */
function isolationFromEnv(env: NodeJS.ProcessEnv): Isolation | undefined {
  const raw = env.EVALFLOW_ISOLATION;
  if (!raw) return undefined;
  const parsed = IsolationSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(`EVALFLOW_ISOLATION: expected sandbox or none, found '${raw}'`);
  return parsed.data;
}

/** A port from the environment; unset or empty means "not given", anything else must be a port. */
function portFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new ConfigError(`${name}: expected a TCP port (1-65535), found '${raw}'`);
  }
  return port;
}

/**
 * A secret written as a literal in the config would travel in the run's workflow input, which
 * Temporal stores in its history and shows in the Web UI: it must come from the environment.
 */
function rejectLiteralSecrets(file: string, candidate: string, env: Record<string, string>): void {
  const literal = Object.entries(env).filter(([key, value]) => isSecretName(key) && value !== '' && !/\$\{[A-Za-z_][A-Za-z0-9_]*\}/.test(value));
  if (literal.length === 0) return;
  const problems = literal.map(
    ([key]) =>
      `${file}: candidates.${candidate}.env.${key}: expected a reference to an environment variable such as '\${${key}}', found a literal secret (it would be stored in Temporal's history and the run records)`,
  );
  throw new FormatError(problems.join('\n'), problems);
}
