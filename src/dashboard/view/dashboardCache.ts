/** What the viewer's first page shows: the dashboard as of now, as of an earlier state, or nothing yet. */
export type DashboardPage = { state: 'current' | 'stale'; html: string } | { state: 'building'; sinceMs: number };

export interface DashboardCacheOptions {
  /** How long a request waits for a build to finish before it is answered with the page kept from an earlier state. */
  freshWaitMs?: number;
  /** How long a request waits when no page was ever built (the viewer's first build) before it is told one is being built. */
  firstWaitMs?: number;
  now?: () => number;
}

/**
 * The viewer's dashboard, built once per state of the store: building it reads the whole
 * history (seconds, up to minutes at 100,000 runs), so a build is kept under the store's
 * change mark (`Store.changeMark`) and served again while no write became visible. After a
 * write, a request starts a build and waits a moment for it; if it is not done, the request
 * gets the page built before (marked stale), so the page always answers at once beside a
 * running batch, and the next request after the build shows the new state. One build runs at
 * a time: all of them read the whole history. A build that fails is dropped, so a later request tries again.
 */
export function dashboardCache(mark: () => Promise<string>, build: () => Promise<string>, options: DashboardCacheOptions = {}): () => Promise<DashboardPage> {
  const freshWaitMs = options.freshWaitMs ?? 150;
  const firstWaitMs = options.firstWaitMs ?? 3_000;
  const now = options.now ?? Date.now;
  let shown: { mark: string; html: string } | null = null;
  let building: { mark: string; page: Promise<string>; startedMs: number } | null = null;

  const start = (forMark: string) => {
    const entry = { mark: forMark, page: build(), startedMs: now() };
    building = entry;
    entry.page.then(
      (html) => {
        shown = { mark: forMark, html };
      },
      () => undefined,
    ).finally(() => {
      if (building === entry) building = null;
    });
    return entry;
  };

  return async () => {
    const current = await mark();
    if (shown?.mark === current) return { state: 'current', html: shown.html };
    const entry = building ?? start(current);
    // A build of an earlier state can only give another stale page: no point waiting for it.
    if (shown && entry.mark !== current) return { state: 'stale', html: shown.html };
    const settled = await Promise.race([
      entry.page.then(() => true, () => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), shown ? freshWaitMs : firstWaitMs).unref()),
    ]);
    // The page itself carries its build's time; a build that failed is reported only when nothing else can be shown.
    if (shown?.mark === current) return { state: 'current', html: shown.html };
    if (settled && entry.mark === current && !shown) await entry.page;
    if (!building) start(current);
    return shown ? { state: 'stale', html: shown.html } : { state: 'building', sinceMs: now() - (building ?? entry).startedMs };
  };
}
