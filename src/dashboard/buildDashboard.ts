import { isUnfinished, RunStateSchema } from '../vocabulary/runStatus.js';
import { compareCase, LABEL_ORDER, type CaseSide, type ComparisonLabel } from '../stats/index.js';
import type { Batch, RunWithVerdict, Store } from '../store/index.js';
import { mergeSuggestions } from '../summaries/batchInsights.js';
import { loadRunsWithVerdicts, pagesOfRunsWithVerdicts } from '../summaries/loadRuns.js';
import { runCost } from '../summaries/prices.js';
import { runIsolation } from '../summaries/runIsolation.js';
import { sequentialRevisionNotes } from '../summaries/sequentialSideNotes.js';
import { ranWithoutWorkflow } from '../summaries/workflowRevision.js';
import { abTestOf } from './armComparison.js';
import { editPredictionMetrics } from './editPredictionMetrics.js';
import { markKind } from './markKind.js';
import { viewerLinks, type RunLinks } from './runLinks.js';
import { DashboardSchema, MarkKindSchema, NONE, type CellColumns, type Dashboard, type RevStep, type Timeline } from './schema.js';
import type { Prices } from '../vocabulary/prices.js';
import { SUGGESTION_TAGS } from '../vocabulary/suggestions.js';

export interface DashboardRequest {
  store: Store;
  prices: Prices;
  /** How many of each case's latest runs the timeline marks (older ones are counted, not drawn). */
  timelinePerCase?: number;
  /** Runs read per page (see pagesOfRunsWithVerdicts). */
  pageSize?: number;
  now?: () => Date;
  /** Where a run and a compare report open (default: the viewer's pages). */
  links?: RunLinks;
}

const SUMMARY_CHARS = 240;
const SUGGESTION_RUN_IDS = 5;
/** Judged runs per rev and case a rev comparison counts (see noteRevSide). */
export const REV_WINDOW = 50;

/**
 * Reads the whole history a page at a time and sums it into the dashboard's cells, keeping
 * only each case's latest runs for the timeline: memory holds one page, the cells and the
 * timeline, never every run.
 */
export async function buildDashboard(request: DashboardRequest): Promise<Dashboard> {
  const { store, prices } = request;
  const perCase = request.timelinePerCase ?? 60;
  const links = request.links ?? viewerLinks(null);
  const batchRows = (await store.listBatches()).reverse();
  const batches = new Dictionary<string>();
  for (const batch of batchRows) batches.index(batch.batch_id);
  const dims = { cases: new Dictionary<string>(), candidates: new Dictionary<string>(), models: new Dictionary<string>(), revs: new Dictionary<string>(), arms: new Dictionary<string>() };
  const caseFacts = new Map<string, { category: string; tags: string[] }>();
  const cells = new CellSums();
  const latest = new Map<number, Mark[]>();
  const revSides: RevSides = new Map();
  const armsOfBatch = new Map<string, Set<string>>();
  let runs = 0;
  let noBatch = false;

  for await (const page of pagesOfRunsWithVerdicts(store, {}, request.pageSize)) {
    for (const entry of page) {
      const { run, verdict } = entry;
      runs += 1;
      if (run.batch_id === null) noBatch = true;
      const caseIndex = dims.cases.index(run.case_id);
      if (!caseFacts.has(run.case_id)) caseFacts.set(run.case_id, caseFactsOf(run.spec));
      const key = {
        batch: batches.index(run.batch_id ?? NONE),
        case: caseIndex,
        candidate: dims.candidates.index(run.candidate),
        model: dims.models.index(run.models.candidate ?? NONE),
        rev: dims.revs.index(run.workflow_rev ?? NONE),
        arm: dims.arms.index(run.arm ?? NONE),
      };
      cells.add(key, entry, prices);
      if (run.batch_id !== null && run.arm !== null) (armsOfBatch.get(run.batch_id) ?? armsOfBatch.set(run.batch_id, new Set()).get(run.batch_id)!).add(run.arm);
      const at = Math.floor(Date.parse(run.finished_at ?? run.started_at ?? run.created_at) / 1000);
      keepLatest(latest, caseIndex, { entry, key, at, uncontained: runIsolation(run) === 'none' }, perCase);
      // A run without any workflow is an arm, never a revision: it stays out of the revision steps.
      if (run.status === 'completed' && verdict && !ranWithoutWorkflow(run)) noteRevSide(revSides, run.workflow_rev ?? NONE, entry, at);
    }
  }

  const rowsById = new Map(batchRows.map((b) => [b.batch_id, b]));
  const batchList = batches.values().map((id) => {
    const row = rowsById.get(id);
    return row ? { id, createdAt: row.created_at, status: row.status, kind: kindOf(row) } : { id, createdAt: new Date(0).toISOString(), status: 'none', kind: 'eval' as const };
  });
  // The runs outside any batch sort first: they have no time of their own.
  if (noBatch) batchList.sort((a, b) => (a.id === NONE ? -1 : b.id === NONE ? 1 : 0));
  const order = new Map(batchList.map((b, i) => [b.id, i]));
  const remap = batches.values().map((id) => order.get(id)!);
  const columns = cells.columns((b) => remap[b]!);

  const withRuns = new Set(columns.batch.map((i) => batchList[i]!.id));
  const lastEval = [...batchRows].reverse().find((b) => kindOf(b) === 'eval' && withRuns.has(b.batch_id)) ?? null;
  const lastAb = [...batchRows].reverse().find((b) => (armsOfBatch.get(b.batch_id)?.size ?? 0) > 1) ?? null;
  const dashboard: Dashboard = {
    version: 1,
    generatedAt: (request.now?.() ?? new Date()).toISOString(),
    runs,
    statuses: [...RunStateSchema.options],
    markKinds: [...MarkKindSchema.options],
    batches: batchList,
    cases: dims.cases.values().map((id) => ({ id, ...caseFacts.get(id)! })),
    candidates: dims.candidates.values(),
    models: dims.models.values(),
    revs: dims.revs.values(),
    arms: dims.arms.values(),
    cells: columns,
    timeline: timelineColumns(latest, perCase, (b) => remap[b]!, links),
    revSteps: await withMethodNotes(store, revSteps(revSides), revSides, new Set(batchRows.filter((b) => b.spec.until_decided).map((b) => b.batch_id))),
    ...(await lastBatchViews(store, lastEval)),
    editPrediction: await editPredictionMetrics(store, batchList),
    abTest: lastAb && abTestOf(lastAb, await loadRunsWithVerdicts(store, { batchId: lastAb.batch_id }), links, await store.getBatchDecisions(lastAb.batch_id)),
  };
  return DashboardSchema.parse(dashboard);
}

/** Strings given once, referred to by index. */
class Dictionary<T> {
  readonly #indexes = new Map<T, number>();
  index(value: T): number {
    let index = this.#indexes.get(value);
    if (index === undefined) {
      index = this.#indexes.size;
      this.#indexes.set(value, index);
    }
    return index;
  }
  values(): T[] {
    return [...this.#indexes.keys()];
  }
}

interface CellKey {
  batch: number;
  case: number;
  candidate: number;
  model: number;
  rev: number;
  arm: number;
}

const STATUSES = RunStateSchema.options;

/** The cell columns, grown a run at a time. */
class CellSums {
  readonly #byKey = new Map<string, number>();
  readonly #columns: CellColumns = {
    batch: [], case: [], candidate: [], model: [], rev: [], arm: [],
    byStatus: STATUSES.map(() => []),
    judged: [], passes: [], overallSum: [], overallN: [], complianceSum: [], executionQualitySum: [],
    tokens: [], tokensUnknown: [], cost: [], costUnknown: [], uncontained: [],
  };

  add(key: CellKey, { run, verdict }: RunWithVerdict, prices: Prices): void {
    const c = this.#columns;
    const id = `${key.batch}/${key.case}/${key.candidate}/${key.model}/${key.rev}/${key.arm}`;
    let i = this.#byKey.get(id);
    if (i === undefined) {
      i = c.batch.length;
      this.#byKey.set(id, i);
      for (const name of ['batch', 'case', 'candidate', 'model', 'rev', 'arm'] as const) c[name].push(key[name]);
      for (const column of c.byStatus) column.push(0);
      for (const name of ['judged', 'passes', 'overallSum', 'overallN', 'complianceSum', 'executionQualitySum', 'tokens', 'tokensUnknown', 'cost', 'costUnknown', 'uncontained'] as const) c[name].push(0);
    }
    c.byStatus[STATUSES.indexOf(run.status)]![i]! += 1;
    if (run.status === 'completed' && verdict) {
      c.judged[i]! += 1;
      if (verdict.result === 'pass') c.passes[i]! += 1;
      if (verdict.overall !== null) {
        c.overallSum[i]! += verdict.overall;
        c.overallN[i]! += 1;
      }
      c.complianceSum[i]! += verdict.compliance ?? 0;
      c.executionQualitySum[i]! += verdict.execution_quality ?? 0;
    }
    const roles = run.tokens ? [run.tokens.examiner, run.tokens.candidate, run.tokens.judge] : [null];
    if (isUnfinished(run.status) || roles.some((u) => u === null)) c.tokensUnknown[i]! += 1;
    else c.tokens[i]! += roles.reduce((n, u) => n + u!.input_tokens + u!.output_tokens, 0);
    const cost = isUnfinished(run.status) ? null : runCost(run.tokens, run.models, prices).total;
    if (cost === null) c.costUnknown[i]! += 1;
    else c.cost[i]! += cost;
    if (runIsolation(run) === 'none') c.uncontained[i]! += 1;
  }

  columns(batchOf: (index: number) => number): CellColumns {
    return { ...this.#columns, batch: this.#columns.batch.map(batchOf) };
  }
}

interface Mark {
  entry: RunWithVerdict;
  key: CellKey;
  at: number;
  /** Read before the mark drops the run's spec and config. */
  uncontained: boolean;
}

/** Keeps a case's `limit` latest runs, by time then run id. */
function keepLatest(latest: Map<number, Mark[]>, caseIndex: number, mark: Mark, limit: number): void {
  const marks = latest.get(caseIndex) ?? [];
  latest.set(caseIndex, marks);
  const before = (a: Mark, b: Mark) => a.at < b.at || (a.at === b.at && a.entry.run.run_id < b.entry.run.run_id);
  if (marks.length === limit && before(mark, marks[0]!)) return;
  let at = marks.length;
  while (at > 0 && before(mark, marks[at - 1]!)) at -= 1;
  marks.splice(at, 0, { ...mark, entry: { run: { ...mark.entry.run, spec: null, judge_input: null, config: {} }, verdict: mark.entry.verdict && { ...mark.entry.verdict, raw: '', summary: mark.entry.verdict.summary.slice(0, SUMMARY_CHARS) } } });
  if (marks.length > limit) marks.shift();
}

function timelineColumns(latest: Map<number, Mark[]>, perCase: number, batchOf: (index: number) => number, links: RunLinks): Timeline {
  const t: Timeline = { perCase, runId: [], case: [], batch: [], candidate: [], model: [], rev: [], arm: [], kind: [], at: [], overall: [], compliance: [], executionQuality: [], summary: [], uncontained: [], href: [] };
  const kinds = MarkKindSchema.options;
  for (const caseIndex of [...latest.keys()].sort((a, b) => a - b)) {
    for (const { entry, key, at, uncontained } of latest.get(caseIndex)!) {
      const { run, verdict } = entry;
      t.runId.push(run.run_id);
      t.case.push(caseIndex);
      t.batch.push(batchOf(key.batch));
      t.candidate.push(key.candidate);
      t.model.push(key.model);
      t.rev.push(key.rev);
      t.arm.push(key.arm);
      t.kind.push(kinds.indexOf(markKind(run.status, verdict?.result ?? null)));
      t.at.push(at);
      t.overall.push(verdict?.overall ?? null);
      t.compliance.push(verdict?.compliance ?? null);
      t.executionQuality.push(verdict?.execution_quality ?? null);
      t.summary.push(verdict?.summary ?? '');
      t.uncontained.push(uncontained);
      t.href.push(links.run(run));
    }
  }
  return t;
}

/** A judged run as a rev comparison counts it. */
interface RevOutcome {
  at: number;
  runId: string;
  batchId: string | null;
  version: string;
  hash: string;
  pass: boolean;
}

type RevSides = Map<string, { firstAt: number; cases: Map<string, RevOutcome[]> }>;

/**
 * Keeps each rev's latest REV_WINDOW judged runs per case: Fisher's exact test and the
 * smallest detectable difference cost the cube of the run counts, so a label over thousands
 * of runs of a case would take minutes; the latest runs are also what a rev is now.
 */
function noteRevSide(sides: RevSides, rev: string, { run, verdict }: RunWithVerdict, at: number): void {
  let side = sides.get(rev);
  if (!side) sides.set(rev, (side = { firstAt: at, cases: new Map() }));
  side.firstAt = Math.min(side.firstAt, at);
  const outcomes = side.cases.get(run.case_id) ?? [];
  side.cases.set(run.case_id, outcomes);
  const outcome = { at, runId: run.run_id, batchId: run.batch_id, version: run.case_version, hash: run.case_hash, pass: verdict!.result === 'pass' };
  const before = (a: RevOutcome, b: RevOutcome) => a.at < b.at || (a.at === b.at && a.runId < b.runId);
  if (outcomes.length === REV_WINDOW && before(outcome, outcomes[0]!)) return;
  let index = outcomes.length;
  while (index > 0 && before(outcome, outcomes[index - 1]!)) index -= 1;
  outcomes.splice(index, 0, outcome);
  if (outcomes.length > REV_WINDOW) outcomes.shift();
}

/** One side of a case as compareCase takes it; runs of different versions of a case are not one side of it (as in compareSides). */
function caseSide(caseId: string, outcomes: readonly RevOutcome[] | undefined): CaseSide | null {
  if (!outcomes || outcomes.length === 0) return null;
  const hashes = [...new Set(outcomes.map((o) => o.hash))];
  return { caseId, version: outcomes[0]!.version, hash: hashes.join('|'), completed: outcomes.length, passes: outcomes.filter((o) => o.pass).length, uncounted: {}, meanOverall: null };
}

/** Each workflow_rev against the one first run before it, case by case with compareCase's labels, over each side's latest REV_WINDOW runs. */
function revSteps(sides: RevSides): RevStep[] {
  const revs = [...sides.entries()].filter(([rev]) => rev !== NONE).sort((a, b) => a[1].firstAt - b[1].firstAt || (a[0] < b[0] ? -1 : 1));
  const steps: RevStep[] = [];
  for (let i = 1; i < revs.length; i++) {
    const [previous, a] = revs[i - 1]!;
    const [rev, b] = revs[i]!;
    const caseIds = [...new Set([...a.cases.keys(), ...b.cases.keys()])].sort();
    const cases = caseIds.map((caseId) => {
      const compared = compareCase(caseId, caseSide(caseId, a.cases.get(caseId)), caseSide(caseId, b.cases.get(caseId)));
      return { caseId, label: compared.label, difference: compared.difference };
    });
    cases.sort((x, y) => LABEL_ORDER.indexOf(x.label) - LABEL_ORDER.indexOf(y.label) || (x.caseId < y.caseId ? -1 : 1));
    const labels = Object.fromEntries(LABEL_ORDER.map((l) => [l, cases.filter((c) => c.label === l).length])) as Record<ComparisonLabel, number>;
    steps.push({ rev, previous, labels, cases, notes: [] });
  }
  return steps;
}

/**
 * Each step's note per batch run until decided among the runs it compares (`sequentialRevisionNotes`):
 * its labels are Fisher's test on runs whose counts a sequential test chose. `decided`: the
 * batches that ran until decided, so no other batch is looked up.
 */
async function withMethodNotes(store: Store, steps: RevStep[], sides: RevSides, decided: ReadonlySet<string>): Promise<RevStep[]> {
  if (decided.size === 0) return steps;
  const batchesOf = (rev: string) => [...new Set([...(sides.get(rev)?.cases.values() ?? [])].flat().map((o) => o.batchId))].filter((b): b is string => b !== null && decided.has(b));
  return Promise.all(steps.map(async (step) => ({ ...step, notes: await sequentialRevisionNotes(store, step.previous, step.rev, batchesOf) })));
}

/** The last eval batch's suggestions (merged as batch-insights.md merges them) and its runs' workflow usage. */
async function lastBatchViews(store: Store, batch: Batch | null): Promise<Pick<Dashboard, 'suggestions' | 'workflowUsage'>> {
  if (!batch) return { suggestions: { batchId: null, groups: [] }, workflowUsage: { batchId: null, items: [] } };
  const entries = await loadRunsWithVerdicts(store, { batchId: batch.batch_id });
  const merged = mergeSuggestions(entries);
  const groups = [...SUGGESTION_TAGS, 'untagged'].map((tag) => {
    const items = (merged[tag] ?? []).map((s) => ({ text: s.text, count: s.count, runIds: s.runs.slice(0, SUGGESTION_RUN_IDS).map((r) => r.runId) }));
    return { tag, count: items.reduce((n, s) => n + s.count, 0), items };
  });
  const usage = new Map<string, Dashboard['workflowUsage']['items'][number]>();
  for (const row of await store.getWorkflowUsage(entries.map((e) => e.run.run_id))) {
    let item = usage.get(row.item);
    if (!item) usage.set(row.item, (item = { item: row.item, kind: row.kind, runs: 0, loaded: { yes: 0, no: 0, unknown: 0 }, invoked: { yes: 0, no: 0, unknown: 0 } }));
    item.runs += 1;
    item.loaded[row.loaded] += 1;
    item.invoked[row.invoked] += 1;
  }
  return {
    suggestions: { batchId: batch.batch_id, groups: groups.filter((g) => g.tag !== 'untagged' || g.count > 0) },
    workflowUsage: { batchId: batch.batch_id, items: [...usage.values()].sort((a, b) => (a.item < b.item ? -1 : 1)) },
  };
}

function kindOf(batch: Batch): 'eval' | 'edit_prediction' {
  return batch.spec.kind === 'edit_prediction' ? 'edit_prediction' : 'eval';
}

/** The case's category and tags as the run's spec recorded them (older runs may lack them). */
function caseFactsOf(spec: Record<string, unknown> | null): { category: string; tags: string[] } {
  const evalCase = (spec?.evalCase ?? {}) as { category?: unknown; tags?: unknown };
  const category = typeof evalCase.category === 'string' && evalCase.category ? evalCase.category : NONE;
  const tags = Array.isArray(evalCase.tags) ? evalCase.tags.filter((t): t is string => typeof t === 'string') : [];
  return { category, tags };
}
