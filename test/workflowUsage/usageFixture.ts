import { join } from 'node:path';
import { getCandidateAdapter } from '../../src/candidates/index.js';
import { placeWorkflow } from '../../src/sandbox/placeWorkflow.js';
import type { CandidateEvent, TranscriptEvent } from '../../src/transcript/schema.js';
import { detectWorkflowUsage, listWorkflowItems, type WorkflowUsageRow } from '../../src/workflowUsage/index.js';
import { tempDir } from '../sandbox/sandboxFixture.js';

/** The repository's example workflow: one skill, one subagent, two commands, two rules. */
export const EXAMPLE_WORKFLOW = join(import.meta.dirname, '../../examples/workflow');

/** A user message (turn n) followed by the events one agent's raw stream normalises to. */
export interface TurnStream {
  message: string;
  lines: unknown[];
}

/** The adapter's own normaliser over each turn's raw lines, numbered as a run's transcript. */
export function normaliseTurns(adapter: string, turns: TurnStream[], cwd: string): TranscriptEvent[] {
  const factory = getCandidateAdapter(adapter).normalizer;
  if (!factory) throw new Error(`adapter ${adapter} has no stream normaliser`);
  const events: TranscriptEvent[] = [];
  turns.forEach((turn, index) => {
    const normalizer = factory({ cwd });
    const produced: CandidateEvent[] = [{ role: 'examiner', content: turn.message }];
    for (const line of turn.lines) produced.push(...normalizer.push(typeof line === 'string' ? line : JSON.stringify(line)));
    produced.push(...normalizer.end({ exitCode: 0, stderrTail: '' }).events);
    produced.forEach((event, seq) => events.push({ run_id: 'run-x', turn: index + 1, seq, attempt: 1, ts: '2026-01-01T00:00:00.000Z', ...event }));
  });
  return events;
}

/** The example workflow placed for `adapter` in a fresh sandbox, and the usage detected from `events`. */
export async function usageFor(adapter: string, events: (sandboxDir: string) => TranscriptEvent[]): Promise<Record<string, WorkflowUsageRow>> {
  const sandbox = await tempDir();
  const support = getCandidateAdapter(adapter).workflow;
  const { placement } = await placeWorkflow(sandbox, EXAMPLE_WORKFLOW, adapter, support);
  const rows = detectWorkflowUsage({ items: await listWorkflowItems(EXAMPLE_WORKFLOW), placement, support, events: events(sandbox), snapshotDir: EXAMPLE_WORKFLOW });
  return Object.fromEntries(rows.map((row) => [row.item, row]));
}
