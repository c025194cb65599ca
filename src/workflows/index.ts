export { evalRunWorkflow } from './evalRunWorkflow.js';
export { evalBatchWorkflow } from './evalBatchWorkflow.js';
