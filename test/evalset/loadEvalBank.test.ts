import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkEvalBank, loadEvalBank } from '../../src/evalset/index.js';
import { aCase, writeTree } from './caseFixture.js';

const bank = (prefix: string, ...ids: string[]) => Object.assign({}, ...ids.map((id) => aCase(id, {}, prefix))) as Record<string, string>;

describe('loadEvalBank', () => {
  it('loads every case folder of a bank, sorted by id', async () => {
    const root = await writeTree({ ...bank('eval_sets/', 'b-case', 'a-case', 'C-case'), 'eval_sets/README.md': '# bank\n' });
    const { cases, problems } = await loadEvalBank(['eval_sets'], { cwd: root });
    expect(problems).toEqual([]);
    expect(cases.map((evalCase) => evalCase.id)).toEqual(['C-case', 'a-case', 'b-case']);
    expect(cases[0]?.dir).toBe(path.join(root, 'eval_sets', 'C-case'));
  });

  it('accepts single case folders and banks together, and skips hidden folders', async () => {
    const root = await writeTree({ ...bank('bank/', 'x'), ...bank('bank/.drafts/', 'draft'), ...bank('more/', 'single') });
    const { cases, problems } = await loadEvalBank(['bank', 'more/single'], { cwd: root });
    expect(problems).toEqual([]);
    expect(cases.map((evalCase) => evalCase.id)).toEqual(['single', 'x']);
  });

  it('reports the same id in two folders as a duplicate, once', async () => {
    const root = await writeTree({ ...bank('a/', 'same', 'other'), ...bank('b/', 'same') });
    const { cases, problems } = await loadEvalBank(['a', 'b', 'a'], { cwd: root });
    expect(problems).toEqual(['duplicate eval case id "same": a/same and b/same']);
    expect(cases.map((evalCase) => [evalCase.id, evalCase.dir])).toEqual([
      ['other', path.join(root, 'a', 'other')],
      ['same', path.join(root, 'a', 'same')],
    ]);
  });

  it('selects cases with only', async () => {
    const root = await writeTree(bank('eval_sets/', 'one', 'two', 'three'));
    const { cases, problems } = await loadEvalBank(['eval_sets'], { cwd: root, only: ['two', 'one'] });
    expect(problems).toEqual([]);
    expect(cases.map((evalCase) => evalCase.id)).toEqual(['one', 'two']);
  });

  it('reports an unknown id in only, listing the known ids', async () => {
    const root = await writeTree(bank('eval_sets/', 'one', 'two'));
    const { cases, problems } = await loadEvalBank(['eval_sets'], { cwd: root, only: ['two', 'tow'] });
    expect(problems).toEqual(['--only: unknown eval case id "tow"; known ids: one, two']);
    expect(cases.map((evalCase) => evalCase.id)).toEqual(['two']);
  });

  it('checks only the selected cases', async () => {
    const root = await writeTree({ ...bank('eval_sets/', 'good'), ...aCase('broken', { 'task.md': undefined }, 'eval_sets/') });
    expect((await loadEvalBank(['eval_sets'], { cwd: root, only: ['good'] })).problems).toEqual([]);
    expect((await loadEvalBank(['eval_sets'], { cwd: root })).problems).toEqual([
      'eval_sets/broken/task.md: missing file; every eval case folder holds meta.yaml, task.md, rubric.md, env.yaml',
    ]);
  });

  it('reports a missing path, a file given as a path and an empty bank', async () => {
    const root = await writeTree({ 'notes.txt': 'x', 'empty/README.md': 'nothing here' });
    const { cases, problems } = await loadEvalBank(['nope', 'notes.txt', 'empty'], { cwd: root });
    expect(cases).toEqual([]);
    expect(problems).toEqual([
      'nope: no such folder; expected an eval bank or an eval case folder',
      'notes.txt: expected a folder (an eval bank or one eval case), found a file',
      'empty: no eval cases found; expected case folders holding meta.yaml, task.md, rubric.md, env.yaml',
    ]);
  });
});

describe('checkEvalBank', () => {
  it('keeps invalid cases with their problems apart from bank-level problems', async () => {
    const root = await writeTree({ ...bank('eval_sets/', 'ok'), ...aCase('bad', { 'env.yaml': 'setup_commands: 1\n' }, 'eval_sets/') });
    const checked = await checkEvalBank(['eval_sets', 'missing'], { cwd: root });
    expect(checked.problems).toEqual(['missing: no such folder; expected an eval bank or an eval case folder']);
    expect(checked.cases.map(({ id, problems, evalCase }) => ({ id, problems, valid: evalCase !== undefined }))).toEqual([
      { id: 'bad', problems: ['eval_sets/bad/env.yaml:1: setup_commands: expected a list, found 1'], valid: false },
      { id: 'ok', problems: [], valid: true },
    ]);
  });
});
