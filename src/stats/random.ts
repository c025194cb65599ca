/**
 * A seeded pseudo-random number generator (mulberry32): bootstrap intervals computed with the
 * same seed come out the same on every machine and every run, so reports are reproducible.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed evalflow's reports use unless told otherwise. */
export const DEFAULT_SEED = 20261201;
