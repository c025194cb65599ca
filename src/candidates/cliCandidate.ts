import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ConfigError } from '../errors.js';
import type { Candidate, CandidateSpec, CliAdapter, InvocationContext, TurnRequest, TurnResult } from './adapter.js';
import { buildCandidateEnv, resolveApiKey } from './candidateEnv.js';
import { executablesOf } from './agentCache.js';
import { networkFrom, runAgentTurn } from './agentTurn.js';
import { findExecutable, forgetSession, stableSessionId } from './sessionFiles.js';

export interface CliCandidateDeps {
  /** The host environment secrets and PATH are read from (default `process.env`). */
  hostEnv?: NodeJS.ProcessEnv;
  /** `loopback` runs the agent in a network namespace with only `lo` (default: EVALFLOW_CANDIDATE_NETNS). */
  network?: 'host' | 'loopback';
  killGraceMs?: number;
}

/** A stand-in key when a custom endpoint needs none: most CLIs refuse to start without one. */
const PLACEHOLDER_KEY = 'evalflow-no-key';

/**
 * The one generic agent-CLI candidate: build the turn's invocation from the adapter's data,
 * run it in the sandbox with a scrubbed environment, normalise its stream while it runs, and
 * return the reply, the session for the next turn and this turn's usage — or throw
 * `CandidateError` with the exit code and stderr tail.
 */
export function createCliCandidate(adapter: CliAdapter, deps: CliCandidateDeps = {}): Candidate {
  const hostEnv = deps.hostEnv ?? process.env;
  return {
    async runTurn(request: TurnRequest): Promise<TurnResult> {
      const resume = request.session?.id !== undefined;
      const sessionId = request.session?.id ?? (adapter.sessionId === 'preassigned' ? stableSessionId(request.runId) : undefined);
      if (!resume && sessionId) await forgetSession(request.homeDir, sessionId);
      const invocation = await prepareInvocation(adapter, request.candidate, hostEnv, {
        message: request.message,
        sessionId,
        resume,
        sandboxDir: request.sandboxDir,
        homeDir: request.homeDir,
        textOnly: false,
      });
      const normalizer = adapter.createNormalizer({
        cwd: request.sandboxDir,
        ...(request.session?.cumulativeUsage ? { previousCumulative: request.session.cumulativeUsage } : {}),
      });
      const outcome = await runAgentTurn(request, invocation, normalizer, {
        network: deps.network ?? networkFrom(hostEnv),
        ...(request.candidate.baseUrl ? { baseUrl: request.candidate.baseUrl } : {}),
        label: `${request.candidate.name} (${adapter.name}) turn ${request.turn}`,
        setupHint: cliSetupHint(adapter),
        ...(deps.killGraceMs !== undefined ? { killGraceMs: deps.killGraceMs } : {}),
      });
      const nextId = outcome.sessionId ?? sessionId;
      return {
        reply: outcome.reply,
        session: {
          ...request.session,
          ...(nextId ? { id: nextId } : {}),
          ...(outcome.cumulativeUsage ? { cumulativeUsage: outcome.cumulativeUsage } : {}),
        },
        ...(outcome.usage ? { usage: outcome.usage } : {}),
        ...(outcome.notes ? { notes: outcome.notes } : {}),
      };
    },
  };
}

/** How to make a CLI adapter's program startable, for messages. */
export function cliSetupHint(cli: CliAdapter): string {
  return `install ${cli.cli} with: ${cli.setup} (or set executable: to its path)`;
}

export interface PreparedInvocation {
  command: string;
  args: string[];
  env: Record<string, string>;
  stdin?: string;
}

/**
 * Everything but running: the executable (spec override, else the first adapter name on the
 * scrubbed PATH), arguments, environment, and the adapter's settings files in the private HOME.
 */
export async function prepareInvocation(
  adapter: CliAdapter,
  spec: CandidateSpec,
  hostEnv: NodeJS.ProcessEnv,
  turn: { message: string; sessionId: string | undefined; resume: boolean; sandboxDir: string; homeDir: string; textOnly: boolean },
): Promise<PreparedInvocation> {
  if (spec.baseUrl && !adapter.baseUrlVia) {
    throw new ConfigError(`candidate "${spec.name}": adapter ${adapter.name} cannot use a custom base_url (${adapter.cli} always calls its vendor's backend); remove base_url`);
  }
  const apiKey = resolveApiKey(spec, hostEnv, adapter.apiKeyEnv) ?? (spec.baseUrl ? PLACEHOLDER_KEY : undefined);
  const ctx: InvocationContext = {
    message: turn.message,
    resume: turn.resume,
    extraArgs: spec.args,
    sandboxDir: turn.sandboxDir,
    homeDir: turn.homeDir,
    ...(spec.model ? { model: spec.model } : {}),
    ...(turn.sessionId ? { sessionId: turn.sessionId } : {}),
    ...(spec.baseUrl ? { baseUrl: spec.baseUrl } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(spec.apiKeyEnv ? { apiKeyEnvName: spec.apiKeyEnv } : {}),
  };
  await mkdir(turn.homeDir, { recursive: true });
  for (const [relativePath, content] of Object.entries(adapter.homeFiles(ctx))) {
    const path = join(turn.homeDir, relativePath);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content, { mode: 0o600 });
  }
  const env = buildCandidateEnv({ hostEnv, homeDir: turn.homeDir, adapterEnv: adapter.env(ctx), spec });
  const command = spec.executable ?? (await findExecutable(executablesOf(adapter, hostEnv), env.PATH)) ?? adapter.executables[0] ?? adapter.name;
  const args = turn.textOnly ? adapter.textOnlyArgs(ctx) : adapter.args(ctx);
  return { command, args, env, ...(adapter.prompt === 'stdin' ? { stdin: turn.message } : {}) };
}
