import type { ModelEndpoint, Settings } from '../../config.js';
import { findInstalledClis, type InstalledCli } from '../../candidates/index.js';
import { whyCannotContain } from '../../containment/index.js';
import { DEFAULT_OPENAI_BASE_URL, shownEndpoint, whyUnreachable } from '../../llm/endpointReachable.js';
import type { PreflightRow } from './preflightTable.js';

/** How long a model endpoint may take to accept a TCP connection before it is shown missing. */
const ENDPOINT_TIMEOUT_MS = 2_000;

/**
 * What this host offers besides Temporal and the store: containment, the agent CLIs, the
 * examiner's and judge's endpoints. None stops the worker, except containment when the
 * worker's isolation is `sandbox` (`fatal`): it would fail every contained run it took.
 */
export async function hostChecks(settings: Settings, env: NodeJS.ProcessEnv): Promise<{ rows: PreflightRow[]; fatal: string | null }> {
  const [clis, examiner, judge] = await Promise.all([findInstalledClis(env), endpointState(settings.examiner, env), endpointState(settings.judge, env)]);
  const containment = containmentRow(settings);
  return {
    rows: [
      containment,
      { check: 'examiner', ...viaCli(settings.examiner, clis, examiner) },
      { check: 'judge', ...viaCli(settings.judge, clis, judge) },
      ...clis.map((found): PreflightRow => ({
        check: `agent CLI ${found.adapter}`,
        ...(found.path ? { state: 'ok' as const, detail: found.path } : { state: 'missing' as const, detail: `not installed: runs of ${found.adapter} candidates go to other hosts (${found.cli.setup})` }),
      })),
    ],
    fatal: containment.state === 'failed' ? `this worker cannot contain candidates (isolation: sandbox): ${containment.detail}` : null,
  };
}

function containmentRow(settings: Settings): PreflightRow {
  const why = whyCannotContain();
  if (settings.isolation === 'sandbox') return why ? { check: 'containment', state: 'failed', detail: why } : { check: 'containment', state: 'ok', detail: 'bubblewrap with user namespaces (isolation: sandbox)' };
  // Off by config; a batch whose candidate asks for a sandbox still needs bubblewrap here.
  return { check: 'containment', state: 'off', detail: `isolation: none; bubblewrap ${why ? `unavailable: ${why}` : 'available for candidates that ask for a sandbox'}` };
}

type EndpointState = Omit<PreflightRow, 'check'>;

/** An OpenAI-compatible endpoint: reachable over TCP (nothing sent), and whether its key variable is set (never its value). */
async function endpointState(endpoint: ModelEndpoint, env: NodeJS.ProcessEnv): Promise<EndpointState | null> {
  if (endpoint.adapter) return null;
  const url = endpoint.baseUrl ?? env.OPENAI_BASE_URL ?? DEFAULT_OPENAI_BASE_URL;
  const key = endpoint.apiKeyEnv ? `, key ${endpoint.apiKeyEnv} ${env[endpoint.apiKeyEnv] ? 'set' : 'unset'}` : '';
  const why = await whyUnreachable(url, ENDPOINT_TIMEOUT_MS);
  const where = `${shownEndpoint(url)} (model ${endpoint.model}${key})`;
  return why ? { state: 'missing', detail: `${where} unreachable: ${why}` } : { state: 'ok', detail: where };
}

/** An endpoint served by an agent CLI in text-only mode is there when its CLI is. */
function viaCli(endpoint: ModelEndpoint, clis: readonly InstalledCli[], probed: EndpointState | null): EndpointState {
  if (probed) return probed;
  const found = clis.find((cli) => cli.adapter === endpoint.adapter);
  const detail = `agent CLI ${endpoint.adapter ?? '?'} in text-only mode (model ${endpoint.model})`;
  return found?.path || endpoint.executable ? { state: 'ok', detail } : { state: 'missing', detail: `${detail}: not installed` };
}
