import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { count, duration, fraction, hostAddress, openFraction, port, positiveInteger, positiveNumber } from '../../src/cli/flagValues.js';

describe('strict flag values', () => {
  it('reads a fraction strictly between 0 and 1, refusing both ends, NaN and percents', () => {
    expect(openFraction('0.8')).toBe(0.8);
    expect(openFraction('1e-3')).toBe(0.001);
    expect(() => openFraction('0')).toThrow("expected a fraction strictly between 0 and 1, found '0'");
    expect(() => openFraction('1')).toThrow("expected a fraction strictly between 0 and 1, found '1'");
    expect(() => openFraction('80')).toThrow("expected a fraction strictly between 0 and 1, found '80' (a percent? 80% is 0.8)");
    expect(() => openFraction('100')).toThrow("expected a fraction strictly between 0 and 1, found '100'");
    expect(() => openFraction('NaN')).toThrow(InvalidArgumentError);
  });

  it('reads a fraction 0..1 and refuses NaN, percents and negatives, saying which fraction a percent means', () => {
    expect(fraction('0')).toBe(0);
    expect(fraction('0.05')).toBe(0.05);
    expect(fraction('1')).toBe(1);
    expect(() => fraction('abc')).toThrow("expected a fraction 0..1, found 'abc'");
    expect(() => fraction('')).toThrow("expected a fraction 0..1, found ''");
    expect(() => fraction('50')).toThrow("expected a fraction 0..1, found '50' (a percent? 50% is 0.5)");
    expect(() => fraction('-0.1')).toThrow("expected a fraction 0..1, found '-0.1'");
    expect(() => fraction('0.1x')).toThrow(InvalidArgumentError);
    expect(() => fraction('Infinity')).toThrow(InvalidArgumentError);
  });

  it('reads integers with their lower bound, and ports 1..65535', () => {
    expect(positiveInteger('3')).toBe(3);
    expect(() => positiveInteger('0')).toThrow("expected a whole number 1 or more, found '0'");
    expect(() => positiveInteger('2.5')).toThrow("expected a whole number 1 or more, found '2.5'");
    expect(() => positiveInteger('NaN')).toThrow("expected a whole number 1 or more, found 'NaN'");
    expect(count('0')).toBe(0);
    expect(() => count('-1')).toThrow("expected a whole number 0 or more, found '-1'");
    expect(port('8300')).toBe(8300);
    expect(port('65535')).toBe(65535);
    expect(() => port('99999')).toThrow("expected a whole number 1..65535, found '99999'");
    expect(() => port('0')).toThrow("expected a whole number 1..65535, found '0'");
  });

  it('reads durations, numbers above 0 and host addresses', () => {
    expect(duration('1h30m')).toBe('1h30m');
    expect(duration('24h')).toBe('24h');
    expect(() => duration('24')).toThrow("expected a duration such as 24h, 90m, 1d or 1h30m, found '24'");
    expect(() => duration('0h')).toThrow(InvalidArgumentError);
    expect(() => duration('soon')).toThrow(InvalidArgumentError);
    expect(positiveNumber('0.5')).toBe(0.5);
    expect(() => positiveNumber('0')).toThrow("expected a number above 0, found '0'");
    for (const ok of ['127.0.0.1', 'localhost', '0.0.0.0', '::1', '[::1]', 'my-box.lan']) expect(hostAddress(ok)).toBe(ok);
    for (const bad of ['http://localhost', 'localhost:8300', 'a b', '']) expect(() => hostAddress(bad)).toThrow(/expected a host name or IP address/);
  });
});
