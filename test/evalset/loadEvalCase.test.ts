import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/errors.js';
import { checkEvalCase, EvalCaseSchema, hashCaseFiles, loadEvalCase } from '../../src/evalset/index.js';
import { aCase, ENV_YAML, META_YAML, RUBRIC_MD, TASK_MD, writeTree } from './caseFixture.js';

describe('loadEvalCase', () => {
  it('loads a valid case with its parsed files and the hash of the four files', async () => {
    const root = await writeTree(aCase('demo'));
    const evalCase = await loadEvalCase(path.join(root, 'demo'));
    expect(EvalCaseSchema.parse(evalCase)).toEqual(evalCase);
    expect(evalCase).toMatchObject({
      id: 'demo',
      dir: path.join(root, 'demo'),
      meta: { id: 'demo', version: 'v1', max_turns: 3, tags: ['demo'] },
      task: { prompt: 'Add a helper.\n\nKeep it small.', scenario: 'A developer who wants a helper.', guidance: 'End when the helper exists.' },
      rubric: { hard: ['The helper exists.', 'Tests pass.'], quality: ['Small diff.'], commonFailures: ['Forgetting tests.'] },
      env: { setup_commands: [], post_run_cleanup: [] },
    });
    expect(evalCase.env.postconditions).toEqual([{ description: 'tests pass', check: 'cd "${SANDBOX_DIR}" && node --test', severity: 'hard' }]);
    expect(evalCase.sha256).toBe(hashCaseFiles([META_YAML('demo'), TASK_MD, RUBRIC_MD, ENV_YAML].map((text) => Buffer.from(text))));
  });

  it('changes the hash when any file changes, even a comment', async () => {
    const root = await writeTree(aCase('demo'));
    const before = (await loadEvalCase(path.join(root, 'demo'))).sha256;
    await writeFile(path.join(root, 'demo', 'env.yaml'), `${ENV_YAML}# reviewed\n`);
    expect((await loadEvalCase(path.join(root, 'demo'))).sha256).not.toBe(before);
  });

  it('frames each file in the hash, so moving text between files changes it', () => {
    const hash = (texts: string[]) => hashCaseFiles(texts.map((text) => Buffer.from(text)));
    expect(hash(['ab', '', 'c', 'd'])).not.toBe(hash(['a', 'b', 'c', 'd']));
  });

  it('resolves a relative dir against cwd and names files relative to it', async () => {
    const root = await writeTree(aCase('demo', { 'meta.yaml': META_YAML('demo').replace('max_turns: 3', 'max_turns: 0') }, 'eval_sets/'));
    expect(await checkEvalCase('eval_sets/demo', { cwd: root })).toEqual({
      id: 'demo',
      dir: path.join(root, 'eval_sets', 'demo'),
      problems: ['eval_sets/demo/meta.yaml:6: max_turns: expected a whole number of turns from 1 to 50, found 0'],
    });
  });

  it('collects the problems of all four files instead of stopping at the first', async () => {
    const root = await writeTree(
      aCase('demo', {
        'meta.yaml': `${META_YAML('demo')}model: gpt-5\n`,
        'task.md': TASK_MD.replace('> Add a helper.\n>\n> Keep it small.', 'Add a helper.'),
        'rubric.md': RUBRIC_MD.replace('- Tests pass.', '- Tests pass.\n- c\n- d\n- e\n- f'),
        'env.yaml': 'setup_commands: ["echo ${HOME}"]\n',
      }),
    );
    const { evalCase, problems } = await checkEvalCase('demo', { cwd: root });
    expect(evalCase).toBeUndefined();
    expect(problems).toEqual([
      'demo/meta.yaml:8: model: eval cases never name the supply side (model, candidate, agent, IDE, provider, workflow version); ' +
        'remove "model" from meta.yaml and set it in evalflow.config.yaml or with a command-line flag',
      'demo/task.md:3: Prompt: expected a ">" blockquote holding the Turn 1 message, found none',
      'demo/rubric.md:1: Hard requirements: expected 1 to 5 list items, found 6',
      'demo/env.yaml:1: setup_commands.0: unknown variable ${HOME}; expected ${SANDBOX_DIR}, ${RUN_DIR} or ${CASE_DIR} ' +
        '(write $HOME without braces for a shell variable)',
    ]);
  });

  it('reports missing files and still checks the others', async () => {
    const root = await writeTree(aCase('demo', { 'task.md': undefined, 'env.yaml': undefined, 'meta.yaml': META_YAML('other') }));
    expect((await checkEvalCase('demo', { cwd: root })).problems).toEqual([
      'demo/task.md: missing file; every eval case folder holds meta.yaml, task.md, rubric.md, env.yaml',
      'demo/env.yaml: missing file; every eval case folder holds meta.yaml, task.md, rubric.md, env.yaml',
      'demo/meta.yaml:1: id: expected the folder name "demo", found "other"',
    ]);
  });

  it('throws a FormatError listing every problem', async () => {
    const root = await writeTree(aCase('demo', { 'rubric.md': undefined, 'env.yaml': 'severity: hard\n' }));
    const error = await loadEvalCase(path.join(root, 'demo')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FormatError);
    const dir = path.join(root, 'demo');
    expect((error as FormatError).problems).toEqual([
      `${dir}/rubric.md: missing file; every eval case folder holds meta.yaml, task.md, rubric.md, env.yaml`,
      `${dir}/env.yaml:1: severity: unknown key; expected one of: setup_commands, setup_network, preconditions, post_run_cleanup, postconditions, protected`,
    ]);
    expect((error as FormatError).message).toBe(`eval case ${dir} has 2 problem(s):\n${(error as FormatError).problems.join('\n')}`);
  });
});
