import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { execa } from 'execa';
import { knownAdapterNames } from '../candidates/index.js';
import { resolveCandidate, type Settings } from '../config.js';
import { ConfigError } from '../errors.js';
import type { BatchArm } from '../run/batchInput.js';
import { ARM_NAME } from '../run/runId.js';
import type { CandidateSpec } from '../run/runSpec.js';
import { checkWorkflowFolder } from '../sandbox/workflowSnapshot.js';

/** What an arm may change; an experiment changes one of them and nothing else. */
const CHANGES = ['workflow_rev', 'workflow', 'candidate', 'model'] as const;
type Change = (typeof CHANGES)[number];

/**
 * The arms of `--arm NAME=SPEC`, resolved against the batch's settings, where SPEC is `base`
 * (nothing changed) or one `key=value`: `workflow_rev=REV` (the workflow folder as of a commit
 * of its repository, resolved here once so every run of the arm gets the same one),
 * `workflow=PATH` (another workflow folder), `workflow=none` (no workflow: what it adds),
 * `candidate=NAME`, `model=MODEL` (the candidate's model). Every arm must change the same
 * thing, so that the arms differ in exactly one thing; anything else is a ConfigError naming
 * the arm and what is wrong, and nothing starts.
 */
export async function resolveArms(given: readonly string[], settings: Settings, base: CandidateSpec, env: NodeJS.ProcessEnv, cwd: string): Promise<BatchArm[]> {
  if (given.length === 0) return [];
  if (given.length === 1) throw new ConfigError(`--arm ${given[0]}: an experiment needs at least two arms (e.g. --arm A=base --arm B=workflow_rev=HEAD~1)`);
  const arms: BatchArm[] = [];
  const changed = new Map<Change, string>();
  for (const text of given) {
    const eq = text.indexOf('=');
    const name = eq === -1 ? text : text.slice(0, eq);
    const spec = eq === -1 ? '' : text.slice(eq + 1);
    const where = `--arm ${text}`;
    if (!ARM_NAME.test(name)) throw new ConfigError(`${where}: expected NAME=SPEC with a name of letters, digits, '_' and '.', found '${name}'`);
    if (arms.some((a) => a.name === name)) throw new ConfigError(`${where}: arm ${name} is given twice`);
    if (spec === 'base') {
      arms.push({ name, change: 'base' });
      continue;
    }
    const parts = spec.split(',').map((p) => p.trim()).filter(Boolean);
    if (parts.length !== 1) {
      throw new ConfigError(`${where}: an arm changes exactly one thing; found ${parts.length === 0 ? 'nothing (expected base or one of ' + CHANGES.map((c) => `${c}=…`).join(', ') + ')' : `${parts.length}: ${parts.join(', ')}`}`);
    }
    const [key, value] = splitOnce(parts[0]!);
    if (!(CHANGES as readonly string[]).includes(key) || !value) {
      throw new ConfigError(`${where}: expected base or one of ${CHANGES.map((c) => `${c}=…`).join(', ')}, found '${parts[0]}'`);
    }
    changed.set(key as Change, name);
    arms.push({ name, change: `${key}=${value}`, ...(await resolveChange(key as Change, value, where, settings, base, env, cwd)) });
  }
  if (changed.size > 1) {
    const [first, second] = [...changed.entries()] as [Change, string][];
    throw new ConfigError(`arms ${first![1]} and ${second![1]} differ in more than one thing (${first![0]} and ${second![0]}); an experiment changes one thing, so that its result says what that one thing did`);
  }
  if (changed.size === 0) throw new ConfigError(`every arm is base: nothing would be compared; give one arm a change such as workflow_rev=HEAD~1`);
  return arms;
}

async function resolveChange(key: Change, value: string, where: string, settings: Settings, base: CandidateSpec, env: NodeJS.ProcessEnv, cwd: string): Promise<Omit<BatchArm, 'name' | 'change'>> {
  switch (key) {
    case 'workflow_rev': {
      const git = (args: string[]) => execa('git', args, { cwd: settings.workflowDir, reject: false });
      if (!existsSync(settings.workflowDir) || (await git(['rev-parse', '--show-toplevel'])).exitCode !== 0) {
        throw new ConfigError(`${where}: the workflow folder ${settings.workflowDir} is not in a git repository, so it has no revision ${value}`);
      }
      const commit = await git(['rev-parse', '--verify', `${value}^{commit}`]);
      if (commit.exitCode !== 0) throw new ConfigError(`${where}: no commit ${value} in the repository of ${settings.workflowDir}`);
      return { workflowRev: String(commit.stdout).trim() };
    }
    case 'workflow': {
      if (value === 'none') return { noWorkflow: true };
      const dir = resolve(cwd, value);
      const problem = await checkWorkflowFolder(dir);
      if (problem) throw new ConfigError(`${where}: ${problem}`);
      return { workflowDir: dir };
    }
    case 'candidate':
      return { candidate: resolveCandidate(settings, value, knownAdapterNames, env) };
    case 'model':
      return { candidate: { ...base, model: value } };
  }
}

function splitOnce(text: string): [string, string] {
  const eq = text.indexOf('=');
  return eq === -1 ? [text, ''] : [text.slice(0, eq), text.slice(eq + 1)];
}
