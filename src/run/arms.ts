import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { execa } from 'execa';
import { ConfigError, SourceFetchError } from '../errors.js';
import { pinGitSource } from '../sandbox/gitMirror.js';
import { gitSourceOf, looksLikeGitUrl, parseGitUrl } from '../sandbox/gitUrl.js';
import { ARM_CHANGES, type ArmChange as Change } from './armChanges.js';
import type { BatchArm } from './batchInput.js';
import { ARM_NAME } from './runId.js';
import type { CandidateSpec, RunSpec, RunTemplate } from './runSpec.js';

/** One `--arm NAME=SPEC` as given: its name, and `base` or the one thing it changes. */
export interface ArmRequest {
  name: string;
  /** `base`, or `key=value` as given. */
  change: string;
  key?: Change;
  value?: string;
}

/** What resolving an arm needs from the batch: the base candidate and how a name becomes a candidate. */
export interface ArmContext {
  workflowDir: string;
  base: CandidateSpec;
  candidateNamed(name: string): CandidateSpec;
  cwd: string;
  /** The sandbox's check of a workflow folder (`workflow=DIR`): a problem, or undefined when it is one. */
  checkWorkflowFolder(dir: string): Promise<string | undefined>;
}

const EXPECTED = `base or one of ${ARM_CHANGES.map((c) => `${c.key}=…`).join(', ')}`;

/** Parses one `--arm NAME=SPEC`; a malformed one is a ConfigError naming it and what was expected. */
export function parseArm(text: string): ArmRequest {
  const [name, spec] = splitOnce(text, '=');
  const where = `--arm ${text}`;
  if (!ARM_NAME.test(name)) throw new ConfigError(`${where}: expected NAME=SPEC with a name of letters, digits, '_' and '.', found '${name}'`);
  if (spec === 'base') return { name, change: 'base' };
  const parts = spec.split(',').map((p) => p.trim()).filter(Boolean);
  if (parts.length !== 1) {
    throw new ConfigError(`${where}: an arm changes exactly one thing; found ${parts.length === 0 ? `nothing (expected ${EXPECTED})` : `${parts.length}: ${parts.join(', ')}`}`);
  }
  const [key, value] = splitOnce(parts[0]!, '=');
  if (!ARM_CHANGES.some((c) => c.key === key) || !value) throw new ConfigError(`${where}: expected ${EXPECTED}, found '${parts[0]}'`);
  return { name, change: `${key}=${value}`, key: key as Change, value };
}

/**
 * The arms of `--arm NAME=SPEC`, resolved once, here, so every run of an arm gets the same one:
 * `workflow_rev=REV` becomes the commit of the workflow folder's repository, `workflow=PATH` a
 * checked folder (`none`: no workflow), `candidate=NAME` a candidate, `model=M` the base
 * candidate on that model. Every arm must change the same thing, so that the arms differ in
 * exactly one thing; anything else is a ConfigError naming the arm, and nothing starts.
 */
export async function resolveArms(given: readonly string[], context: ArmContext): Promise<BatchArm[]> {
  if (given.length === 0) return [];
  if (given.length === 1) throw new ConfigError(`--arm ${given[0]}: an experiment needs at least two arms (e.g. --arm A=base --arm B=workflow_rev=HEAD~1)`);
  const arms: BatchArm[] = [];
  const changed = new Map<Change, string>();
  for (const text of given) {
    const request = parseArm(text);
    if (arms.some((a) => a.name === request.name)) throw new ConfigError(`--arm ${text}: arm ${request.name} is given twice`);
    if (!request.key) {
      arms.push({ name: request.name, change: 'base' });
      continue;
    }
    changed.set(request.key, request.name);
    arms.push({ name: request.name, change: request.change, ...(await resolveChange(request.key, request.value!, `--arm ${text}`, context)) });
  }
  if (changed.size > 1) {
    const [first, second] = [...changed.entries()] as [Change, string][];
    throw new ConfigError(`arms ${first![1]} and ${second![1]} differ in more than one thing (${first![0]} and ${second![0]}); an experiment changes one thing, so that its result says what that one thing did`);
  }
  if (changed.size === 0) throw new ConfigError(`every arm is base: nothing would be compared; give one arm a change such as workflow_rev=HEAD~1`);
  return arms;
}

/** The batch's template as a run of `arm` takes it: the template with the arm's one change applied. */
export function applyArm(template: RunTemplate, arm: BatchArm | undefined): RunTemplate & Pick<RunSpec, 'noWorkflow'> {
  const { workflowRev: _templateRev, ...rest } = template;
  const workflowRev = workflowRevOf(template, arm);
  return {
    ...rest,
    candidate: arm?.candidate ?? template.candidate,
    workflowDir: arm?.workflowDir ?? template.workflowDir,
    ...(workflowRev ? { workflowRev } : {}),
    ...(arm?.noWorkflow ? { noWorkflow: true } : {}),
  };
}

/** The arm's own rev; else the template's, unless the arm swaps the workflow folder or drops the workflow. */
function workflowRevOf(template: RunTemplate, arm: BatchArm | undefined): string | undefined {
  if (arm?.workflowRev) return arm.workflowRev;
  if (arm?.workflowDir || arm?.noWorkflow) return undefined;
  return template.workflowRev;
}

async function resolveChange(key: Change, value: string, where: string, context: ArmContext): Promise<Omit<BatchArm, 'name' | 'change'>> {
  switch (key) {
    case 'workflow_rev': {
      // A workflow given by URL has no history here: its refs are asked of the remote, pinned now.
      const remote = gitSourceOf(context.workflowDir);
      if (remote) return { workflowRev: await pinGitSource({ url: remote.url, ref: value }, 'workflow').catch(rethrowAs(where)) };
      const git = (args: string[]) => execa('git', args, { cwd: context.workflowDir, reject: false });
      if (!existsSync(context.workflowDir) || (await git(['rev-parse', '--show-toplevel'])).exitCode !== 0) {
        throw new ConfigError(`${where}: the workflow folder ${context.workflowDir} is not in a git repository, so it has no revision ${value}`);
      }
      const commit = await git(['rev-parse', '--verify', `${value}^{commit}`]);
      if (commit.exitCode !== 0) throw new ConfigError(`${where}: no commit ${value} in the repository of ${context.workflowDir}`);
      return { workflowRev: String(commit.stdout).trim() };
    }
    case 'workflow': {
      if (value === 'none') return { noWorkflow: true };
      const url = looksLikeGitUrl(value) ? parseGitUrl(value) : null;
      if (url && 'problem' in url) throw new ConfigError(`${where}: ${url.problem}`);
      if (url) return { workflowDir: value, workflowRev: await pinGitSource(url, 'workflow').catch(rethrowAs(where)) };
      const dir = resolve(context.cwd, value);
      const problem = await context.checkWorkflowFolder(dir);
      if (problem) throw new ConfigError(`${where}: ${problem}`);
      return { workflowDir: dir };
    }
    case 'candidate':
      return { candidate: context.candidateNamed(value) };
    case 'model':
      return { candidate: { ...context.base, model: value } };
  }
}

/** A remote that cannot be read fails the flag that named it, saying which. */
function rethrowAs(where: string): (err: unknown) => never {
  return (err) => {
    if (err instanceof SourceFetchError) throw new SourceFetchError(`${where}: ${err.message}`);
    throw err instanceof ConfigError ? new ConfigError(`${where}: ${err.message}`) : err;
  };
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at === -1 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
}
