import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/errors.js';
import { DEFAULT_STORE_LINGER_S, storeLingerFromEnv } from '../src/storeLinger.js';

describe('EVALFLOW_STORE_LINGER', () => {
  it('defaults to 600 s when unset or empty', () => {
    expect(storeLingerFromEnv({})).toBe(DEFAULT_STORE_LINGER_S);
    expect(storeLingerFromEnv({ EVALFLOW_STORE_LINGER: '' })).toBe(600);
  });

  it('takes whole seconds, 0 included', () => {
    expect(storeLingerFromEnv({ EVALFLOW_STORE_LINGER: '0' })).toBe(0);
    expect(storeLingerFromEnv({ EVALFLOW_STORE_LINGER: '45' })).toBe(45);
  });

  it.each(['-1', '1.5', 'ten'])('refuses %s with a line naming the variable', (raw) => {
    expect(() => storeLingerFromEnv({ EVALFLOW_STORE_LINGER: raw })).toThrow(ConfigError);
    expect(() => storeLingerFromEnv({ EVALFLOW_STORE_LINGER: raw })).toThrow(`EVALFLOW_STORE_LINGER: expected whole seconds (0 or more), found '${raw}'`);
  });
});
