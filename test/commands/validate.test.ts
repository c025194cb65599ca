import { describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { run } from '../../src/commands/validate.js';
import { aCase, ENV_YAML, META_YAML, RUBRIC_MD, TASK_MD, writeTree } from '../evalset/caseFixture.js';

describe('evalflow validate', () => {
  it('checks eval_sets by default and exits 0 when every case is valid', async () => {
    const root = await writeTree({ ...aCase('one', {}, 'eval_sets/'), ...aCase('two', {}, 'eval_sets/'), ...aCase('three', {}, 'eval_sets/') });
    const io = memoryIo(root);
    expect(await run({}, io)).toBe(0);
    expect(io.stdout).toEqual(['3 eval cases checked: 3 valid']);
    expect(io.stderr).toEqual([]);
  });

  it('prints every problem of every case, then a summary, and exits 1', async () => {
    const root = await writeTree({
      ...aCase('good', {}, 'bank/'),
      ...aCase('also-good', {}, 'bank/'),
      ...aCase('bad-meta', { 'meta.yaml': `${META_YAML('bad-meta').replace('max_turns: 3', 'max_turns: 51')}ide: vscode\n` }, 'bank/'),
      ...aCase('bad-rubric', { 'rubric.md': RUBRIC_MD.replace('## Quality', '## Qualty'), 'env.yaml': undefined }, 'bank/'),
    });
    const io = memoryIo(root);
    expect(await run({ paths: ['bank'] }, io)).toBe(1);
    expect(io.stdout).toEqual([
      'bank/bad-meta/meta.yaml:6: max_turns: expected a whole number of turns from 1 to 50, found 51',
      'bank/bad-meta/meta.yaml:8: ide: eval cases never name the supply side (model, candidate, agent, IDE, provider, workflow version); ' +
        'remove "ide" from meta.yaml and set it in evalflow.config.yaml or with a command-line flag',
      'bank/bad-rubric/env.yaml: missing file; every eval case folder holds meta.yaml, task.md, rubric.md, env.yaml',
      'bank/bad-rubric/rubric.md:6: unknown section "## Qualty"; expected one of: "## Hard requirements" (or "## 硬性通过项"), ' +
        '"## Quality" (or "## 质量项"), "## Common failures" (or "## 典型失分项")',
      'bank/bad-rubric/rubric.md: missing section "## Quality" (or "## 质量项")',
      '4 eval cases checked: 2 valid, 2 with problems (5 problems)',
    ]);
  });

  it('reports files that are not UTF-8 or too big, one problem each, and exits 1', async () => {
    const root = await writeTree({
      ...aCase('good', {}, 'eval_sets/'),
      ...aCase('utf16', { 'meta.yaml': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(META_YAML('utf16'), 'utf16le')]) }, 'eval_sets/'),
      // 硬性 in GBK: D3 B2 happens to be UTF-8 too, D0 D4 is not.
      ...aCase('gbk', { 'rubric.md': Buffer.concat([Buffer.from('## '), Buffer.from([0xd3, 0xb2, 0xd0, 0xd4]), Buffer.from(RUBRIC_MD)]) }, 'eval_sets/'),
      ...aCase('binary', { 'env.yaml': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]) }, 'eval_sets/'),
      ...aCase('huge', { 'task.md': `${TASK_MD}\n<!-- ${'x'.repeat(3_250_000)} -->\n`, 'env.yaml': `${ENV_YAML}#${'x'.repeat(70_000)}\n` }, 'eval_sets/'),
    });
    const io = memoryIo(root);
    expect(await run({}, io)).toBe(1);
    expect(io.stdout).toEqual([
      'eval_sets/binary/env.yaml: encoding: expected UTF-8 text, found binary data (NUL bytes)',
      'eval_sets/gbk/rubric.md:1: encoding: expected UTF-8 text, found bytes that are not UTF-8 at offset 5 (GBK or another legacy encoding?)',
      'eval_sets/huge/task.md: size: expected at most 256 KB, found 3.1 MB',
      'eval_sets/huge/env.yaml: size: expected at most 64 KB, found 68.6 KB',
      'eval_sets/utf16/meta.yaml: encoding: expected UTF-8 text, found UTF-16LE (byte order mark FF FE)',
      '5 eval cases checked: 1 valid, 4 with problems (5 problems)',
    ]);
    expect(io.stderr).toEqual([]);
  });

  it('reports a case folder too big to travel to the worker hosts, as `evalflow run` would refuse it', async () => {
    const root = await writeTree({
      ...aCase('small', {}, 'eval_sets/'),
      ...aCase('bulky', { 'fixtures/data.bin': Buffer.alloc(4 * 1024 * 1024 + 1) }, 'eval_sets/'),
    });
    const io = memoryIo(root);
    expect(await run({}, io)).toBe(1);
    expect(io.stdout).toEqual([
      'eval case eval_sets/bulky: its files hold more than 4 MB, expected at most that; a case folder travels to every worker host, so keep data sets out of it (fetch them in a setup command)',
      '2 eval cases checked: 1 valid, 1 with problems (1 problem)',
    ]);
  });

  it('counts problems outside any case, such as a missing folder', async () => {
    const root = await writeTree(aCase('one', {}, 'eval_sets/'));
    const io = memoryIo(root);
    expect(await run({ paths: ['eval_sets', 'missing'] }, io)).toBe(1);
    expect(io.stdout).toEqual([
      'missing: no such folder; expected an eval bank or an eval case folder',
      '1 eval case checked: 1 valid; 1 problem',
    ]);
  });

  it('reports duplicate ids and unknown --only ids', async () => {
    const root = await writeTree({ ...aCase('x', {}, 'a/'), ...aCase('x', {}, 'b/'), ...aCase('y', {}, 'b/') });
    const io = memoryIo(root);
    expect(await run({ paths: ['a', 'b'], only: ['x', 'z'] }, io)).toBe(1);
    expect(io.stdout).toEqual([
      'duplicate eval case id "x": a/x and b/x',
      '--only: unknown eval case id "z"; known ids: x, y',
      '1 eval case checked: 1 valid; 2 problems',
    ]);
  });

  it('validates the shipped eval bank', async () => {
    const io = memoryIo(new URL('../..', import.meta.url).pathname);
    expect(await run({}, io)).toBe(0);
    expect(io.stdout).toEqual(['5 eval cases checked: 5 valid']);
  });
});
