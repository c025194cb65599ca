import { isAbsolute, relative } from 'node:path';
import type { ToolInfo } from '../../transcript/schema.js';
import { formatSize, hasCutNote, sizeOf } from './cutNote.js';
import { toolKindOf, type ToolKind } from './toolKinds.js';
import { LIMITS, clip, clipTail, countLines, oneLine } from './truncate.js';

/** A tool call as it starts, in any agent's terms. */
export interface ToolCallStart {
  id: string;
  /** The agent's own tool name. */
  name: string;
  input: Record<string, unknown>;
  /** Override the name table (Codex items, Cursor keys whose kind is known from the item type). */
  kind?: ToolKind;
}

/** How a tool call ended, in any agent's terms. */
export interface ToolCallEnd {
  output?: string;
  exitCode?: number | null;
  isError?: boolean;
  errorMessage?: string;
  /** Line counts the agent reported itself (Cursor write results). */
  linesAdded?: number;
  linesRemoved?: number;
}

/** A started call, described once and reused for its completion. */
export interface DescribedCall {
  id: string;
  name: string;
  kind: ToolKind;
  target?: string;
  /** The skill, command or subagent the call names. */
  invokes?: string;
  input: Record<string, unknown>;
  /** Content of the `started` event, e.g. `shell: go build`. */
  started: string;
}

/** Describe a call as it starts: kind, target and the one-line `started` summary. */
export function describeToolCall(call: ToolCallStart, cwd?: string): DescribedCall {
  const kind = call.kind ?? toolKindOf(call.name);
  const target = targetOf(kind, call.input, cwd);
  const invokes = invokesOf(kind, call.input);
  return {
    id: call.id,
    name: call.name,
    kind,
    input: call.input,
    started: startedSummary(kind, call.name, call.input, target, cwd),
    ...(target !== undefined ? { target: clip(target, LIMITS.target) } : {}),
    ...(invokes !== undefined ? { invokes: clip(invokes, LIMITS.target) } : {}),
  };
}

/**
 * The `completed` event content and tool info: a self-contained one-liner, never the payload.
 * An output that was cut as it was read (a tool result of many MB) is summarised with its real
 * size: `shell: cat big.log → exit=0 (tool result 10.0 MB) · out: …`.
 */
export function describeToolResult(call: DescribedCall, end: ToolCallEnd): { content: string; tool: ToolInfo } {
  const failedExit = typeof end.exitCode === 'number' && end.exitCode !== 0;
  const isError = end.isError === true || failedExit;
  const base = labelWithLines(call, end);
  const cutSize = end.output !== undefined && hasCutNote(end.output) ? `tool result ${formatSize(sizeOf(end.output))}` : undefined;
  const size = cutSize ? ` (${cutSize})` : '';
  let content: string;
  if (call.kind === 'shell' && typeof end.exitCode === 'number') {
    content = `${base} → exit=${end.exitCode}${size}${outputTail(end.output ?? (isError ? end.errorMessage : undefined))}`;
  } else if (isError) {
    const message = end.errorMessage ?? end.output ?? 'failed';
    content = `${base} → error${size}: ${clip(oneLine(message), LIMITS.errorMessage) || 'failed'}`;
  } else if (call.kind === 'shell') {
    content = `${base} → ok${size}${outputTail(end.output)}`;
  } else if (call.kind === 'read') {
    content = !end.output ? base : cutSize ? `${base} (${cutSize}, not shown)` : `${base} (${countLines(end.output)} lines)`;
  } else if (call.kind === 'write' || call.kind === 'edit') {
    content = base;
  } else {
    const head = end.output ? clip(oneLine(end.output), 160) : '';
    content = head ? `${base}${size} → ${head}` : `${base} → ok`;
  }
  const tool: ToolInfo = {
    id: call.id,
    name: call.name,
    kind: call.kind,
    ...(call.target !== undefined ? { target: call.target } : {}),
    ...(call.invokes !== undefined ? { invokes: call.invokes } : {}),
    ...(call.kind === 'shell' ? { exit_code: typeof end.exitCode === 'number' ? end.exitCode : null } : {}),
    is_error: isError,
  };
  return { content, tool };
}

/** Codex wraps every command as `/bin/bash -lc '…'`; the judge wants the command itself. */
export function stripShellWrapper(command: string): string {
  const match = /^(?:\S*\/)?(?:ba|z)?sh\s+-l?c\s+([\s\S]+)$/.exec(command.trim());
  const quoted = match?.[1];
  if (!quoted) return command;
  if (quoted.startsWith("'") && quoted.endsWith("'") && quoted.length >= 2) {
    return quoted.slice(1, -1).replace(/'\\''/g, "'");
  }
  if (quoted.startsWith('"') && quoted.endsWith('"') && quoted.length >= 2) {
    return quoted.slice(1, -1).replace(/\\(["\\$`])/g, '$1');
  }
  return quoted;
}

function startedSummary(kind: ToolKind, name: string, input: Record<string, unknown>, target: string | undefined, cwd?: string): string {
  switch (kind) {
    case 'shell':
      return `shell: ${clip(oneLine(target ?? ''), LIMITS.command)}`;
    case 'search': {
      const where = pathOf(input, cwd);
      return `search: ${clip(oneLine(target ?? '?'), LIMITS.command)}${where && where !== target ? ` in ${where}` : ''}`;
    }
    case 'task':
    case 'web':
    case 'skill':
      return `${kind}: ${clip(oneLine(target ?? name), LIMITS.command)}`;
    case 'other': {
      const args = Object.keys(input).length ? ` ${clip(oneLine(JSON.stringify(input)), LIMITS.command)}` : '';
      return `${name}:${args || ' (no arguments)'}`;
    }
    default:
      return `${kind}: ${clip(target ?? '?', LIMITS.command)}`;
  }
}

function labelWithLines(call: DescribedCall, end: ToolCallEnd): string {
  // Content cut as it was read cannot be counted in lines: its size is what is known.
  const body = stringField(call.input, ['content', 'contents', 'file_text', 'text']);
  if (call.kind === 'write' && body !== undefined && hasCutNote(body)) return `${call.started} (${formatSize(sizeOf(body))}, not shown)`;
  if (call.kind === 'write') {
    const added = writtenLines(call.input) ?? end.linesAdded;
    return added !== undefined ? `${call.started} (+${added} lines)` : call.started;
  }
  if (call.kind === 'edit') {
    const counts = editedLines(call.input) ?? (end.linesAdded !== undefined ? { added: end.linesAdded, removed: end.linesRemoved ?? 0 } : undefined);
    return counts ? `${call.started} (+${counts.added} −${counts.removed} lines)` : call.started;
  }
  return call.started;
}

function outputTail(output: string | undefined): string {
  const text = output?.trim();
  return text ? ` · out: ${clipTail(oneLine(text), LIMITS.outputTail)}` : '';
}

function targetOf(kind: ToolKind, input: Record<string, unknown>, cwd?: string): string | undefined {
  switch (kind) {
    case 'shell': {
      const command = input.command ?? input.cmd;
      if (Array.isArray(command)) return command.map(String).join(' ');
      return typeof command === 'string' ? command : undefined;
    }
    case 'search':
      return stringField(input, ['pattern', 'query', 'regex', 'glob']);
    case 'web':
      return stringField(input, ['url', 'query', 'prompt']);
    case 'task':
      return stringField(input, ['description', 'prompt', 'subagent_type']);
    case 'skill':
      return stringField(input, SKILL_KEYS);
    case 'other':
      return undefined;
    default:
      return pathOf(input, cwd);
  }
}

/** Claude Code's Skill `skill` (older: `command`), Gemini's and opencode's `name`, SlashCommand's `command`. */
const SKILL_KEYS = ['skill', 'name', 'skill_name', 'command'];

/** What a skill call or a subagent call names, for workflow usage. */
function invokesOf(kind: ToolKind, input: Record<string, unknown>): string | undefined {
  if (kind === 'skill') return stringField(input, SKILL_KEYS);
  if (kind === 'task') return stringField(input, ['subagent_type', 'agent', 'subagent', 'agent_name']);
  return undefined;
}

const PATH_KEYS = ['file_path', 'path', 'absolute_path', 'filePath', 'notebook_path', 'target_file', 'file', 'dir_path', 'directory', 'dir'];

function pathOf(input: Record<string, unknown>, cwd?: string): string | undefined {
  const path = stringField(input, PATH_KEYS);
  if (path === undefined || !cwd || !isAbsolute(path)) return path;
  const rel = relative(cwd, path);
  if (rel === '') return '.';
  return rel === '..' || rel.startsWith('../') || isAbsolute(rel) ? path : rel;
}

function stringField(input: Record<string, unknown>, keys: string[]): string | undefined {
  for (const key of keys) {
    const value = input[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

function writtenLines(input: Record<string, unknown>): number | undefined {
  const body = stringField(input, ['content', 'contents', 'file_text', 'text']);
  return body !== undefined ? countLines(body) : undefined;
}

function editedLines(input: Record<string, unknown>): { added: number; removed: number } | undefined {
  const edits = Array.isArray(input.edits) ? (input.edits as unknown[]) : [input];
  let added = 0;
  let removed = 0;
  let found = false;
  for (const edit of edits) {
    if (typeof edit !== 'object' || edit === null) continue;
    const e = edit as Record<string, unknown>;
    const before = anyString(e, ['old_string', 'oldString', 'old_str']);
    const after = anyString(e, ['new_string', 'newString', 'new_str']);
    if (before === undefined && after === undefined) continue;
    if ([before, after].some((text) => text !== undefined && hasCutNote(text))) return undefined;
    found = true;
    added += countLines(after ?? '');
    removed += countLines(before ?? '');
  }
  return found ? { added, removed } : undefined;
}

/** Like stringField, but an empty string counts (an edit that deletes or creates from nothing). */
function anyString(input: Record<string, unknown>, keys: string[]): string | undefined {
  for (const key of keys) {
    const value = input[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}
