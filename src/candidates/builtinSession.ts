import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { parseOrThrow } from '../format.js';
import type { ChatMessage } from '../llm/port.js';

const ToolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() });

const ChatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string().nullable(), tool_calls: z.array(ToolCallSchema).optional() }),
  z.object({ role: z.literal('tool'), tool_call_id: z.string(), content: z.string() }),
]);

/**
 * `<runDir>/.candidate/builtin-session.json`: the builtin agent's conversation, so a turn can
 * run on any worker after a restart. `turn_starts` records where each turn began, so a retried
 * turn replaces its earlier attempt instead of appending to it.
 */
export const BuiltinSessionSchema = z.object({
  version: z.literal(1),
  messages: z.array(ChatMessageSchema).describe('The conversation with the model, system prompt first'),
  turn_starts: z.record(z.string(), z.number().int().nonnegative()).describe('Index in messages where each turn began'),
});
export type BuiltinSession = z.infer<typeof BuiltinSessionSchema>;

// The file's messages are exactly the port's messages.
const _sameShape: ChatMessage[] = [] as BuiltinSession['messages'];
void _sameShape;

export function builtinSessionPath(runDir: string): string {
  return join(runDir, '.candidate', 'builtin-session.json');
}

/** The saved conversation, or undefined when there is none yet. */
export async function loadBuiltinSession(path: string): Promise<BuiltinSession | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  return parseOrThrow(BuiltinSessionSchema, data, path);
}

/** Write atomically (temp file + rename): a crash never leaves half a conversation. */
export async function saveBuiltinSession(path: string, session: BuiltinSession): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(session, null, 1)}\n`);
  await rename(temp, path);
}
