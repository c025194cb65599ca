import { describe, expect, it } from 'vitest';
import { CandidatesJson } from '../../../src/cli/json/candidates.js';
import { ValidateJson } from '../../../src/cli/json/validate.js';
import { run as candidates } from '../../../src/commands/candidates.js';
import { run as validate } from '../../../src/commands/validate.js';
import { aCase, META_YAML, writeTree } from '../../evalset/caseFixture.js';
import { tempDir } from '../../sandbox/sandboxFixture.js';
import { bothForms, cells, expectDocument } from './support.js';

describe('--json of the commands that need no store', () => {
  it('validate: every case with its problems, the counts of the summary line, and the same exit code', async () => {
    const root = await writeTree({ ...aCase('good', {}, 'bank/'), ...aCase('bad-meta', { 'meta.yaml': META_YAML('bad-meta').replace('max_turns: 3', 'max_turns: 51') }, 'bank/') });
    const { table, json, code } = await bothForms(validate, { paths: ['bank'] }, root);
    expect(code).toBe(1);
    const doc = expectDocument(ValidateJson, json);
    expect(doc.cases.map((c) => [c.id, c.valid, c.problems.length])).toEqual([
      ['bad-meta', false, 1],
      ['good', true, 0],
    ]);
    expect(table).toEqual([...doc.cases.flatMap((c) => c.problems), `${doc.checked} eval cases checked: ${doc.valid} valid, 1 with problems (${doc.problems} problem)`]);
    expect(doc.bank_problems).toEqual([]);
  });

  it('candidates: every adapter of the table, installed or not, with what the table says of it', async () => {
    // An empty PATH: no agent CLI is found, so every adapter that needs one says how to install it.
    const home = await tempDir('evalflow-json-candidates-');
    const { table, json } = await bothForms((options: { json?: boolean }, io) => candidates(options, { ...io, env: { PATH: home } }, { versionTimeoutMs: 2000 }), {}, home);
    const doc = expectDocument(CandidatesJson, json);
    expect(doc.adapters.length).toBe(table.length - 1);
    for (const [i, a] of doc.adapters.entries()) {
      expect(cells(table[i + 1]!)).toEqual([a.adapter, a.agent, a.needs_cli ? `no (${a.setup})` : '-', '-']);
      expect(a.installed).toBe(a.needs_cli ? false : null);
    }
    expect(doc.adapters.some((a) => !a.needs_cli)).toBe(true);
    expect(doc.adapters.some((a) => a.needs_cli)).toBe(true);
  });
});
