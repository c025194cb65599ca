import { describe, expect, it } from 'vitest';
import { CASE_FILES, checkEvalCase, scaffoldEvalCase } from '../../src/evalset/index.js';
import { writeTree } from './caseFixture.js';

describe('scaffoldEvalCase', () => {
  it.each(['my-case', 'v2.bugfix_7'])('produces the four files of a case that validates (%s)', async (id) => {
    const files = scaffoldEvalCase(id);
    expect(Object.keys(files)).toEqual([...CASE_FILES]);
    const root = await writeTree(Object.fromEntries(Object.entries(files).map(([file, content]) => [`${id}/${file}`, content])));
    const { evalCase, problems } = await checkEvalCase(id, { cwd: root });
    expect(problems).toEqual([]);
    expect(evalCase?.meta).toMatchObject({ id, version: 'v1', max_turns: 3, tags: [] });
    expect(evalCase?.rubric.hard).toHaveLength(1);
    expect(evalCase?.env.preconditions).toEqual([
      { description: 'the project is checked out in the sandbox', check: 'test -d "${SANDBOX_DIR}"', severity: 'hard' },
    ]);
  });

  it('keeps authoring hints out of what the examiner and judge receive', async () => {
    const root = await writeTree(Object.fromEntries(Object.entries(scaffoldEvalCase('c')).map(([file, content]) => [`c/${file}`, content])));
    const { evalCase } = await checkEvalCase('c', { cwd: root });
    expect(evalCase?.task.prompt).toBe('TODO: the first message of the user, exactly as they would type it.');
    expect(JSON.stringify(evalCase?.task)).not.toContain('<!--');
    expect(JSON.stringify(evalCase?.rubric)).not.toContain('verifiable from tool calls');
  });
});
