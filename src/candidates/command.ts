import { mkdir } from 'node:fs/promises';
import { ConfigError } from '../errors.js';
import type { WorkflowSupport } from '../workflowUsage/workflowSupport.js';
import type { Candidate, CandidateSpec, TurnRequest, TurnResult } from './adapter.js';
import { networkFrom, runAgentTurn } from './agentTurn.js';
import { buildCandidateEnv, resolveApiKey } from './candidateEnv.js';
import type { CliCandidateDeps } from './cliCandidate.js';
import { createCommandStreamNormalizer } from './normalizers/commandStream.js';
import { stableSessionId } from './sessionFiles.js';

/** The `command` candidate finds the run's workflow snapshot here (also in EVALFLOW_WORKFLOW_DIR). */
export const commandWorkflow: WorkflowSupport = {
  native: {},
  contextFile: 'AGENTS.md',
  linkedAt: '.evalflow-workflow',
  skillTool: true,
  skillReadInvokes: false,
  subagents: 'task',
  slashCommands: false,
  silentRules: false,
  // Any program: what it reads without telling is not in its stream.
  observable: false,
};

/**
 * Any executable as the candidate: `args` (or `executable` + `args`) is the command, run in the
 * sandbox with the user message on stdin. Claude-style stream-json on stdout is parsed;
 * otherwise the whole stdout is the reply. A non-zero exit fails the turn. The script learns
 * its context from EVALFLOW_RUN_ID, EVALFLOW_TURN, EVALFLOW_SESSION_ID (a stable UUID on turn 1,
 * then whatever session id its stream reported), EVALFLOW_MODEL, EVALFLOW_BASE_URL and
 * EVALFLOW_WORKFLOW_DIR; the API key, if any, under the spec's own `api_key_env` name.
 */
export function createCommandCandidate(deps: CliCandidateDeps = {}): Candidate {
  const hostEnv = deps.hostEnv ?? process.env;
  return {
    async runTurn(request: TurnRequest): Promise<TurnResult> {
      const spec = request.candidate;
      const [command, ...args] = commandLineOf(spec);
      await mkdir(request.homeDir, { recursive: true });
      const sessionId = request.session?.id ?? stableSessionId(request.runId);
      const apiKey = resolveApiKey(spec, hostEnv);
      const adapterEnv: Record<string, string> = {
        EVALFLOW_RUN_ID: request.runId,
        EVALFLOW_TURN: String(request.turn),
        EVALFLOW_SESSION_ID: sessionId,
        EVALFLOW_WORKFLOW_DIR: `${request.sandboxDir}/${commandWorkflow.linkedAt}`,
        ...(spec.model ? { EVALFLOW_MODEL: spec.model } : {}),
        ...(spec.baseUrl ? { EVALFLOW_BASE_URL: spec.baseUrl } : {}),
        ...(apiKey && spec.apiKeyEnv ? { [spec.apiKeyEnv]: apiKey } : {}),
      };
      const env = buildCandidateEnv({ hostEnv, homeDir: request.homeDir, adapterEnv, spec });
      const normalizer = createCommandStreamNormalizer({
        cwd: request.sandboxDir,
        ...(request.session?.cumulativeUsage ? { previousCumulative: request.session.cumulativeUsage } : {}),
      });
      const outcome = await runAgentTurn(request, { command, args, env, stdin: request.message }, normalizer, {
        network: deps.network ?? networkFrom(hostEnv),
        ...(spec.baseUrl ? { baseUrl: spec.baseUrl } : {}),
        label: `${spec.name} (command) turn ${request.turn}`,
        setupHint: COMMAND_HINT,
        ...(deps.killGraceMs !== undefined ? { killGraceMs: deps.killGraceMs } : {}),
      });
      return {
        reply: outcome.reply,
        session: { ...request.session, id: outcome.sessionId ?? sessionId },
        ...(outcome.usage ? { usage: outcome.usage } : {}),
        ...(outcome.notes ? { notes: outcome.notes } : {}),
      };
    },
  };
}

/** How to make a `command` candidate startable, for messages. */
export const COMMAND_HINT = 'args[0] (or executable) must name an executable file';

/** The command line of a `command` candidate: `executable` + `args`, or `args` alone. */
export function commandLineOf(spec: CandidateSpec): [string, ...string[]] {
  const [command, ...args] = spec.executable ? [spec.executable, ...spec.args] : spec.args;
  if (!command) {
    throw new ConfigError(`candidate "${spec.name}": adapter command needs the command to run in args (e.g. args: [./agent.sh]) or executable`);
  }
  return [command, ...args];
}
