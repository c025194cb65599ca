import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { CANDIDATE_ADAPTER_NAMES, createLineReader, findCliInstallation, getCandidateAdapter, type CandidateSession } from '../candidates/index.js';
import { ConfigError, UsageError } from '../errors.js';
import type { CandidateEvent, TranscriptEvent } from '../transcript/schema.js';
import type { CommandIo } from '../cli/io.js';
import { formatTable } from '../cli/output/table.js';
import { printJson } from '../cli/json/document.js';
import { CandidatesJson } from '../cli/json/candidates.js';
import type * as z from 'zod';

export interface CandidatesOptions {
  /** `evalflow candidates normalize <adapter> <stream.jsonl>...`: several files are consecutive turns. */
  normalize?: { adapter: string; files: string[] };
  /** The list as JSON (docs/json.md) instead of the table. */
  json?: boolean;
}

export interface CandidatesDeps {
  /** Timestamp for events whose stream carries none (tests pin it). */
  now?: () => Date;
  versionTimeoutMs?: number;
}

/**
 * `evalflow candidates`: every adapter, whether its CLI is on PATH and its version.
 * `evalflow candidates normalize <adapter> <files...>`: the transcript events (JSONL, one per
 * line) that captured streams become; files are consecutive turns of one session, so session
 * id and cumulative usage carry over. Exits 1 when a turn failed (shown as a `system` event).
 */
export async function run(options: CandidatesOptions, io: CommandIo, deps: CandidatesDeps = {}): Promise<number> {
  if (options.normalize && options.json) throw new UsageError('--json: not with `candidates normalize`, which prints transcript events as JSONL already');
  if (options.normalize) return normalize(options.normalize.adapter, options.normalize.files, io, deps.now ?? (() => new Date()));
  return list(io, deps.versionTimeoutMs ?? 5000, options.json === true);
}

type AdapterRow = z.input<typeof CandidatesJson>['adapters'][number];

async function list(io: CommandIo, timeoutMs: number, json: boolean): Promise<number> {
  const adapters = await Promise.all(
    CANDIDATE_ADAPTER_NAMES.map(async (name): Promise<AdapterRow> => {
      const { cli, description } = getCandidateAdapter(name);
      if (!cli) return { adapter: name, agent: description, needs_cli: false, installed: null, path: null, setup: null, version: null };
      const found = await findCliInstallation(cli, { hostEnv: io.env, timeoutMs });
      const agent = `${cli.cli} [${cli.executables.join(', ')}]`;
      return { adapter: name, agent, needs_cli: true, installed: Boolean(found.path), path: found.path ?? null, setup: found.path ? null : cli.setup, version: found.path ? (found.version ?? null) : null };
    }),
  );
  if (json) {
    printJson(io, CandidatesJson, { schema_version: 1, adapters });
    return 0;
  }
  const rows = adapters.map((a) => [a.adapter, a.agent, a.installed === null ? '-' : a.installed ? `yes (${a.path})` : `no (${a.setup})`, a.installed ? (a.version ?? 'unknown') : '-']);
  for (const line of formatTable(['adapter', 'agent', 'installed', 'version'], rows, { rule: false })) io.out(line);
  return 0;
}

async function normalize(adapterName: string, files: string[], io: CommandIo, now: () => Date): Promise<number> {
  const factory = getCandidateAdapter(adapterName).normalizer;
  if (!factory) throw new ConfigError(`adapter "${adapterName}" has no output stream to normalise (it is evalflow's own agent)`);
  let session: CandidateSession = {};
  let failed = false;
  for (const [index, file] of files.entries()) {
    const turn = index + 1;
    const path = resolve(io.cwd, file);
    const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
      throw new ConfigError(`cannot read stream file ${file}: ${err.code ?? err.message}`);
    });
    const normalizer = factory(session.cumulativeUsage ? { previousCumulative: session.cumulativeUsage } : {});
    const events: CandidateEvent[] = [];
    // Lines as a live turn reads them: a huge one shortened the same way.
    const lines = createLineReader((line) => events.push(...normalizer.push(line)));
    lines.push(text);
    lines.flush();
    const outcome = normalizer.end({ exitCode: 0, stderrTail: '' });
    events.push(...outcome.events);
    if (outcome.failure) {
      failed = true;
      events.push({ role: 'system', content: `turn ${turn} failed: ${outcome.failure.message}` });
    }
    for (const event of toTranscriptEvents(events, { runId: 'normalize', turn, attempt: 1, now })) io.out(JSON.stringify(event));
    io.err(
      `turn ${turn} (${basename(file)}): session ${outcome.sessionId ?? '-'}, ${events.length} events, ${outcome.ignoredLines} ignored lines, usage ${outcome.usage ? JSON.stringify(outcome.usage) : '-'}`,
    );
    session = {
      ...session,
      ...(outcome.sessionId ? { id: outcome.sessionId } : {}),
      ...(outcome.cumulativeUsage ? { cumulativeUsage: outcome.cumulativeUsage } : {}),
    };
  }
  return failed ? 1 : 0;
}

/** Candidate events as transcript lines of one turn: seq from 0, the stream's ts or `now`. */
export function toTranscriptEvents(events: CandidateEvent[], where: { runId: string; turn: number; attempt: number; now: () => Date }): TranscriptEvent[] {
  return events.map((event, seq) => ({
    run_id: where.runId,
    turn: where.turn,
    seq,
    attempt: where.attempt,
    ts: event.ts ?? where.now().toISOString(),
    role: event.role,
    content: event.content,
    ...(event.tool ? { tool: event.tool } : {}),
    ...(event.usage ? { usage: event.usage } : {}),
  }));
}
