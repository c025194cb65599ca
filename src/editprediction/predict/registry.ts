import { ConfigError } from '../../errors.js';
import type { LlmClient, LlmRole } from '../../llm/port.js';
import { createNoopProvider } from './noop.js';
import { createOpenAiProvider } from './openai.js';
import type { EditPredictionProvider } from './provider.js';
import { PROVIDER_NAMES, type ProviderName } from './providerNames.js';

export { PROVIDER_NAMES, type ProviderName };

export interface ProviderDeps {
  /** Required by `openai`. */
  llm?: LlmClient;
  role?: LlmRole;
  model?: string;
}

const providers = {
  noop: () => createNoopProvider(),
  openai: (deps: ProviderDeps) => {
    if (!deps.llm) throw new ConfigError('provider openai needs an OpenAI-compatible model client (set OPENAI_BASE_URL and the candidate model)');
    return createOpenAiProvider({ llm: deps.llm, ...(deps.role ? { role: deps.role } : {}), ...(deps.model ? { model: deps.model } : {}) });
  },
} satisfies Record<ProviderName, (deps: ProviderDeps) => EditPredictionProvider>;

/** Build a provider by its `--provider` name; an unknown name lists the known ones. */
export function createPredictionProvider(name: string, deps: ProviderDeps = {}): EditPredictionProvider {
  if (!Object.hasOwn(providers, name)) {
    throw new ConfigError(`--provider: unknown provider ${JSON.stringify(name)}; expected one of ${PROVIDER_NAMES.join(', ')}`);
  }
  return providers[name as ProviderName](deps);
}
