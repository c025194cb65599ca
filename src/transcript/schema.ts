import * as z from 'zod';
import { UsageSchema } from '../vocabulary/usage.js';

/** Every role a transcript line can have (docs/architecture.md, "Transcript"). */
export const TranscriptRoleSchema = z.enum([
  'examiner',
  'candidate',
  'candidate.thinking',
  'candidate.tool_call.started',
  'candidate.tool_call.completed',
  'candidate.assistant_partial',
  'system',
]);
export type TranscriptRole = z.infer<typeof TranscriptRoleSchema>;

/** What a tool event is about; the `content` of the line is the human-readable summary. */
export const ToolInfoSchema = z.object({
  /** The call id from the agent's stream, pairing started with completed. */
  id: z.string(),
  /** The agent's own tool name (Bash, run_shell_command, write_file, ...). */
  name: z.string(),
  /** Harness tool kind, the same for every agent. */
  kind: z.enum(['shell', 'read', 'write', 'edit', 'search', 'list', 'web', 'task', 'skill', 'other']),
  /** Shell command, file path or other short argument (cut to 2 KB). */
  target: z.string().optional(),
  /** The skill, command or subagent the call names (a Skill call's skill, a Task call's subagent type). */
  invokes: z.string().optional(),
  exit_code: z.number().int().nullable().optional(),
  is_error: z.boolean().optional(),
});
export type ToolInfo = z.infer<typeof ToolInfoSchema>;

/** One line of transcript.jsonl and one row of transcript_events in the store. */
export const TranscriptEventSchema = z.object({
  run_id: z.string(),
  turn: z.number().int().nonnegative(),
  seq: z.number().int().nonnegative(),
  /** Activity attempt that produced the event; a retried turn writes under a new attempt. */
  attempt: z.number().int().positive(),
  ts: z.string(),
  role: TranscriptRoleSchema,
  content: z.string(),
  tool: ToolInfoSchema.optional(),
  usage: UsageSchema.optional(),
});
export type TranscriptEvent = z.infer<typeof TranscriptEventSchema>;

/**
 * An event as a candidate adapter or normaliser produces it, before the run assigns
 * run_id, turn, seq, attempt.
 */
export const CandidateEventSchema = TranscriptEventSchema.pick({ role: true, content: true, tool: true, usage: true }).extend({
  ts: z.string().optional(),
});
export type CandidateEvent = z.infer<typeof CandidateEventSchema>;
