import { describe, expect, it } from 'vitest';
import { dashboardCache, type DashboardPage } from '../../src/dashboard/view/dashboardCache.js';

/** A cache over a mark the test sets and a build that counts its calls (and can be held or made to fail). */
function fixture(waits = { freshWaitMs: 50, firstWaitMs: 100 }) {
  const state = { mark: 'm1', builds: 0, fail: false, hold: null as Promise<void> | null };
  const page = dashboardCache(
    async () => state.mark,
    async () => {
      state.builds += 1;
      const n = state.builds;
      const mark = state.mark;
      await state.hold;
      if (state.fail) throw new Error('the store went away');
      return `page ${n} at ${mark}`;
    },
    waits,
  );
  return { state, page };
}

/** A gate a build waits on until the test opens it. */
function gate(state: { hold: Promise<void> | null }): () => void {
  let open!: () => void;
  state.hold = new Promise((resolve) => (open = resolve));
  return () => {
    state.hold = null;
    open();
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const html = (page: DashboardPage) => (page.state === 'building' ? null : page.html);

describe('dashboardCache', () => {
  it('builds once per mark: the same mark serves the kept page, a new mark builds again', async () => {
    const { state, page } = fixture();
    expect(await page()).toEqual({ state: 'current', html: 'page 1 at m1' });
    expect(await page()).toEqual({ state: 'current', html: 'page 1 at m1' });
    expect(state.builds).toBe(1);
    state.mark = 'm2';
    expect(await page()).toEqual({ state: 'current', html: 'page 2 at m2' });
    expect(await page()).toEqual({ state: 'current', html: 'page 2 at m2' });
    expect(state.builds).toBe(2);
  });

  it('requests during a build for the same mark wait for that build', async () => {
    const { state, page } = fixture();
    const open = gate(state);
    const first = page();
    const second = page();
    open();
    expect((await Promise.all([first, second])).map(html)).toEqual(['page 1 at m1', 'page 1 at m1']);
    expect(state.builds).toBe(1);
  });

  it('after a write, a slow build does not hold the page: the kept one is served as stale, and the next request after the build is current', async () => {
    const { state, page } = fixture();
    expect(html(await page())).toBe('page 1 at m1');
    state.mark = 'm2';
    const open = gate(state);
    expect(await page()).toEqual({ state: 'stale', html: 'page 1 at m1' });
    // Still building: another request starts no second build.
    expect(await page()).toEqual({ state: 'stale', html: 'page 1 at m1' });
    expect(state.builds).toBe(2);
    open();
    await settle();
    expect(await page()).toEqual({ state: 'current', html: 'page 2 at m2' });
    expect(state.builds).toBe(2);
  });

  it('a build of an earlier state that finishes leads to a build of the state now', async () => {
    const { state, page } = fixture();
    expect(html(await page())).toBe('page 1 at m1');
    state.mark = 'm2';
    const open = gate(state);
    expect((await page()).state).toBe('stale');
    state.mark = 'm3';
    open();
    await settle();
    // m2's page is kept; m3 is newer, so this request starts m3's build (quick here) and waits for it.
    expect(await page()).toEqual({ state: 'current', html: 'page 3 at m3' });
    expect(state.builds).toBe(3);
  });

  it('says a first build is under way when it takes longer than the first wait, and serves it once done', async () => {
    const { state, page } = fixture();
    const open = gate(state);
    const answer = await page();
    expect(answer.state).toBe('building');
    expect(answer.state === 'building' && answer.sinceMs).toBeGreaterThanOrEqual(50);
    open();
    await settle();
    expect(await page()).toEqual({ state: 'current', html: 'page 1 at m1' });
    expect(state.builds).toBe(1);
  });

  it('drops a build that failed: with nothing built the request fails, and the next request builds again', async () => {
    const { state, page } = fixture();
    state.fail = true;
    await expect(page()).rejects.toThrow('the store went away');
    state.fail = false;
    expect(await page()).toEqual({ state: 'current', html: 'page 2 at m1' });
    expect(state.builds).toBe(2);
  });

  it('a failed build after a write leaves the kept page served as stale', async () => {
    const { state, page } = fixture();
    expect(html(await page())).toBe('page 1 at m1');
    state.mark = 'm2';
    state.fail = true;
    expect(await page()).toEqual({ state: 'stale', html: 'page 1 at m1' });
    await settle();
    state.fail = false;
    expect(await page()).toEqual({ state: 'current', html: `page ${state.builds} at m2` });
  });
});
