import { compareSides, type Comparison, type ComparisonSide } from './comparison.js';

/**
 * What the workflow adds: the runs without it (`workflow=none`) as side A, with it as side B,
 * so each case's difference is the pass rate the workflow gains (negative: the case got worse
 * with it), with its interval, and the bank's mean difference with its bootstrap interval.
 * Cases are ordered worst first: the largest loss with the workflow on top, cases that cannot
 * be compared last.
 */
export function workflowImpact(withWorkflow: ComparisonSide, withoutWorkflow: ComparisonSide, options: { seed?: number } = {}): Comparison {
  const comparison = compareSides(withoutWorkflow, withWorkflow, options);
  const rank = (difference: number | null) => (difference === null ? Number.POSITIVE_INFINITY : difference);
  const cases = [...comparison.cases].sort((x, y) => rank(x.difference) - rank(y.difference) || (x.caseId < y.caseId ? -1 : 1));
  return { ...comparison, cases };
}
