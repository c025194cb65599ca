import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import * as z from 'zod';
import { FormatError } from '../../errors.js';
import { parseOrThrow } from '../../format.js';
import type { MockReply, MockRequest, MockScript } from './types.js';

const ReplySchema = z
  .object({
    text: z.string().optional(),
    reasoning: z.string().optional(),
    tool_calls: z
      .array(z.object({ name: z.string(), arguments: z.union([z.record(z.string(), z.unknown()), z.string()]) }).strict())
      .optional(),
    status: z.number().int().min(400).max(599).optional(),
  })
  .strict();

const RuleSchema = z
  .object({
    name: z.string().describe('Shown in errors and logs'),
    match: z
      .object({
        model: z.string().optional().describe('Exact model name the client asked for'),
        contains: z.string().optional().describe('Substring of the system prompt or any message'),
        first_user_contains: z.string().optional().describe('Substring of the first user message'),
        lacks: z.string().optional().describe('Substring that must not be in the system prompt or any message'),
      })
      .strict(),
    start: z.number().int().nonnegative().default(0).describe('Assistant-message count the first reply answers'),
    replies: z.array(ReplySchema).min(1),
  })
  .strict();

/** A declarative mock model script (YAML), as kept under examples/mock/. */
export const MockScriptFileSchema = z.object({ rules: z.array(RuleSchema).min(1) }).strict();
export type MockScriptFile = z.infer<typeof MockScriptFileSchema>;

export async function loadMockScript(path: string): Promise<MockScript> {
  let raw: unknown;
  try {
    raw = parseYaml(await readFile(path, 'utf8'));
  } catch (err) {
    throw new FormatError(`${path}: not valid YAML: ${err instanceof Error ? err.message : String(err)}`);
  }
  return scriptFromRules(parseOrThrow(MockScriptFileSchema, raw, path));
}

/**
 * Replies depend only on the request (which rule matches, how many assistant messages it
 * already holds), never on server state, so a retried or resumed call gets the same answer.
 */
export function scriptFromRules(file: MockScriptFile): MockScript {
  return (request: MockRequest): MockReply => {
    const rule = file.rules.find((r) => matches(r.match, request));
    if (!rule) {
      return {
        status: 400,
        errorMessage: `mock script has no rule for model '${request.model}' (first user message: ${JSON.stringify(firstUser(request).slice(0, 120))})`,
      };
    }
    const assistantCount = request.messages.filter((m) => m.role === 'assistant').length;
    const index = Math.min(Math.max(assistantCount - rule.start, 0), rule.replies.length - 1);
    const reply = rule.replies[index]!;
    return {
      ...(reply.text !== undefined ? { text: reply.text } : {}),
      ...(reply.reasoning !== undefined ? { reasoning: reply.reasoning } : {}),
      ...(reply.tool_calls ? { toolCalls: reply.tool_calls } : {}),
      ...(reply.status ? { status: reply.status, errorMessage: `scripted error from rule '${rule.name}'` } : {}),
    };
  };
}

function matches(match: MockScriptFile['rules'][number]['match'], request: MockRequest): boolean {
  if (match.model !== undefined && match.model !== request.model) return false;
  if (match.first_user_contains !== undefined && !firstUser(request).includes(match.first_user_contains)) return false;
  const haystack = () => [request.system, ...request.messages.map((m) => m.content)].join('\n');
  if (match.contains !== undefined && !haystack().includes(match.contains)) return false;
  if (match.lacks !== undefined && haystack().includes(match.lacks)) return false;
  return true;
}

function firstUser(request: MockRequest): string {
  return request.messages.find((m) => m.role === 'user')?.content ?? '';
}
