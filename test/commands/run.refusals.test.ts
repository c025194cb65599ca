import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { run } from '../../src/commands/run.js';
import { UsageError } from '../../src/errors.js';
import type { RunOptions } from '../../src/commands/run.js';
import { aCase, ENV_YAML, TASK_MD, writeTree } from '../evalset/caseFixture.js';
import type { FileContent } from '../evalset/caseFixture.js';
import { startCli } from '../support/cliProcess.js';

/**
 * `evalflow run` refusing bad input before it starts anything. The state folder lies below a
 * file, so opening the store (the first thing a started run does) would throw instead.
 */
async function refusal(files: Record<string, FileContent>, options: RunOptions = {}) {
  const root = await writeTree({
    'evalflow.config.yaml': 'project: app\nworkflow_dir: team\n',
    'app/index.js': '',
    'team/rules/style.md': '',
    ...aCase('demo', {}, 'eval_sets/'),
    tripwire: 'not a folder',
    ...files,
  });
  const io = memoryIo(root, { PATH: process.env.PATH, EVALFLOW_HOME: 'tripwire/state', EVALFLOW_TEMPORAL_PORT: '1' });
  const code = await run({ candidate: 'command', ...options }, io);
  expect(io.stdout).toEqual([]);
  expect(existsSync(join(root, 'runs'))).toBe(false);
  return { code, stderr: io.stderr, root, config: join(root, 'evalflow.config.yaml') };
}

const PROJECT_EXPECTED = 'expected a folder (a git repository or a plain folder)';
const WORKFLOW_EXPECTED = 'expected a folder holding at least one of agents/, commands/, rules/, skills/';

describe('evalflow run refuses to start', () => {
  it('when the project path is a file, in one line saying how to set it', async () => {
    const { code, stderr, root, config } = await refusal({ 'evalflow.config.yaml': 'project: app.tar\nworkflow_dir: team\n', 'app.tar': '' });
    expect(stderr).toEqual([`error: project folder ${join(root, 'app.tar')}: ${PROJECT_EXPECTED}, found a file; pass --project <dir> or set project: in ${config}`]);
    expect(code).toBe(1);
  });

  it('when the project folder given with --project does not exist', async () => {
    const { code, stderr, root, config } = await refusal({}, { project: 'no-such-project' });
    expect(stderr).toEqual([
      `error: project folder ${join(root, 'no-such-project')}: ${PROJECT_EXPECTED}, found no such file or folder; pass --project <dir> or set project: in ${config}`,
    ]);
    expect(code).toBe(1);
  });

  it('when --project is a git URL of a form not fetched here, in one line naming the flag and the forms (a usage error: exit 2)', async () => {
    const root = await writeTree({ 'evalflow.config.yaml': 'project: app\nworkflow_dir: team\n', 'app/index.js': '', 'team/rules/style.md': '', ...aCase('demo', {}, 'eval_sets/') });
    const io = memoryIo(root, { PATH: process.env.PATH, EVALFLOW_HOME: 'state', EVALFLOW_TEMPORAL_PORT: '1' });
    const err = await run({ candidate: 'command', project: 'ftp://git.example.com/app.git' }, io).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(
      "--project: expected a local path or a git URL (https://host/repo, ssh://host/repo, git@host:repo, file:///path), optionally ending in #ref, found 'ftp://git.example.com/app.git' (scheme ftp:// is not one git is fetched over here)",
    );
    expect(existsSync(join(root, 'state'))).toBe(false);
  });

  it('when the workflow folder is missing or empty', async () => {
    const missing = await refusal({}, { workflowDir: 'gone' });
    expect(missing.stderr).toEqual([
      `error: workflow folder ${join(missing.root, 'gone')}: ${WORKFLOW_EXPECTED}, found no such file or folder; pass --workflow-dir <dir> or set workflow_dir: in ${missing.config}`,
    ]);
    expect(missing.code).toBe(1);

    const empty = await refusal({ 'evalflow.config.yaml': 'project: app\nworkflow_dir: empty\n', 'empty/.keep': '' });
    expect(empty.stderr).toEqual([
      `error: workflow folder ${join(empty.root, 'empty')}: ${WORKFLOW_EXPECTED}, found none of them (it holds .keep); pass --workflow-dir <dir> or set workflow_dir: in ${empty.config}`,
    ]);
    expect(empty.code).toBe(1);
  });

  it('when a case file is not UTF-8 or too big', async () => {
    const { code, stderr } = await refusal({
      'eval_sets/demo/task.md': Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(TASK_MD, 'utf16le').swap16()]),
      'eval_sets/demo/env.yaml': `${ENV_YAML}#${'x'.repeat(3_250_000)}\n`,
    });
    expect(stderr).toEqual([
      'error: eval_sets/demo/task.md: encoding: expected UTF-8 text, found UTF-16BE (byte order mark FE FF)',
      'error: eval_sets/demo/env.yaml: size: expected at most 64 KB, found 3.1 MB',
      'nothing was run: fix the problems above (`evalflow validate` checks a bank without running it)',
    ]);
    expect(code).toBe(1);
  });

  it('when the judge would grade its own work: one line naming both, exit 1, nothing started', { timeout: 60_000 }, async () => {
    const config = 'project: app\nworkflow_dir: team\ncandidates:\n  mine:\n    adapter: command\n    model: gpt-4o\n    args: [./agent.sh]\njudge:\n  model: gpt-4o\n';
    const root = await writeTree({ 'evalflow.config.yaml': config, 'app/index.js': '', 'team/rules/style.md': '', 'agent.sh': '', ...aCase('demo', {}, 'eval_sets/'), tripwire: 'not a folder' });
    const cli = startCli(['run', '--candidate', 'mine'], { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, EVALFLOW_HOME: 'tripwire/state', EVALFLOW_TEMPORAL_PORT: '1' } });
    expect(await cli.exited).toBe(1);
    expect(cli.stdout).toEqual([]);
    expect(cli.stderr).toEqual([
      "error: the judge would grade its own work: its model gpt-4o is the candidate's (candidate mine: adapter command, model gpt-4o); " +
        'give the judge another model (EVALFLOW_JUDGE_MODEL or judge: in evalflow.config.yaml), or pass --allow-self-judge to judge anyway',
    ]);
    expect(existsSync(join(root, 'runs'))).toBe(false);

    // Allowed, it goes on to the next check: the store under the tripwire cannot open.
    const allowed = startCli(['run', '--candidate', 'mine', '--allow-self-judge', '--no-worker'], { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, EVALFLOW_HOME: 'tripwire/state', EVALFLOW_TEMPORAL_PORT: '1' } });
    expect(await allowed.exited).not.toBe(0);
    expect(allowed.stderr.join('\n')).not.toContain('grade its own work');
  });
});
