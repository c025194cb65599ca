export { detectWorkflowUsage, type UsageInput } from './detectWorkflowUsage.js';
export { itemRefOfFile, listWorkflowItems, type WorkflowItem } from './workflowItems.js';
export type { WorkflowSupport } from './workflowSupport.js';
export * from '../vocabulary/workflowUsage.js';
export { checkExpectations, checkExpectedItemsExist, describeUsageRow, type ExpectationResult } from './expectations.js';
export { inlinedTriggers } from './placementAnomaly.js';
export { renderWorkflowUsed } from './renderWorkflowUsed.js';
export { changedWorkflowItems, type ChangedItems } from './changedItems.js';
