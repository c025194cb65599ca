import { cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { expandVariables, loadEvalBank } from '../../src/evalset/index.js';
import type { Condition, EvalCase } from '../../src/evalset/index.js';
import { writeTree } from './caseFixture.js';
import { REFERENCE_SOLUTIONS, SKILL_PAIR_SOLUTIONS, WRONG_SOLUTIONS } from './referenceSolutions.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const SHIPPED = ['add-truncate', 'fix-slug-dashes', 'reading-time-clarify'];
/** The pair that measures the node-test skill: it must fire in the first and must not in the second. */
const SKILL_PAIR = ['add-wordcount-test', 'explain-wordcount'];

/** The example project in a fresh git repo, as evalflow gives it to a candidate. */
async function sandboxWith(files: Record<string, string>): Promise<{ root: string; sandbox: string }> {
  const root = await writeTree({});
  const sandbox = path.join(root, 'sandbox');
  await cp(path.join(repoRoot, 'examples', 'project'), sandbox, { recursive: true });
  const git = (...args: string[]) => execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: sandbox });
  await git('init', '-q');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'project');
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(sandbox, file)), { recursive: true });
    await writeFile(path.join(sandbox, file), content);
  }
  await mkdir(path.join(root, 'run'));
  return { root, sandbox };
}

/** Run conditions as the pipeline does: variables expanded, one shell per check. */
async function runChecks(conditions: Condition[], evalCase: EvalCase, root: string) {
  const vars = { SANDBOX_DIR: path.join(root, 'sandbox'), RUN_DIR: path.join(root, 'run'), CASE_DIR: evalCase.dir };
  const results = [];
  for (const condition of conditions) {
    const result = await execa('sh', ['-c', expandVariables(condition.check, vars)], { reject: false, all: true, cwd: root });
    results.push({ description: condition.description, severity: condition.severity, passed: result.exitCode === 0, output: result.all });
  }
  return results;
}

const summary = (results: Awaited<ReturnType<typeof runChecks>>) => results.map((r) => `${r.passed ? 'pass' : 'FAIL'} ${r.severity} ${r.description}`);

describe('the shipped eval bank', () => {
  let cases: EvalCase[] = [];
  beforeAll(async () => {
    const bank = await loadEvalBank(['eval_sets'], { cwd: repoRoot });
    expect(bank.problems).toEqual([]);
    cases = bank.cases;
  });
  const caseById = (id: string) => cases.find((evalCase) => evalCase.id === id) as EvalCase;

  it('holds exactly the three example cases and the skill pair, all valid', () => {
    expect(cases.map((evalCase) => evalCase.id)).toEqual([...SHIPPED, ...SKILL_PAIR].sort());
    for (const evalCase of cases) {
      expect(evalCase.meta.max_turns).toBeGreaterThanOrEqual(2);
      expect(evalCase.meta.max_turns).toBeLessThanOrEqual(4);
      expect(evalCase.env.preconditions.some((condition) => condition.severity === 'hard')).toBe(true);
      expect(evalCase.env.postconditions.some((condition) => condition.severity === 'hard')).toBe(true);
    }
  });

  it('ships an example project whose own tests pass', async () => {
    const { sandbox } = await sandboxWith({});
    const result = await execa('node', ['--test'], { cwd: sandbox, reject: false, all: true });
    expect(result.all).toContain('# fail 0');
    expect(result.exitCode).toBe(0);
  });

  it('the skill pair expects the example workflow\'s node-test skill to fire in one and not in the other', () => {
    expect(caseById('add-wordcount-test').meta.expect_workflow).toEqual({ must_use: ['skills/node-test'], must_not_use: [] });
    expect(caseById('explain-wordcount').meta.expect_workflow).toEqual({ must_use: [], must_not_use: ['skills/node-test'] });
  });

  it.each(SKILL_PAIR)('%s: the reference solution passes every postcondition, the wrong one fails a hard one', async (id) => {
    const solutions = SKILL_PAIR_SOLUTIONS[id]!;
    const preconditions = await runChecks(caseById(id).env.preconditions, caseById(id), (await sandboxWith({})).root);
    expect(preconditions.every((r) => r.passed)).toBe(true);
    const reference = await runChecks(caseById(id).env.postconditions, caseById(id), (await sandboxWith(solutions.reference)).root);
    expect(summary(reference)).toEqual(reference.map((r) => `pass ${r.severity} ${r.description}`));
    const wrong = await runChecks(caseById(id).env.postconditions, caseById(id), (await sandboxWith(solutions.wrong)).root);
    expect(wrong.some((r) => r.severity === 'hard' && !r.passed)).toBe(true);
  });

  it.each(SHIPPED)('%s: the preconditions hold on the untouched project', async (id) => {
    const { root } = await sandboxWith({});
    const results = await runChecks(caseById(id).env.preconditions, caseById(id), root);
    expect(summary(results)).toEqual(results.map((r) => `pass ${r.severity} ${r.description}`));
  });

  it.each(SHIPPED)('%s: a hard postcondition fails before the candidate does anything', async (id) => {
    const { root } = await sandboxWith({});
    const results = await runChecks(caseById(id).env.postconditions, caseById(id), root);
    expect(results.some((r) => r.severity === 'hard' && !r.passed)).toBe(true);
  });

  it.each(SHIPPED)('%s: every postcondition passes with the reference solution', async (id) => {
    const { root } = await sandboxWith(REFERENCE_SOLUTIONS[id] ?? {});
    const results = await runChecks(caseById(id).env.postconditions, caseById(id), root);
    expect(summary(results)).toEqual(results.map((r) => `pass ${r.severity} ${r.description}`));
  });

  it.each([
    ['add-truncate', ['truncate behaves as specified', 'the test suite passes']],
    ['fix-slug-dashes', ['slugify collapses and trims dashes', 'the new tests catch the original bug']],
    ['reading-time-clarify', ["readingTime follows the user's rules", 'the test suite passes']],
  ])('%s: a plausible wrong solution fails the hard postconditions %j', async (id, expected) => {
    const { root } = await sandboxWith(WRONG_SOLUTIONS[id] ?? {});
    const results = await runChecks(caseById(id).env.postconditions, caseById(id), root);
    expect(results.filter((r) => r.severity === 'hard' && !r.passed).map((r) => r.description)).toEqual(expected);
  });

  it('fix-slug-dashes: the regression-test check fails when the fix comes without a test', async () => {
    const fixOnly = { 'src/slug.js': REFERENCE_SOLUTIONS['fix-slug-dashes']?.['src/slug.js'] ?? '' };
    const { root } = await sandboxWith(fixOnly);
    const results = await runChecks(caseById('fix-slug-dashes').env.postconditions, caseById('fix-slug-dashes'), root);
    expect(summary(results)).toEqual([
      'pass hard slugify collapses and trims dashes',
      'pass hard the test suite passes',
      'FAIL hard the new tests catch the original bug',
    ]);
  });
});
