import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ChatTool } from '../llm/port.js';
import type { ToolCallEnd } from './normalizers/toolSummary.js';
import { createTextKeeper } from './normalizers/truncate.js';
import type { SandboxView } from '../containment/sandboxView.js';
import { runProcess } from './processRunner.js';
import { builtinWorkflow } from './builtinWorkflow.js';
import { resolveInSandbox, sandboxRelative } from './sandboxPath.js';

/** The skills evalflow links into the sandbox for the builtin agent: readable, never writable. */
const READABLE_LINKS = [builtinWorkflow.native.skills!];

/** The builtin agent's four tools, as offered to the model. */
export const BUILTIN_TOOLS: ChatTool[] = [
  {
    name: 'read_file',
    description: 'Read a text file of the project. Paths are relative to the project root.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  {
    name: 'write_file',
    description: 'Create or overwrite a text file of the project with the given content.',
    parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
  },
  {
    name: 'list_files',
    description: 'List the files under a directory of the project (recursive, .git excluded).',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  },
  {
    name: 'run_shell',
    description: 'Run a bash command in the project root and return its exit code and output.',
    parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
];

export interface BuiltinToolContext {
  sandboxDir: string;
  /** Environment of run_shell: already scrubbed. */
  env: Record<string, string>;
  shellTimeoutMs: number;
  signal: AbortSignal;
  /** Told the process group of each shell command started. */
  onSpawn?: (pgid: number) => void;
  /** run_shell's commands run contained in this view, when the run is. */
  view?: SandboxView;
}

export interface BuiltinToolResult {
  /** What the model reads back. */
  output: string;
  /** How the call ended, for the `completed` summary. */
  end: ToolCallEnd;
}

const READ_CAP = 64 * 1024;
const SHELL_OUTPUT_CAP = 16 * 1024;
const LIST_CAP = 500;

/**
 * Run one tool call. Every failure — a bad argument, a path outside the sandbox, a missing file
 * — becomes an error result for the model, never an exception: the agent can recover.
 */
export async function executeBuiltinTool(name: string, input: Record<string, unknown>, ctx: BuiltinToolContext): Promise<BuiltinToolResult> {
  try {
    switch (name) {
      case 'read_file':
        return await readTool(input, ctx);
      case 'write_file':
        return await writeTool(input, ctx);
      case 'list_files':
        return await listTool(input, ctx);
      case 'run_shell':
        return await shellTool(input, ctx);
      default:
        return failed(`unknown tool ${name}; the tools are ${BUILTIN_TOOLS.map((t) => t.name).join(', ')}`);
    }
  } catch (err) {
    return failed(err instanceof Error ? err.message : String(err));
  }
}

async function readTool(input: Record<string, unknown>, ctx: BuiltinToolContext): Promise<BuiltinToolResult> {
  const path = await resolveInSandbox(ctx.sandboxDir, requireString(input, 'path'), READABLE_LINKS);
  const text = await readFile(path, 'utf8');
  const output = text.length > READ_CAP ? `${text.slice(0, READ_CAP)}\n[… cut at ${READ_CAP} characters of ${text.length}]` : text;
  return { output, end: { output: text } };
}

async function writeTool(input: Record<string, unknown>, ctx: BuiltinToolContext): Promise<BuiltinToolResult> {
  const requested = requireString(input, 'path');
  const content = typeof input.content === 'string' ? input.content : '';
  const path = await resolveInSandbox(ctx.sandboxDir, requested);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
  return { output: `wrote ${content.length} characters to ${sandboxRelative(ctx.sandboxDir, path)}`, end: {} };
}

async function listTool(input: Record<string, unknown>, ctx: BuiltinToolContext): Promise<BuiltinToolResult> {
  const root = await resolveInSandbox(ctx.sandboxDir, typeof input.path === 'string' ? input.path : '.', READABLE_LINKS);
  const found: string[] = [];
  async function walk(dir: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (found.length >= LIST_CAP) return;
      if (entry.name === '.git') continue;
      const path = join(dir, entry.name);
      found.push(`${sandboxRelative(ctx.sandboxDir, path)}${entry.isDirectory() ? '/' : ''}`);
      if (entry.isDirectory() && !entry.isSymbolicLink()) await walk(path);
    }
  }
  await walk(root);
  const output = found.length >= LIST_CAP ? `${found.join('\n')}\n[… listing cut at ${LIST_CAP} entries]` : found.join('\n');
  return { output: output || '(empty)', end: { output: `${found.length} entries` } };
}

async function shellTool(input: Record<string, unknown>, ctx: BuiltinToolContext): Promise<BuiltinToolResult> {
  const command = requireString(input, 'command');
  // The model gets the end of the output (where builds and tests say what happened) and a note of what was cut.
  const kept = createTextKeeper(0, SHELL_OUTPUT_CAP);
  const collect = (line: string) => kept.push(`${line}\n`);
  const result = await runProcess({
    command: 'bash',
    args: ['-lc', command],
    cwd: ctx.sandboxDir,
    env: ctx.env,
    timeoutMs: ctx.shellTimeoutMs,
    signal: ctx.signal,
    killGraceMs: 1000,
    onStdoutLine: collect,
    onStderrLine: collect,
    ...(ctx.onSpawn ? { onSpawn: ctx.onSpawn } : {}),
    ...(ctx.view ? { view: ctx.view } : {}),
  });
  if (result.spawnError) return failed(`could not run bash: ${result.spawnError}`);
  const output = kept.text();
  if (result.timedOut) {
    return { output: `timed out after ${ctx.shellTimeoutMs / 1000} s and was killed\n${output}`, end: { output, isError: true, errorMessage: `timed out after ${ctx.shellTimeoutMs / 1000} s` } };
  }
  return { output: `exit code: ${result.exitCode ?? 'killed'}\n${output}`, end: { output, exitCode: result.exitCode } };
}

function requireString(input: Record<string, unknown>, key: string): string {
  const value = input[key];
  if (typeof value !== 'string' || value === '') throw new Error(`argument "${key}" must be a non-empty string`);
  return value;
}

function failed(message: string): BuiltinToolResult {
  return { output: `error: ${message}`, end: { isError: true, errorMessage: message } };
}
