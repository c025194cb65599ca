import { describe, expect, it } from 'vitest';
import { dashboardCache } from '../../src/dashboard/view/dashboardCache.js';

/** A cache over a mark the test sets and a build that counts its calls (and can be held or made to fail). */
function fixture() {
  const state = { mark: 'm1', builds: 0, fail: false, hold: null as Promise<void> | null };
  const page = dashboardCache(
    async () => state.mark,
    async () => {
      state.builds += 1;
      const n = state.builds;
      await state.hold;
      if (state.fail) throw new Error('the store went away');
      return `page ${n} at ${state.mark}`;
    },
  );
  return { state, page };
}

describe('dashboardCache', () => {
  it('builds once per mark: the same mark serves the kept page, a new mark builds again', async () => {
    const { state, page } = fixture();
    expect(await page()).toBe('page 1 at m1');
    expect(await page()).toBe('page 1 at m1');
    expect(state.builds).toBe(1);
    state.mark = 'm2';
    expect(await page()).toBe('page 2 at m2');
    expect(await page()).toBe('page 2 at m2');
    expect(state.builds).toBe(2);
  });

  it('requests during a build for the same mark wait for that build', async () => {
    const { state, page } = fixture();
    let release!: () => void;
    state.hold = new Promise((resolve) => (release = resolve));
    const first = page();
    const second = page();
    release();
    expect(await Promise.all([first, second])).toEqual(['page 1 at m1', 'page 1 at m1']);
    expect(state.builds).toBe(1);
  });

  it('drops a build that failed, so the next request builds again', async () => {
    const { state, page } = fixture();
    state.fail = true;
    await expect(page()).rejects.toThrow('the store went away');
    state.fail = false;
    expect(await page()).toBe('page 2 at m1');
    expect(state.builds).toBe(2);
  });
});
