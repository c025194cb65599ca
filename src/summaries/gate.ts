import { UsageError } from '../errors.js';
import type { GroupStats } from './groupStats.js';

/** What a gate can test, on the batch's judged runs. */
const METRICS = {
  pass_rate: (g: GroupStats) => g.passRate?.rate ?? null,
  /** The lower end of the pass rate's 95% interval: a gate that noise cannot pass by luck. */
  pass_rate_low: (g: GroupStats) => g.passRate?.low ?? null,
  overall: (g: GroupStats) => g.mean.overall,
  compliance: (g: GroupStats) => g.mean.compliance,
  execution_quality: (g: GroupStats) => g.mean.execution_quality,
  completed: (g: GroupStats) => g.completed,
} as const;

/** The values each metric can take, so that a threshold it can never meet (`pass_rate>=80`) is refused. */
const RANGES: Record<keyof typeof METRICS, { min: number; max: number; what: string }> = {
  pass_rate: { min: 0, max: 1, what: 'a fraction 0..1 (0.8 for 80%)' },
  pass_rate_low: { min: 0, max: 1, what: 'a fraction 0..1 (0.8 for 80%)' },
  overall: { min: 0, max: 5, what: 'a score 0..5' },
  compliance: { min: 0, max: 5, what: 'a score 0..5' },
  execution_quality: { min: 0, max: 5, what: 'a score 0..5' },
  completed: { min: 0, max: Number.MAX_SAFE_INTEGER, what: 'a count of runs, 0 or more' },
};

const OPERATORS = { '>=': (a: number, b: number) => a >= b, '>': (a: number, b: number) => a > b, '<=': (a: number, b: number) => a <= b, '<': (a: number, b: number) => a < b } as const;

export interface GateCondition {
  text: string;
  metric: keyof typeof METRICS;
  operator: keyof typeof OPERATORS;
  threshold: number;
}

export interface GateResult {
  condition: GateCondition;
  value: number | null;
  met: boolean;
}

/** `pass_rate>=0.8,overall>=3.5`: conditions joined by commas; each `metric op number`. */
export function parseGate(text: string): GateCondition[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const match = /^([a-z_]+)\s*(>=|<=|>|<)\s*(-?\d+(?:\.\d+)?)$/.exec(part);
      if (!match || !(match[1]! in METRICS)) {
        throw new UsageError(`--gate '${part}': expected METRIC OP NUMBER with METRIC one of ${Object.keys(METRICS).join(', ')} and OP one of >=, >, <=, < (e.g. pass_rate>=0.8)`);
      }
      const metric = match[1] as GateCondition['metric'];
      const threshold = Number(match[3]);
      const range = RANGES[metric];
      if (threshold < range.min || threshold > range.max) throw new UsageError(`--gate '${part}': ${metric} is ${range.what}, found ${match[3]}`);
      return { text: part, metric, operator: match[2] as GateCondition['operator'], threshold };
    });
}

/** Each condition against the stats; a metric with no value (nothing judged) never meets one. */
export function evaluateGate(conditions: readonly GateCondition[], stats: GroupStats): GateResult[] {
  return conditions.map((condition) => {
    const value = METRICS[condition.metric](stats);
    return { condition, value, met: value !== null && OPERATORS[condition.operator](value, condition.threshold) };
  });
}
