export { bootstrapMean, pairedBootstrapDifference, type BootstrapOptions, type MeanInterval } from './bootstrap.js';
export { compareCase, LABEL_ORDER, type CaseComparison, type CaseSide, type ComparisonLabel } from './compareCases.js';
export { fisherExact, smallestDetectableDifference } from './fisher.js';
export { mcnemarExact } from './mcnemar.js';
export { newcombeDifference, type DifferenceInterval } from './newcombe.js';
export { binomial, meanOverCases, passAtK, passHatK } from './passK.js';
export { DEFAULT_SEED, seededRandom } from './random.js';
export { sequentialDesign, sequentialVerdict, tallyPairs, type PairTally, type SequentialDesign, type SequentialOptions, type SequentialVerdict, type StopReason } from './sequential.js';
export { wilsonInterval, Z95, type RateInterval } from './wilson.js';
