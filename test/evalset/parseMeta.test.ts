import { describe, expect, it } from 'vitest';
import { parseMeta, SUPPLY_SIDE_FIELDS } from '../../src/evalset/index.js';
import { META_YAML } from './caseFixture.js';

const FILE = 'eval_sets/demo/meta.yaml';
const parse = (text: string, folder = 'demo') => parseMeta(text, FILE, folder);
/** The valid meta with one `key: value` line replaced (or appended). */
const withLine = (key: string, value: string) => {
  const lines = META_YAML('demo').trimEnd().split('\n');
  const index = lines.findIndex((line) => line.startsWith(`${key}:`));
  if (index >= 0) lines[index] = `${key}: ${value}`;
  else lines.push(`${key}: ${value}`);
  return `${lines.join('\n')}\n`;
};

describe('parseMeta', () => {
  it('accepts a valid meta.yaml and defaults tags to an empty list', () => {
    const withoutTags = META_YAML('demo').replace('tags: [demo]\n', '');
    expect(parse(withoutTags)).toEqual({
      meta: {
        id: 'demo',
        version: 'v1',
        target_workflow: 'default',
        category: 'feature',
        purpose: 'checks a small feature',
        max_turns: 3,
        tags: [],
      },
      problems: [],
    });
  });

  it('reads expect_workflow, and names the field of a bad reference', () => {
    expect(parse(withLine('expect_workflow', '{ must_use: [skills/node-test] }')).meta?.expect_workflow).toEqual({ must_use: ['skills/node-test'], must_not_use: [] });
    expect(parse(withLine('expect_workflow', '{ must_not_use: [node-test] }')).problems).toEqual([
      `${FILE}:8: expect_workflow.must_not_use.0: expected <folder>/<name>, the folder one of agents, commands, rules, skills (e.g. skills/node-test), found "node-test"`,
    ]);
  });

  it('rejects an id that is not a valid case id', () => {
    expect(parse(withLine('id', '"-demo"'), '-demo').problems).toEqual([
      `${FILE}:1: id: expected letters, digits, ".", "_" or "-", starting with a letter or digit, found "-demo"`,
    ]);
  });

  it('rejects an id that differs from the folder name', () => {
    expect(parse(withLine('id', 'other'), 'demo').problems).toEqual([
      `${FILE}:1: id: expected the folder name "demo", found "other"`,
    ]);
  });

  it.each([
    ['1', 'expected a string, found 1'],
    ['V1', 'expected v1, v2, ..., found "V1"'],
    ['v1.2', 'expected v1, v2, ..., found "v1.2"'],
    ['version1', 'expected v1, v2, ..., found "version1"'],
  ])('rejects version %s', (version, message) => {
    expect(parse(withLine('version', version)).problems).toEqual([`${FILE}:2: version: ${message}`]);
  });

  it.each([
    ['0', 'expected a whole number of turns from 1 to 50, found 0'],
    ['51', 'expected a whole number of turns from 1 to 50, found 51'],
    ['2.5', 'expected an integer, found 2.5'],
    ['three', 'expected a number, found "three"'],
  ])('rejects max_turns %s', (value, message) => {
    expect(parse(withLine('max_turns', value)).problems).toEqual([`${FILE}:6: max_turns: ${message}`]);
  });

  it('accepts max_turns at both bounds', () => {
    expect(parse(withLine('max_turns', '1')).meta?.max_turns).toBe(1);
    expect(parse(withLine('max_turns', '50')).meta?.max_turns).toBe(50);
  });

  it.each(SUPPLY_SIDE_FIELDS)('rejects the supply-side field %s with its own explanation', (field) => {
    expect(parse(withLine(field, 'anything')).problems).toEqual([
      `${FILE}:8: ${field}: eval cases never name the supply side (model, candidate, agent, IDE, provider, workflow version); ` +
        `remove "${field}" from meta.yaml and set it in evalflow.config.yaml or with a command-line flag`,
    ]);
  });

  it('rejects unknown keys, listing the accepted ones', () => {
    expect(parse(withLine('owner', 'me')).problems).toEqual([
      `${FILE}:8: owner: unknown key; expected one of: id, version, target_workflow, category, purpose, max_turns, tags, expect_workflow`,
    ]);
  });

  it('reports every missing key', () => {
    expect(parse('id: demo\nversion: v1\n').problems).toEqual([
      `${FILE}: target_workflow: missing; expected a string`,
      `${FILE}: category: missing; expected a string`,
      `${FILE}: purpose: missing; expected a string`,
      `${FILE}: max_turns: missing; expected a number`,
    ]);
  });

  it('rejects empty strings and non-string tags', () => {
    expect(parse(withLine('category', '""').replace('tags: [demo]', 'tags: [demo, 7]')).problems).toEqual([
      `${FILE}:4: category: expected a category such as "feature" or "bugfix", found an empty string`,
      `${FILE}:7: tags.1: expected a string, found 7`,
    ]);
  });

  it('reports malformed YAML with its line number', () => {
    expect(parse('id: demo\nversion: v1\ntags: [a, b\nmax_turns: 3\n').problems).toEqual([
      `${FILE}:4: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]`,
    ]);
  });

  it('reports duplicate keys as malformed YAML', () => {
    expect(parse(`${META_YAML('demo')}max_turns: 4\n`).problems).toEqual([`${FILE}:8: invalid YAML: Map keys must be unique`]);
  });

  it('explains an empty file', () => {
    expect(parse('# nothing yet\n').problems).toEqual([
      `${FILE}: the file is empty; expected the keys id, version, target_workflow, category, purpose, max_turns, optional tags, optional expect_workflow`,
    ]);
  });

  it('rejects a file that is not a mapping', () => {
    expect(parse('- id: demo\n').problems).toEqual([`${FILE}: (root): expected a mapping, found a list of 1`]);
  });
});
