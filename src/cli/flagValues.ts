import { InvalidArgumentError } from 'commander';

/**
 * Strict parsers for numeric and timed flag values. Each refuses what would otherwise slip
 * through as NaN, a percent read as a fraction or an out-of-range number, with the expected form
 * in the message; commander prefixes it with the flag and the value, and the CLI exits 2.
 */

/** A number, refusing the empty string, NaN, Infinity and trailing junk (`Number('')` is 0). */
function toNumber(value: string, expected: string): number {
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(n)) throw new InvalidArgumentError(`expected ${expected}, found '${value}'`);
  return n;
}

/** A whole number from `min` (default 1: a positive integer), at most `max` when given. */
export function integerFlag(min = 1, max?: number): (value: string) => number {
  const expected = `a whole number ${max === undefined ? `${min} or more` : `${min}..${max}`}`;
  return (value) => {
    const n = toNumber(value, expected);
    if (!Number.isInteger(n) || n < min || (max !== undefined && n > max)) throw new InvalidArgumentError(`expected ${expected}, found '${value}'`);
    return n;
  };
}

/** A positive integer: runs per case, parallelism, limits. */
export const positiveInteger = integerFlag(1);

/** A whole number, 0 or more: offsets, counts of allowed failures. */
export const count = integerFlag(0);

/** A TCP port to listen on. */
export const port = integerFlag(1, 65535);

/**
 * A fraction 0..1 such as a tolerance. A value above 1 is most likely a percent, so the message
 * says which fraction was probably meant.
 */
export function fraction(value: string): number {
  const n = toNumber(value, 'a fraction 0..1');
  if (n > 1 && n <= 100) throw new InvalidArgumentError(`expected a fraction 0..1, found '${value}' (a percent? ${n}% is ${n / 100})`);
  if (n < 0 || n > 1) throw new InvalidArgumentError(`expected a fraction 0..1, found '${value}'`);
  return n;
}

/** A number within [min, max]. */
export function numberInRange(min: number, max: number): (value: string) => number {
  const expected = `a number ${min}..${max}`;
  return (value) => {
    const n = toNumber(value, expected);
    if (n < min || n > max) throw new InvalidArgumentError(`expected ${expected}, found '${value}'`);
    return n;
  };
}

const DURATION = /^(\d+[smhd])+$/;

/** A duration such as 24h, 90m, 1d or 1h30m, kept as written (the schedule reads it). */
export function duration(value: string): string {
  if (!DURATION.test(value.trim()) || !/[1-9]/.test(value)) throw new InvalidArgumentError(`expected a duration such as 24h, 90m, 1d or 1h30m, found '${value}'`);
  return value.trim();
}

/** An address to bind: a host name or an IP address, without a port or a scheme. */
export function hostAddress(value: string): string {
  const host = value.trim();
  if (!/^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:]*:[0-9a-fA-F:.]*|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?)$/.test(host)) {
    throw new InvalidArgumentError(`expected a host name or IP address such as 127.0.0.1, 0.0.0.0 or localhost (no scheme, no port), found '${value}'`);
  }
  return host;
}

/** A number above 0, such as a β weight. */
export function positiveNumber(value: string): number {
  const n = toNumber(value, 'a number above 0');
  if (n <= 0) throw new InvalidArgumentError(`expected a number above 0, found '${value}'`);
  return n;
}

/**
 * A fraction strictly between 0 and 1, such as a power or a false-alarm rate (at 0 or 1 the
 * formulas have no answer). As with `fraction`, a value that reads as a percent says so.
 */
export function openFraction(value: string): number {
  const expected = 'a fraction strictly between 0 and 1';
  const n = toNumber(value, expected);
  if (n > 1 && n < 100) throw new InvalidArgumentError(`expected ${expected}, found '${value}' (a percent? ${n}% is ${n / 100})`);
  if (n <= 0 || n >= 1) throw new InvalidArgumentError(`expected ${expected}, found '${value}'`);
  return n;
}
