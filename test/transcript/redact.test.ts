import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/transcript/redact.js';

describe('createRedactor', () => {
  it('redacts values of secret-looking variables and leaves the rest', () => {
    const redact = createRedactor({
      OPENAI_API_KEY: 'sk-live-0123456789',
      GITHUB_TOKEN: 'ghp_abcdefghijkl',
      DB_PASSWORD: 'hunter2hunter2',
      HOME: '/home/someone-long',
      PATH: '/usr/bin:/bin',
    });
    expect(redact.size).toBe(3);
    expect(redact('key=sk-live-0123456789 token=ghp_abcdefghijkl pw=hunter2hunter2 home=/home/someone-long')).toBe(
      'key=[REDACTED:OPENAI_API_KEY] token=[REDACTED:GITHUB_TOKEN] pw=[REDACTED:DB_PASSWORD] home=/home/someone-long',
    );
  });

  it('matches secret names case-insensitively and redacts every occurrence', () => {
    const redact = createRedactor({ my_auth_header: 'Bearer xyz-987654' });
    expect(redact('a Bearer xyz-987654 b Bearer xyz-987654')).toBe('a [REDACTED:my_auth_header] b [REDACTED:my_auth_header]');
  });

  it('does not redact short values, which would hit ordinary words', () => {
    const redact = createRedactor({ API_KEY: 'abc1234', EMPTY_TOKEN: '', SECRET: '12345678' });
    expect(redact.size).toBe(1);
    expect(redact('abc1234 and 12345678')).toBe('abc1234 and [REDACTED:SECRET]');
  });

  it('replaces the longest secret first, so a secret containing another is hidden whole', () => {
    const redact = createRedactor({ SHORT_KEY: 'sk-12345678', LONG_KEY: 'sk-12345678-extended' });
    expect(redact('x sk-12345678-extended y sk-12345678 z')).toBe('x [REDACTED:LONG_KEY] y [REDACTED:SHORT_KEY] z');
  });

  it('redacts explicitly named variables whatever their name', () => {
    const env = { PROVIDER_CRED_VALUE: 'v-000111222333', OTHER: 'v-444555666777' };
    expect(createRedactor(env)('v-000111222333').includes('REDACTED')).toBe(false);
    const redact = createRedactor(env, ['PROVIDER_CRED_VALUE']);
    expect(redact('v-000111222333 v-444555666777')).toBe('[REDACTED:PROVIDER_CRED_VALUE] v-444555666777');
  });

  it('leaves text without secrets unchanged and knows nothing when env holds none', () => {
    const redact = createRedactor({ HOME: '/root/somewhere' });
    expect(redact.size).toBe(0);
    expect(redact('nothing to hide')).toBe('nothing to hide');
  });
});
