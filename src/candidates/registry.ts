import { ConfigError } from '../errors.js';
import type { LlmClient } from '../llm/port.js';
import type { WorkflowSupport } from '../workflowUsage/workflowSupport.js';
import type { Candidate, CandidateSpec, CliAdapter, NormalizerFactory } from './adapter.js';
import { createBuiltinCandidate } from './builtin.js';
import { builtinWorkflow } from './builtinWorkflow.js';
import { claudeCode } from './claudeCode.js';
import { createCliCandidate } from './cliCandidate.js';
import { findCliInstallation } from './cliVersion.js';
import { codebuddy } from './codebuddy.js';
import { codex } from './codex.js';
import { commandWorkflow, createCommandCandidate } from './command.js';
import { cursorAgent } from './cursorAgent.js';
import { createCommandStreamNormalizer } from './normalizers/commandStream.js';
import { gemini } from './gemini.js';
import { opencode } from './opencode.js';
import { qwenCode } from './qwenCode.js';

/** What a candidate needs to know of the run it serves. */
export interface CandidateRunLimits {
  /** How long its model endpoint may keep failing before the turn fails (the builtin agent waits it out). */
  modelOutageS?: number;
}

/** What a candidate needs from the composition root. */
export interface CandidateDeps {
  hostEnv: NodeJS.ProcessEnv;
  /** The model client for the builtin candidate (role `candidate`), built from the spec. */
  llmFor(endpoint: { model: string; baseUrl?: string; apiKeyEnv?: string }): LlmClient;
}

export interface CandidateAdapterEntry {
  /** The agent CLI this adapter runs (absent for `command` and `builtin`). */
  cli?: CliAdapter;
  /** One line for `evalflow candidates`. */
  description: string;
  /** Where it discovers the workflow's folders, and how its stream shows them used. */
  workflow: WorkflowSupport;
  /** The stream normaliser of its stdout, for `evalflow candidates normalize` (absent for builtin). */
  normalizer?: NormalizerFactory;
  create(spec: CandidateSpec, deps: CandidateDeps, run: CandidateRunLimits): Candidate;
}

function cliEntry(cli: CliAdapter): CandidateAdapterEntry {
  return { cli, description: cli.cli, workflow: cli.workflow, normalizer: cli.createNormalizer, create: (_spec, deps) => createCliCandidate(cli, { hostEnv: deps.hostEnv }) };
}

/** Every candidate adapter by its exact name (no prefix matching). */
const CANDIDATE_ADAPTERS = {
  'claude-code': cliEntry(claudeCode),
  codex: cliEntry(codex),
  'cursor-agent': cliEntry(cursorAgent),
  codebuddy: cliEntry(codebuddy),
  'qwen-code': cliEntry(qwenCode),
  gemini: cliEntry(gemini),
  opencode: cliEntry(opencode),
  command: {
    description: 'any executable: the message on stdin, plain text or Claude-style stream-json on stdout',
    workflow: commandWorkflow,
    normalizer: createCommandStreamNormalizer,
    create: (_spec, deps) => createCommandCandidate({ hostEnv: deps.hostEnv }),
  },
  builtin: {
    description: 'evalflow\'s own small tool-calling agent over the candidate model endpoint',
    workflow: builtinWorkflow,
    create: (spec, deps, run) => {
      if (!spec.model) throw new ConfigError(`candidate "${spec.name}": adapter builtin needs a model (the model its tool-calling agent uses)`);
      const llm = deps.llmFor({ model: spec.model, ...(spec.baseUrl ? { baseUrl: spec.baseUrl } : {}), ...(spec.apiKeyEnv ? { apiKeyEnv: spec.apiKeyEnv } : {}) });
      return createBuiltinCandidate({ llm, hostEnv: deps.hostEnv, ...(run.modelOutageS !== undefined ? { modelOutageMs: run.modelOutageS * 1000 } : {}) });
    },
  },
} satisfies Record<string, CandidateAdapterEntry>;

export type CandidateAdapterName = keyof typeof CANDIDATE_ADAPTERS;

export const CANDIDATE_ADAPTER_NAMES = Object.keys(CANDIDATE_ADAPTERS) as CandidateAdapterName[];

/** The adapter names as config validation wants them. */
export const knownAdapterNames: readonly string[] = CANDIDATE_ADAPTER_NAMES;

/** The adapter registered under `name`; an unknown name is a ConfigError listing the known ones. */
export function getCandidateAdapter(name: string): CandidateAdapterEntry {
  if (!Object.hasOwn(CANDIDATE_ADAPTERS, name)) {
    throw new ConfigError(`unknown candidate adapter "${name}"; known adapters: ${[...CANDIDATE_ADAPTER_NAMES].sort().join(', ')}`);
  }
  return CANDIDATE_ADAPTERS[name as CandidateAdapterName];
}

/** The agent CLI behind `name`; `command`, `builtin` and unknown names are ConfigErrors. */
export function getCliAdapter(name: string): CliAdapter {
  const entry = getCandidateAdapter(name);
  if (!entry.cli) {
    const clis = CANDIDATE_ADAPTER_NAMES.filter((key) => getCandidateAdapter(key).cli).sort();
    throw new ConfigError(`adapter "${name}" is not an agent CLI; agent CLI adapters: ${clis.join(', ')}`);
  }
  return entry.cli;
}

/**
 * What the worker hands to activities: candidates built from specs, where each adapter wants
 * the workflow snapshot (and how its stream shows it used), and the CLI version for env_checklist.yaml.
 */
export function createCandidateFactory(options: { env: NodeJS.ProcessEnv; llmFor: CandidateDeps['llmFor'] }) {
  const deps: CandidateDeps = { hostEnv: options.env, llmFor: options.llmFor };
  return {
    create: (spec: CandidateSpec, run: CandidateRunLimits = {}): Candidate => getCandidateAdapter(spec.adapter).create(spec, deps, run),
    workflowSupport: (adapter: string): WorkflowSupport => getCandidateAdapter(adapter).workflow,
    async version(spec: CandidateSpec): Promise<string | null> {
      const cli = getCandidateAdapter(spec.adapter).cli;
      if (!cli) return null;
      return (await findCliInstallation(cli, { hostEnv: options.env, ...(spec.executable ? { executable: spec.executable } : {}) })).version;
    },
  };
}
