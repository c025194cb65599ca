import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings, resolveCandidate, turnTimeoutFor } from '../src/config.js';
import { ConfigError } from '../src/errors.js';
import { ADAPTERS, fixture, FULL_CONFIG, settingsFor } from './support/configFixture.js';

describe('isolation', () => {
  it('is sandbox by default, none where the config or EVALFLOW_ISOLATION says, per candidate where its entry says', async () => {
    expect((await settingsFor('')).settings.isolation).toBe('sandbox');
    const { settings } = await settingsFor('isolation: none\ncandidates:\n  boxed:\n    adapter: codex\n    isolation: sandbox\n');
    expect(settings.isolation).toBe('none');
    expect(resolveCandidate(settings, 'boxed', ADAPTERS, {}).isolation).toBe('sandbox');
    expect(resolveCandidate(settings, 'codex', ADAPTERS, {}).isolation).toBe('none');
    const root = await mkdtemp(join(tmpdir(), 'evalflow-config-'));
    expect((await loadSettings(root, { EVALFLOW_ISOLATION: 'none' })).isolation).toBe('none');
  });

  it('network_allow: the top-level list, the candidate\'s own and its remote base_url, exactly; a bad entry names its field', async () => {
    const { settings } = await settingsFor(
      'network_allow: [api.anthropic.com:443]\ncandidates:\n  cloud:\n    adapter: codex\n    base_url: https://llm.example.com/v1\n    network_allow: [files.example.com:8443]\n  local:\n    adapter: codex\n    base_url: http://127.0.0.1:9000/v1\n',
    );
    expect(resolveCandidate(settings, 'cloud', ADAPTERS, {}).networkAllow).toEqual(['files.example.com:8443', 'api.anthropic.com:443', 'llm.example.com:443']);
    expect(resolveCandidate(settings, 'local', ADAPTERS, {}).networkAllow).toEqual(['api.anthropic.com:443']);
    await expect(settingsFor('network_allow: [https://api.anthropic.com]\n')).rejects.toThrow(/network_allow\.0: expected host:port, e\.g\. api\.anthropic\.com:443/);
  });

  it('refuses an unknown mode, naming the file or variable and what is expected', async () => {
    await expect(settingsFor('isolation: docker\n')).rejects.toThrow(/evalflow\.config\.yaml.*isolation.*(sandbox|none)/s);
    await expect(settingsFor('candidates:\n  x:\n    adapter: codex\n    isolation: off\n')).rejects.toThrow(/candidates\.x\.isolation/);
    const root = await mkdtemp(join(tmpdir(), 'evalflow-config-'));
    await expect(loadSettings(root, { EVALFLOW_ISOLATION: 'off' })).rejects.toThrow("EVALFLOW_ISOLATION: expected sandbox or none, found 'off'");
  });
});

describe('resolveCandidate', () => {
  it('returns a configured candidate without its turn timeout', async () => {
    const { settings } = await settingsFor(FULL_CONFIG);
    expect(resolveCandidate(settings, 'claude-sonnet', ADAPTERS, {})).toEqual({
      name: 'claude-sonnet',
      adapter: 'claude-code',
      model: 'sonnet',
      args: ['--verbose'],
      env: { FOO: 'bar' },
      apiKeyEnv: 'ANTHROPIC_API_KEY',
      isolation: 'sandbox',
    });
  });

  it('uses an adapter name directly with defaults', async () => {
    const { settings } = await settingsFor('');
    expect(resolveCandidate(settings, 'codex', ADAPTERS, {})).toEqual({ name: 'codex', adapter: 'codex', args: [], env: {}, isolation: 'sandbox' });
    expect(resolveCandidate(settings, 'codex', ADAPTERS, { EVALFLOW_CANDIDATE_MODEL: 'gpt-5' }).model).toBe('gpt-5');
  });

  it('gives builtin the OpenAI-compatible environment', async () => {
    const { settings } = await settingsFor('');
    const env = { OPENAI_MODEL: 'm1', OPENAI_BASE_URL: 'http://127.0.0.1:5000/v1' };
    expect(resolveCandidate(settings, 'builtin', ADAPTERS, env)).toEqual({
      name: 'builtin',
      adapter: 'builtin',
      args: [],
      env: {},
      model: 'm1',
      baseUrl: 'http://127.0.0.1:5000/v1',
      apiKeyEnv: 'OPENAI_API_KEY',
      isolation: 'sandbox',
    });
    const specific = resolveCandidate(settings, 'builtin', ADAPTERS, { ...env, EVALFLOW_CANDIDATE_MODEL: 'm2', EVALFLOW_CANDIDATE_BASE_URL: 'http://127.0.0.1:6000/v1' });
    expect(specific).toMatchObject({ model: 'm2', baseUrl: 'http://127.0.0.1:6000/v1' });
    expect(resolveCandidate(settings, 'builtin', ADAPTERS, {})).not.toHaveProperty('baseUrl');
    expect(resolveCandidate(settings, 'builtin', ADAPTERS, {}).model).toBe('gpt-4o-mini');
  });

  it('lists configured candidates and adapters for an unknown name', async () => {
    const { settings } = await settingsFor('candidates:\n  fast:\n    adapter: codex\n  slow:\n    adapter: claude-code\n');
    expect(() => resolveCandidate(settings, 'gemini', ADAPTERS, {})).toThrow(ConfigError);
    expect(() => resolveCandidate(settings, 'gemini', ADAPTERS, {})).toThrow(
      "unknown candidate 'gemini': configured candidates are fast, slow; adapters usable by name are builtin, command, claude-code, codex",
    );
    const bare = await settingsFor('');
    expect(() => resolveCandidate(bare.settings, 'gemini', ADAPTERS, {})).toThrow(
      "unknown candidate 'gemini': adapters usable by name are builtin, command, claude-code, codex",
    );
  });

  it('rejects a configured candidate whose adapter does not exist', async () => {
    const { settings } = await settingsFor('candidates:\n  odd:\n    adapter: cursor\n');
    expect(() => resolveCandidate(settings, 'odd', ADAPTERS, {})).toThrow(
      "candidate 'odd' uses unknown adapter 'cursor'; known adapters: builtin, command, claude-code, codex",
    );
  });

  it('applies --candidate-model to configured and adapter candidates', async () => {
    const root = await fixture({ 'evalflow.config.yaml': FULL_CONFIG });
    const settings = await loadSettings(root, {}, { candidateModel: 'opus', candidate: 'codex' });
    expect(settings.defaultCandidate).toBe('codex');
    expect(resolveCandidate(settings, 'claude-sonnet', ADAPTERS, {}).model).toBe('opus');
    expect(resolveCandidate(settings, 'builtin', ADAPTERS, { OPENAI_MODEL: 'm1' }).model).toBe('opus');
    expect(settings.candidates['claude-sonnet']?.model).toBe('sonnet');
  });
});

describe('turnTimeoutFor', () => {
  it("uses the candidate's own timeout, else the default", async () => {
    const { settings } = await settingsFor(FULL_CONFIG);
    expect(turnTimeoutFor(settings, 'claude-sonnet')).toBe(120);
    expect(turnTimeoutFor(settings, 'codex')).toBe(600);
    expect(turnTimeoutFor((await settingsFor('')).settings, 'builtin')).toBe(900);
  });
});
