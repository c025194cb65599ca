export { evalRunWorkflow } from './evalRunWorkflow.js';
export { evalBatchWorkflow } from './evalBatchWorkflow.js';
export { editPredictionBatchWorkflow } from './editPredictionBatchWorkflow.js';
export { rejudgeWorkflow } from './rejudgeWorkflow.js';
export { scheduledBatchWorkflow } from './scheduledBatchWorkflow.js';
