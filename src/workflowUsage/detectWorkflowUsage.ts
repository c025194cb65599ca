import type { TranscriptEvent } from '../transcript/schema.js';
import type { WorkflowItem } from './workflowItems.js';
import type { FolderPlacement, UsageFlag, WorkflowPlacement, WorkflowUsageRow } from '../vocabulary/workflowUsage.js';
import type { WorkflowSupport } from './workflowSupport.js';

export interface UsageInput {
  items: readonly WorkflowItem[];
  placement: WorkflowPlacement;
  support: WorkflowSupport;
  /** The run's transcript, latest attempt of each turn. */
  events: readonly TranscriptEvent[];
  /** Absolute path of the run's snapshot: an agent that follows the link reads files there. */
  snapshotDir?: string;
}

interface Sighting {
  turn: number;
  evidence: string;
}

interface Seen {
  loaded?: Sighting;
  invoked?: Sighting;
}

const EVIDENCE_CHARS = 300;

/**
 * For every item of the run's snapshot: whether the candidate loaded it and invoked it, with
 * the first turn and the event that shows it (a tool call that completed without error).
 * Invocation comes from the events that name an item (a skill tool call, a Task call's subagent, a slash command in the user's message);
 * loading also from any tool event whose path or command falls inside the placed workflow.
 * What the stream cannot show (a rule loaded silently, an inlined workflow) is `unknown`.
 */
export function detectWorkflowUsage(input: UsageInput): WorkflowUsageRow[] {
  const { items, support } = input;
  const seen = new Map<string, Seen>(items.map((item) => [item.ref, {}]));
  const placed = new Map(input.placement.folders.map((folder) => [folder.folder, folder]));
  const matchers = items.map((item) => ({ item, patterns: pathPatterns(item, placed.get(item.folder), input.snapshotDir) }));
  const mark = (item: WorkflowItem, what: keyof Seen, sighting: Sighting) => {
    const entry = seen.get(item.ref)!;
    entry[what] ??= sighting;
  };

  for (const event of input.events) {
    const sighting = { turn: event.turn, evidence: clip(`[Turn ${event.turn}] ${event.role === 'examiner' ? `user: ${event.content.trim()}` : event.content}`) };
    if (event.role === 'examiner') {
      const named = support.slashCommands ? slashName(event.content) : undefined;
      const item = named === undefined ? undefined : invocable(items, named, ['command', 'skill']);
      if (item && isNative(placed.get(item.folder))) mark(item, 'invoked', sighting);
      continue;
    }
    // Completed calls only, and only those that worked: a Skill call the agent refused, or a
    // read of a file that is not there, used nothing.
    if (event.role !== 'candidate.tool_call.completed' || !event.tool || event.tool.is_error) continue;
    const { tool } = event;
    if (tool.kind === 'skill' && tool.invokes) {
      const item = invocable(items, commandName(tool.invokes), ['skill', 'command']);
      if (item) mark(item, 'invoked', sighting);
    } else if (tool.kind === 'task' && tool.invokes) {
      const item = invocable(items, tool.invokes, ['agent']);
      if (item) mark(item, 'invoked', sighting);
    } else if (support.subagents === 'named') {
      const item = invocable(items, tool.name, ['agent']);
      if (item) mark(item, 'invoked', sighting);
    }
    const text = `${tool.target ?? ''}\n${event.content}`;
    for (const { item, patterns } of matchers) {
      const hit = patterns.find((pattern) => pattern.regex.test(text));
      if (!hit) continue;
      mark(item, 'loaded', sighting);
      if (item.kind === 'skill' && support.skillReadInvokes && hit.entry) mark(item, 'invoked', sighting);
    }
  }

  return items.map((item) => rowOf(item, seen.get(item.ref)!, placed.get(item.folder), support));
}

function rowOf(item: WorkflowItem, seen: Seen, placement: FolderPlacement | undefined, support: WorkflowSupport): WorkflowUsageRow {
  const loadedSighting = seen.loaded ?? seen.invoked;
  const unknownWhy = unknownReason(item, placement, support);
  const loaded: UsageFlag = loadedSighting ? 'yes' : unknownWhy.loaded ? 'unknown' : 'no';
  const invoked: UsageFlag = seen.invoked ? 'yes' : unknownWhy.invoked ? 'unknown' : 'no';
  const turns = [seen.loaded?.turn, seen.invoked?.turn].filter((turn): turn is number => turn !== undefined);
  const evidence = seen.invoked?.evidence ?? loadedSighting?.evidence ?? unknownWhy.loaded ?? unknownWhy.invoked ?? null;
  return { item: item.ref, kind: item.kind, name: item.name, loaded, invoked, first_turn: turns.length ? Math.min(...turns) : null, evidence };
}

/** Why the absence of an event says nothing, per question; undefined where absence means `no`. */
function unknownReason(item: WorkflowItem, placement: FolderPlacement | undefined, support: WorkflowSupport): { loaded?: string; invoked?: string } {
  if (!placement || placement.mode === 'inlined') {
    const why = `inlined into ${placement?.path ?? 'a context file'}: in the agent's context without an event`;
    return { loaded: why, invoked: why };
  }
  if (!support.observable) {
    const why = 'the agent\'s stream does not show what it reads or runs';
    return { loaded: why, invoked: why };
  }
  switch (item.kind) {
    case 'rule': {
      const invoked = 'rules are followed, not invoked';
      return support.silentRules ? { loaded: `rules in ${placement.path} are loaded without an event`, invoked } : { invoked };
    }
    case 'skill':
      return support.skillTool || support.skillReadInvokes ? {} : { invoked: 'the agent has no skill tool to show an invocation' };
    case 'agent':
      return support.subagents ? {} : { invoked: 'the agent has no subagent call to show an invocation' };
    case 'command':
      return support.slashCommands || support.skillTool ? {} : { invoked: 'the agent runs no slash commands' };
  }
}

interface PathPattern {
  regex: RegExp;
  /** The skill's SKILL.md: for an agent without a skill tool, reading it is using the skill. */
  entry: boolean;
}

/** Where the item's files are in the sandbox (its placed folder) and in the run's snapshot. */
function pathPatterns(item: WorkflowItem, placement: FolderPlacement | undefined, snapshotDir: string | undefined): PathPattern[] {
  if (!placement || placement.mode === 'inlined') return [];
  const bases = [placement.path, ...(snapshotDir ? [`${snapshotDir}/${item.folder}`] : [])];
  return bases.flatMap((base) => {
    const root = `${base.replace(/\/+$/, '')}/${item.path}`;
    if (item.kind !== 'skill') return [{ regex: mentions(root), entry: false }];
    return [
      { regex: mentions(`${root}/SKILL.md`), entry: true },
      { regex: mentions(`${root}/`, false), entry: false },
    ];
  });
}

/** `path` as a whole path in a command or summary: not part of a longer name on either side. */
function mentions(path: string, closed = true): RegExp {
  const escaped = path.replace(/^\.\//, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|[^A-Za-z0-9._-])(?:\\./)?${escaped}${closed ? '(?=$|[^A-Za-z0-9._-])' : ''}`, 'm');
}

function isNative(placement: FolderPlacement | undefined): boolean {
  return placement?.mode === 'native';
}

/** The command a user message starts with: `/fix-bug the slug` → `fix-bug`; Claude Code's `/git:commit` → `git/commit`. */
function slashName(message: string): string | undefined {
  const match = /^\s*\/([A-Za-z0-9][A-Za-z0-9._:-]*)(?=\s|$)/.exec(message);
  return match?.[1]?.replace(/:/g, '/');
}

/** A skill tool's argument: `node-test`, `/fix-bug args` → `fix-bug`. */
function commandName(invokes: string): string {
  return (invokes.trim().replace(/^\//, '').split(/\s+/)[0] ?? '').replace(/:/g, '/');
}

function invocable(items: readonly WorkflowItem[], name: string, kinds: WorkflowItem['kind'][]): WorkflowItem | undefined {
  for (const kind of kinds) {
    const found = items.find((item) => item.kind === kind && item.name === name);
    if (found) return found;
  }
  return undefined;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > EVIDENCE_CHARS ? `${line.slice(0, EVIDENCE_CHARS - 1)}…` : line;
}
