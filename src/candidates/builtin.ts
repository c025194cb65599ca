import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CandidateError, isEvalflowError } from '../errors.js';
import { tolerateOutages, type OutageReport } from '../llm/outageTolerance.js';
import type { ChatMessage, LlmClient } from '../llm/port.js';
import type { Candidate, TurnRequest, TurnResult } from './adapter.js';
import { BUILTIN_TOOLS, executeBuiltinTool } from './builtinTools.js';
import { builtinWorkflow } from './builtinWorkflow.js';
import { builtinSessionPath, loadBuiltinSession, saveBuiltinSession, type BuiltinSession } from './builtinSession.js';
import { buildCandidateEnv } from './candidateEnv.js';
import { createEventCollector } from './normalizers/eventCollector.js';
import { stableSessionId } from './sessionFiles.js';
import { type Usage, addUsage } from '../vocabulary/usage.js';


export interface BuiltinCandidateDeps {
  /** The model, through the port (role `candidate`). */
  llm: LlmClient;
  /** Model calls per turn before the turn fails. */
  maxSteps?: number;
  shellTimeoutMs?: number;
  hostEnv?: NodeJS.ProcessEnv;
  /** How long one model call may keep failing (429/5xx/unreachable) before the turn fails; default an hour. */
  modelOutageMs?: number;
}

const WORKFLOW_CAP = 20_000;

/**
 * A small OpenAI tool-calling agent: read_file, write_file, list_files and run_shell, all
 * confined to the sandbox. Its conversation lives in `<runDir>/.candidate/builtin-session.json`
 * (not in memory), so a turn can run on any worker after a restart and a retried turn replaces
 * its failed attempt. Usage is summed over the turn's model calls.
 */
export function createBuiltinCandidate(deps: BuiltinCandidateDeps): Candidate {
  const maxSteps = deps.maxSteps ?? 20;
  const hostEnv = deps.hostEnv ?? process.env;
  return {
    async runTurn(request: TurnRequest): Promise<TurnResult> {
      const label = `${request.candidate.name} (builtin) turn ${request.turn}`;
      const path = builtinSessionPath(request.runDir);
      const saved = await loadBuiltinSession(path);
      const session: BuiltinSession = saved ?? { version: 1, messages: [{ role: 'system', content: await systemPrompt(request.sandboxDir) }], turn_starts: {} };
      // A retried (or replayed) turn starts again from where that turn began.
      const start = session.turn_starts[String(request.turn)] ?? session.messages.length;
      const messages: ChatMessage[] = session.messages.slice(0, start);
      const turnStarts = Object.fromEntries(Object.entries(session.turn_starts).filter(([turn]) => Number(turn) < request.turn));
      turnStarts[String(request.turn)] = start;
      messages.push({ role: 'user', content: request.message });

      const signal = AbortSignal.any([request.signal, AbortSignal.timeout(request.timeoutMs)]);
      const env = buildCandidateEnv({ hostEnv, homeDir: request.homeDir, adapterEnv: {}, spec: request.candidate });
      const collector = createEventCollector(request.sandboxDir);
      const emit = () => collector.drain().forEach(request.onEvent);
      let usage: Usage | undefined;
      // Outages of the model are waited out within the turn: the work done so far stays.
      const outage: OutageReport = { retries: 0, waitedMs: 0, lastError: null };
      const llm = tolerateOutages(deps.llm, { windowMs: deps.modelOutageMs ?? 3_600_000, report: outage, onWait: () => request.onActivity?.() });

      for (let step = 1; step <= maxSteps; step++) {
        const response = await llm.chat({ role: 'candidate', messages, tools: BUILTIN_TOOLS, signal }).catch((err: unknown) => {
          throw failure(label, err, request, signal);
        });
        request.onActivity?.();
        usage = addUsage(usage, response.usage);
        if (response.reasoning) collector.thinking(response.reasoning);
        if (response.content) collector.text(response.content);
        if (response.toolCalls.length === 0) {
          const reply = response.content ?? '';
          messages.push({ role: 'assistant', content: reply });
          const outcome = collector.settle({ failure: undefined, reply, usage, ignoredLines: 0 });
          outcome.events.forEach(request.onEvent);
          await saveBuiltinSession(path, { version: 1, messages, turn_starts: turnStarts });
          const notes = [...(outage.retries > 0 ? [describeOutage(outage)] : []), ...(outcome.notes ?? [])];
          return {
            reply: outcome.reply,
            session: { ...request.session, id: request.session?.id ?? `builtin-${stableSessionId(request.runId)}`, conversationPath: path },
            ...(usage ? { usage } : {}),
            ...(notes.length > 0 ? { notes } : {}),
          };
        }
        messages.push({ role: 'assistant', content: response.content, tool_calls: response.toolCalls });
        for (const call of response.toolCalls) {
          const input = parseArguments(call.arguments);
          collector.toolStarted({ id: call.id, name: call.name, input: input ?? {} });
          emit();
          const result = input
            ? await executeBuiltinTool(call.name, input, { sandboxDir: request.sandboxDir, env, shellTimeoutMs: deps.shellTimeoutMs ?? 120_000, signal, ...(request.onSpawn ? { onSpawn: request.onSpawn } : {}), ...(request.view ? { view: request.view } : {}) })
            : { output: 'error: the arguments are not a JSON object', end: { isError: true, errorMessage: 'arguments are not a JSON object' } };
          collector.toolCompleted(call.id, result.end);
          emit();
          messages.push({ role: 'tool', tool_call_id: call.id, content: result.output });
          if (signal.aborted) throw failure(label, signal.reason, request, signal);
        }
      }
      collector.abandon();
      emit();
      throw new CandidateError(`${label}: no final answer after ${maxSteps} model calls (the per-turn step limit); the model kept calling tools`);
    },
  };
}

function describeOutage(outage: OutageReport): string {
  return `the builtin agent's model endpoint failed ${outage.retries} time(s) and was waited out for ${Math.round(outage.waitedMs / 1000)} s (last error: ${outage.lastError ?? 'unknown'})`;
}

async function systemPrompt(sandboxDir: string): Promise<string> {
  const base = [
    'You are a coding agent working in a software project. The project root is your working directory;',
    'use relative paths. Use the tools to inspect files, change them and run commands (tests, builds).',
    'Work until the request is done, then answer with a short summary of what you did.',
  ].join(' ');
  const parts = [base];
  const skills = await skillIndex(sandboxDir);
  if (skills.length > 0) {
    parts.push(['Skills you can use: when a task matches a skill\'s description, read its SKILL.md with read_file first and follow it.', ...skills].join('\n'));
  }
  const workflow = await readFile(join(sandboxDir, builtinWorkflow.contextFile), 'utf8').catch(() => '');
  if (workflow.trim()) parts.push(`The team's workflow (from ${builtinWorkflow.contextFile}); follow it:\n\n${workflow.slice(0, WORKFLOW_CAP)}`);
  return parts.join('\n\n');
}

/** `- node-test: How to write tests… (.agents/skills/node-test/SKILL.md)`, one line per skill, from its frontmatter. */
async function skillIndex(sandboxDir: string): Promise<string[]> {
  const folder = builtinWorkflow.native.skills!;
  const names = await readdir(join(sandboxDir, folder)).catch(() => [] as string[]);
  const lines: string[] = [];
  for (const name of names.sort()) {
    const path = `${folder}/${name}/SKILL.md`;
    const text = await readFile(join(sandboxDir, path), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const description = /^description:\s*(.+)$/m.exec(/^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '')?.[1]?.trim() ?? '';
    lines.push(`- ${name}: ${description || '(no description)'} (${path})`);
  }
  return lines;
}

function parseArguments(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A model error or a timeout as the CandidateError a turn throws (retryable when the model's error was). */
function failure(label: string, err: unknown, request: TurnRequest, signal: AbortSignal): CandidateError {
  if (signal.aborted && !request.signal.aborted) {
    return new CandidateError(`${label}: timed out after ${Math.round(request.timeoutMs / 1000)} s`, { timedOut: true });
  }
  if (request.signal.aborted) return new CandidateError(`${label}: cancelled`);
  const message = err instanceof Error ? err.message : String(err);
  return new CandidateError(`${label}: the model call failed: ${message}`, {}, { cause: err, retryable: isEvalflowError(err) && err.retryable });
}
