import { describe, expect, it } from 'vitest';
import { formatTable } from '../../../src/cli/output/table.js';

describe('formatTable', () => {
  it('pads each column but the last to its widest cell, two spaces apart, with a rule under the header', () => {
    expect(formatTable(['case', 'status', 'run dir'], [['a-long-case', 'ok', 'runs/a'], ['b', 'infra_error', 'runs/b']])).toEqual([
      'case         status       run dir',
      '-----------  -----------  -------',
      'a-long-case  ok           runs/a',
      'b            infra_error  runs/b',
    ]);
  });

  it('leaves no trailing spaces where the last cells are empty', () => {
    const lines = formatTable(['name', 'note'], [['x', ''], ['longer', 'n']], { rule: false });
    expect(lines).toEqual(['name    note', 'x', 'longer  n']);
  });

  it('is the header alone (and its rule) when there are no rows', () => {
    expect(formatTable(['batch', 'status'], [])).toEqual(['batch  status', '-----  ------']);
  });
});
