/**
 * The viewer's dashboard, built once per state of the store: building it reads the whole
 * history (seconds at 100,000 runs), so a build is kept under the store's change mark
 * (`Store.changeMark`) and served again while the mark is the same, i.e. while no write became
 * visible; the first request after a write builds anew. Requests that come while a build for
 * the same mark runs wait for that one. A build that fails is dropped, so the next request tries again.
 */
export function dashboardCache(mark: () => Promise<string>, build: () => Promise<string>): () => Promise<string> {
  let kept: { mark: string; page: Promise<string> } | null = null;
  return async () => {
    const now = await mark();
    if (kept?.mark !== now) {
      const page = build();
      const entry = { mark: now, page };
      kept = entry;
      page.catch(() => {
        if (kept === entry) kept = null;
      });
    }
    return kept.page;
  };
}
