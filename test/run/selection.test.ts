import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { selectCases, selectionOverrides } from '../../src/run/selection.js';

const REPO = resolve(import.meta.dirname, '../..');
const EXAMPLES = resolve(REPO, 'eval_sets');

describe('selectCases', () => {
  it('takes the config bank when no path is given, and keeps only the ids asked for', async () => {
    const all = await selectCases({}, EXAMPLES, REPO);
    expect(all.paths).toEqual([EXAMPLES]);
    expect(all.only).toBeUndefined();
    expect(all.bank.problems).toEqual([]);
    expect(all.bank.cases.length).toBeGreaterThan(1);
    const first = all.bank.cases[0]!.id;
    const one = await selectCases({ paths: ['eval_sets'], only: ` ${first} ,` }, '/elsewhere', REPO);
    expect(one.paths).toEqual([EXAMPLES]);
    expect(one.only).toEqual([first]);
    expect(one.bank.cases.map((c) => c.id)).toEqual([first]);
  });

  it('reports an unknown id as a problem of the bank, for the caller to word', async () => {
    const none = await selectCases({ only: 'no-such-case' }, EXAMPLES, REPO);
    expect(none.bank.cases).toEqual([]);
    expect(none.bank.problems.join('\n')).toContain('no-such-case');
  });
});

describe('selectionOverrides', () => {
  it('passes on the settings flags given, and nothing else', () => {
    expect(selectionOverrides({ project: 'p', candidate: 'c', only: 'x', runsPerCase: 3, arm: ['A=base'] })).toEqual({ project: 'p', candidate: 'c' });
    expect(selectionOverrides({})).toEqual({});
  });
});
