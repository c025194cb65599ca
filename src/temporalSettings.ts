import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import * as z from 'zod';
import { ConfigError } from './errors.js';

/**
 * How evalflow reaches a Temporal server, the settings every Temporal client takes: address,
 * namespace, TLS (server CA, client certificate and key, server name) and an API key. They
 * come, highest first, from the `TEMPORAL_*` variables, evalflow's `temporal:` config section,
 * and a profile of the `temporal` CLI's TOML file (Temporal's environment configuration, the
 * same names as `@temporalio/envconfig`).
 */
export const TemporalTlsSchema = z
  .object({
    disabled: z.boolean().optional(),
    server_ca_cert_path: z.string().optional(),
    server_ca_cert_data: z.string().optional(),
    client_cert_path: z.string().optional(),
    client_cert_data: z.string().optional(),
    client_key_path: z.string().optional(),
    client_key_data: z.string().optional(),
    server_name: z.string().optional(),
    disable_host_verification: z.boolean().optional(),
  })
  .strict();

/** One profile of the TOML file; evalflow's `temporal:` section takes the same keys (api_key as api_key_env). */
export const TemporalProfileSchema = z
  .object({
    address: z.string().optional(),
    namespace: z.string().optional(),
    api_key: z.string().optional(),
    tls: TemporalTlsSchema.optional(),
    grpc_meta: z.record(z.string(), z.string()).optional(),
  })
  .passthrough();
export type TemporalProfile = z.infer<typeof TemporalProfileSchema>;
export type TemporalTls = z.infer<typeof TemporalTlsSchema>;

const TomlFileSchema = z.object({ profile: z.record(z.string(), TemporalProfileSchema).default({}) }).passthrough();

/** The resolved connection (no secrets read from files yet: `connectionOptionsOf` reads them). */
export interface TemporalConnection {
  address: string | undefined;
  namespace: string;
  apiKey: string | undefined;
  /** undefined: plain TCP; otherwise the TLS settings (possibly empty: TLS with the system CAs). */
  tls: TemporalTls | undefined;
  /** Where each setting came from, for error lines ("TEMPORAL_TLS_CLIENT_CERT_PATH", "temporal.tls.client_cert_path in evalflow.yaml", …). */
  sources: Record<string, string>;
}

/** Where this process finds Temporal: the `temporal` part of `Settings`, all `connectTemporal` reads. */
export interface TemporalSettings {
  address: string | undefined;
  namespace: string;
  dbFilename: string;
  port: number;
  uiPort: number;
  connection: TemporalConnection;
}

/** The TOML file the `temporal` CLI reads: TEMPORAL_CONFIG_FILE, else temporalio/temporal.toml in the user's config dir. */
export function temporalConfigFile(env: NodeJS.ProcessEnv): string {
  if (env.TEMPORAL_CONFIG_FILE) return env.TEMPORAL_CONFIG_FILE;
  const home = env.HOME ?? homedir();
  const configDir = env.XDG_CONFIG_HOME ?? (process.platform === 'darwin' ? join(home, 'Library', 'Application Support') : join(home, '.config'));
  return join(configDir, 'temporalio', 'temporal.toml');
}

function readProfile(env: NodeJS.ProcessEnv): { profile: TemporalProfile; where: string } {
  const file = temporalConfigFile(env);
  const name = env.TEMPORAL_PROFILE ?? 'default';
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // No file is the usual case; a profile asked for by name must exist.
    if (code === 'ENOENT' && !env.TEMPORAL_CONFIG_FILE && !env.TEMPORAL_PROFILE) return { profile: {}, where: file };
    throw new ConfigError(`${env.TEMPORAL_CONFIG_FILE ? 'TEMPORAL_CONFIG_FILE' : 'the Temporal config file'} ${file}: cannot read it (${code ?? (err as Error).message}); fix the path or unset TEMPORAL_CONFIG_FILE/TEMPORAL_PROFILE`);
  }
  let parsed: z.infer<typeof TomlFileSchema>;
  try {
    const result = TomlFileSchema.safeParse(parseToml(text));
    if (!result.success) {
      const issue = result.error.issues[0]!;
      throw new Error(`${issue.path.join('.')}: ${issue.message}`);
    }
    parsed = result.data;
  } catch (err) {
    throw new ConfigError(`${file}: not a valid Temporal config file (${(err as Error).message.split('\n')[0]}); fix it or point TEMPORAL_CONFIG_FILE elsewhere`);
  }
  const profile = parsed.profile[name];
  if (!profile) {
    if (env.TEMPORAL_PROFILE) throw new ConfigError(`TEMPORAL_PROFILE=${name}: ${file} has no [profile.${name}] (it has ${Object.keys(parsed.profile).join(', ') || 'none'})`);
    return { profile: {}, where: file };
  }
  return { profile, where: `${file} [profile.${name}]` };
}

const TLS_ENV: Record<keyof TemporalTls, string> = {
  disabled: 'TEMPORAL_TLS',
  server_ca_cert_path: 'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
  server_ca_cert_data: 'TEMPORAL_TLS_SERVER_CA_CERT_DATA',
  client_cert_path: 'TEMPORAL_TLS_CLIENT_CERT_PATH',
  client_cert_data: 'TEMPORAL_TLS_CLIENT_CERT_DATA',
  client_key_path: 'TEMPORAL_TLS_CLIENT_KEY_PATH',
  client_key_data: 'TEMPORAL_TLS_CLIENT_KEY_DATA',
  server_name: 'TEMPORAL_TLS_SERVER_NAME',
  disable_host_verification: 'TEMPORAL_TLS_DISABLE_HOST_VERIFICATION',
};

function envBool(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new ConfigError(`${name}=${value}: expected true or false`);
}

/**
 * Resolves the connection: `fromConfig` is evalflow's `temporal:` section (api_key_env names
 * the variable holding the key, so no key sits in a project's config), `configName` the file
 * it came from. A path relative in the config is resolved by the caller.
 */
export function resolveTemporalConnection(env: NodeJS.ProcessEnv, fromConfig: TemporalProfile & { api_key_env?: string | undefined }, configName: string): TemporalConnection {
  const { profile, where } = readProfile(env);
  const sources: Record<string, string> = {};
  const pick = <T>(key: string, envName: string, envValue: T | undefined, configValue: T | undefined, profileValue: T | undefined): T | undefined => {
    if (envValue !== undefined && envValue !== '') return ((sources[key] = envName), envValue);
    if (configValue !== undefined) return ((sources[key] = `temporal.${key} in ${configName}`), configValue);
    if (profileValue !== undefined) return ((sources[key] = `${key} in ${where}`), profileValue);
    return undefined;
  };
  const address = pick('address', 'TEMPORAL_ADDRESS', env.TEMPORAL_ADDRESS, fromConfig.address, profile.address);
  const namespace = pick('namespace', 'TEMPORAL_NAMESPACE', env.TEMPORAL_NAMESPACE, fromConfig.namespace, profile.namespace) ?? 'default';
  const keyFromConfig = fromConfig.api_key_env ? env[fromConfig.api_key_env] : undefined;
  if (fromConfig.api_key_env && !keyFromConfig) throw new ConfigError(`temporal.api_key_env in ${configName} names ${fromConfig.api_key_env}, which is not set: export it or remove api_key_env`);
  const apiKey = pick('api_key', 'TEMPORAL_API_KEY', env.TEMPORAL_API_KEY, keyFromConfig, profile.api_key);
  if (apiKey !== undefined && fromConfig.api_key_env && sources.api_key?.startsWith('temporal.')) sources.api_key = fromConfig.api_key_env;
  const tls: TemporalTls = {};
  for (const key of Object.keys(TLS_ENV) as (keyof TemporalTls)[]) {
    const envName = TLS_ENV[key];
    const envValue = key === 'disabled' ? invert(envBool(env, envName)) : key === 'disable_host_verification' ? envBool(env, envName) : env[envName];
    const value = pick(`tls.${key}`, envName, envValue, fromConfig.tls?.[key], profile.tls?.[key]);
    if (value !== undefined) (tls as Record<string, unknown>)[key] = value;
  }
  // As Temporal's clients do: TLS when anything about it is set or an API key is (Cloud), unless disabled.
  const anyTls = Object.keys(tls).some((key) => key !== 'disabled');
  const useTls = tls.disabled === true ? false : anyTls || apiKey !== undefined || tls.disabled === false;
  delete tls.disabled;
  return { address, namespace, apiKey, tls: useTls ? tls : undefined, sources };
}

const invert = (value: boolean | undefined) => (value === undefined ? undefined : !value);
