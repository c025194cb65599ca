/** Who predicts, by `--provider` name; kept apart from the registry so a flag check loads no provider. */
export const PROVIDER_NAMES = ['noop', 'openai'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];
