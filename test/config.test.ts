import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../src/config.js';
import { ConfigError, FormatError, UsageError } from '../src/errors.js';
import { fixture, FULL_CONFIG, loadError, settingsFor } from './support/configFixture.js';

describe('loadSettings: the config file', () => {
  it('reads every section of a valid file', async () => {
    const { root, settings } = await settingsFor(FULL_CONFIG);
    expect(settings.configPath).toBe(join(root, 'evalflow.config.yaml'));
    expect(settings.root).toBe(root);
    expect(settings.candidates['claude-sonnet']).toEqual({
      name: 'claude-sonnet',
      adapter: 'claude-code',
      model: 'sonnet',
      args: ['--verbose'],
      env: { FOO: 'bar' },
      apiKeyEnv: 'ANTHROPIC_API_KEY',
      turnTimeoutS: 120,
    });
    expect(settings.examiner).toEqual({ model: 'exam-model', baseUrl: 'http://127.0.0.1:9000/v1', apiKeyEnv: 'OPENAI_API_KEY' });
    expect(settings.judge).toEqual({ model: 'judge-model', apiKeyEnv: 'JUDGE_KEY' });
    expect(settings.defaultCandidate).toBe('claude-sonnet');
    expect([settings.parallelism, settings.runsPerCase, settings.turnTimeoutS]).toEqual([4, 3, 600]);
    expect(settings.storeSchema).toBe('evalflow_test');
    expect(settings.databaseUrl).toBeUndefined();
    expect(settings.temporal).toMatchObject({ address: '127.0.0.1:7777', namespace: 'evals', port: 7300, uiPort: 8300 });
  });

  it('uses defaults when there is no config file', async () => {
    const root = await fixture({});
    const settings = await loadSettings(root, {});
    expect(settings.configPath).toBeNull();
    expect(settings.root).toBe(root);
    expect(settings.project).toBe(join(root, 'examples/project'));
    expect(settings.runsDir).toBe(join(root, 'runs'));
    expect(settings.defaultCandidate).toBe('builtin');
    expect(settings.examiner).toEqual({ model: 'gpt-4o-mini', apiKeyEnv: 'OPENAI_API_KEY' });
    expect(settings.temporal).toMatchObject({ address: undefined, namespace: 'default', port: 7233, uiPort: 8233 });
    expect(settings.temporal.dbFilename).toBe(join(root, '.evalflow', 'temporal.db'));
  });

  it('rejects an unknown key, naming the file', async () => {
    const root = await fixture({ 'evalflow.config.yaml': 'project: x\ncolour: red\n' });
    const err = await loadError(loadSettings(root, {}));
    expect(err).toBeInstanceOf(FormatError);
    expect(err.message).toBe(`${join(root, 'evalflow.config.yaml')}: (root): Unrecognized key: "colour"`);
  });

  it('rejects an unknown key inside a candidate, naming its path', async () => {
    const root = await fixture({ 'evalflow.config.yaml': 'candidates:\n  a:\n    adapter: codex\n    modle: x\n' });
    const err = await loadError(loadSettings(root, {}));
    expect(err).toBeInstanceOf(FormatError);
    expect(err.message).toContain('candidates.a: Unrecognized key: "modle"');
  });

  it('rejects an api_key_env that is not an env var name', async () => {
    const root = await fixture({ 'evalflow.config.yaml': 'judge:\n  model: m\n  api_key_env: sk-live-123\n' });
    const err = await loadError(loadSettings(root, {}));
    expect(err).toBeInstanceOf(FormatError);
    expect(err.message).toBe(
      `${join(root, 'evalflow.config.yaml')}: judge.api_key_env: Invalid string: must match pattern /^[A-Za-z_][A-Za-z0-9_]*$/`,
    );
  });

  it('refuses a secret written literally in a candidate env, and accepts a reference', async () => {
    const root = await fixture({ 'evalflow.config.yaml': 'candidates:\n  a:\n    adapter: command\n    args: [x]\n    env:\n      ANTHROPIC_API_KEY: sk-ant-literal-123\n      LOG_LEVEL: debug\n' });
    const err = await loadError(loadSettings(root, {}));
    expect(err).toBeInstanceOf(FormatError);
    expect(err.message).toBe(
      `${join(root, 'evalflow.config.yaml')}: candidates.a.env.ANTHROPIC_API_KEY: expected a reference to an environment variable such as '\${ANTHROPIC_API_KEY}', found a literal secret (it would be stored in Temporal's history and the run records)`,
    );
    expect(err.message).not.toContain('sk-ant-literal-123');
    const ok = await fixture({ 'evalflow.config.yaml': 'candidates:\n  a:\n    adapter: command\n    args: [x]\n    env:\n      ANTHROPIC_API_KEY: ${CORP_LLM_KEY}\n' });
    expect((await loadSettings(ok, {})).candidates.a?.env).toEqual({ ANTHROPIC_API_KEY: '${CORP_LLM_KEY}' });
  });

  it('names the file when the YAML does not parse', async () => {
    const root = await fixture({ 'evalflow.config.yaml': 'candidates: [a,\n' });
    const err = await loadError(loadSettings(root, {}));
    expect(err).toBeInstanceOf(FormatError);
    expect(err.message).toMatch(new RegExp(`^${escape(join(root, 'evalflow.config.yaml'))}: not valid YAML: `));
  });

  it('fails with a ConfigError when --config names a missing file', async () => {
    const root = await fixture({ 'evalflow.config.yaml': 'project: x\n' });
    const err = await loadError(loadSettings(root, {}, { configPath: 'nope/evalflow.config.yaml' }));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toBe(`config file ${join(root, 'nope/evalflow.config.yaml')} does not exist`);
  });

  it('treats an empty file as an empty config', async () => {
    const { settings } = await settingsFor('');
    expect(settings.candidates).toEqual({});
    expect(settings.defaultCandidate).toBe('builtin');
  });
});

describe('loadSettings: paths', () => {
  it('resolves relative paths against the config file folder, not the working directory', async () => {
    const root = await fixture({ 'conf/evalflow.config.yaml': FULL_CONFIG, 'elsewhere/.keep': '' });
    const settings = await loadSettings(join(root, 'elsewhere'), {}, { configPath: '../conf/evalflow.config.yaml' });
    const conf = join(root, 'conf');
    expect(settings.root).toBe(conf);
    expect(settings.project).toBe(join(conf, 'app'));
    expect(settings.workflowDir).toBe(join(conf, 'wf'));
    expect(settings.evalSets).toBe(join(conf, 'cases'));
    expect(settings.runsDir).toBe(join(conf, 'out/runs'));
    expect(settings.pgliteDir).toBe(join(conf, 'data/pg'));
    expect(settings.stateDir).toBe(join(conf, '.evalflow'));
  });

  it('keeps absolute paths as they are', async () => {
    const { settings } = await settingsFor('project: /srv/project\nruns_dir: /var/runs\n');
    expect(settings.project).toBe('/srv/project');
    expect(settings.runsDir).toBe('/var/runs');
  });

  it("says what set the runs dir, so a worker writes to its own only when its config names one", async () => {
    expect((await settingsFor('project: /srv/project\n')).settings.runsDirFrom).toBe('default');
    expect((await settingsFor('runs_dir: /var/runs\n')).settings.runsDirFrom).toBe('config');
    expect((await settingsFor('runs_dir: /var/runs\n', { EVALFLOW_RUNS_DIR: '/host/runs' })).settings).toMatchObject({ runsDir: '/host/runs', runsDirFrom: 'env' });
  });

  it('expands ~ to the home folder in config paths, commands and flags', async () => {
    const config = 'project: ~/code/my app\nworkflow_dir: "~"\nruns_dir: ~runs\ncandidates:\n  mine:\n    adapter: command\n    args: [~/bin/agent.sh]\n';
    const { root, settings } = await settingsFor(config, { HOME: '/home/ada' });
    expect(settings.project).toBe('/home/ada/code/my app');
    expect(settings.workflowDir).toBe('/home/ada');
    // Only `~` alone or `~/`: `~runs` is an ordinary relative name.
    expect(settings.runsDir).toBe(join(root, '~runs'));
    expect(settings.candidates.mine?.args).toEqual(['/home/ada/bin/agent.sh']);
    const flagged = await loadSettings(root, { HOME: '/home/ada' }, { project: '~/other' });
    expect(flagged.project).toBe('/home/ada/other');
  });

  it('resolves path flags against the working directory, where the user typed them', async () => {
    const root = await fixture({ 'conf/evalflow.config.yaml': FULL_CONFIG, 'work/.keep': '' });
    const cwd = join(root, 'work');
    const settings = await loadSettings(cwd, {}, {
      configPath: '../conf/evalflow.config.yaml',
      project: 'proj',
      workflowDir: './wf2',
      runsDir: 'r',
    });
    expect(settings.project).toBe(join(cwd, 'proj'));
    expect(settings.workflowDir).toBe(join(cwd, 'wf2'));
    expect(settings.runsDir).toBe(join(cwd, 'r'));
  });

  it('resolves ./script commands of command candidates against the config folder', async () => {
    const config = `
candidates:
  script:
    adapter: command
    args: [./bin/agent.sh, --fast, ./not-a-command-path]
  parent:
    adapter: command
    args: [../tools/agent]
  on-path:
    adapter: command
    args: [my-agent, ./x]
  with-executable:
    adapter: command
    executable: ./bin/run
    args: [./arg]
  cli:
    adapter: codex
    args: [./kept]
`;
    const root = await fixture({ 'conf/evalflow.config.yaml': config });
    const settings = await loadSettings(root, {}, { configPath: 'conf/evalflow.config.yaml' });
    const conf = join(root, 'conf');
    expect(settings.candidates.script?.args).toEqual([join(conf, 'bin/agent.sh'), '--fast', './not-a-command-path']);
    expect(settings.candidates.parent?.args).toEqual([join(root, 'tools/agent')]);
    expect(settings.candidates['on-path']?.args).toEqual(['my-agent', './x']);
    expect(settings.candidates['with-executable']?.executable).toBe(join(conf, 'bin/run'));
    expect(settings.candidates['with-executable']?.args).toEqual(['./arg']);
    expect(settings.candidates.cli?.args).toEqual(['./kept']);
  });
});

describe('loadSettings: environment overrides', () => {
  it('EVALFLOW_EXAMINER_MODEL and EVALFLOW_JUDGE_MODEL replace the configured models', async () => {
    const { settings } = await settingsFor(FULL_CONFIG, { EVALFLOW_EXAMINER_MODEL: 'env-exam', EVALFLOW_JUDGE_MODEL: 'env-judge', OPENAI_MODEL: 'ignored' });
    expect(settings.examiner.model).toBe('env-exam');
    expect(settings.judge.model).toBe('env-judge');
  });

  it('OPENAI_MODEL and OPENAI_BASE_URL fill roles the file leaves open, but never override it', async () => {
    const env = { OPENAI_MODEL: 'shared-model', OPENAI_BASE_URL: 'http://127.0.0.1:4000/v1' };
    const { settings } = await settingsFor(FULL_CONFIG, env);
    expect(settings.examiner).toMatchObject({ model: 'exam-model', baseUrl: 'http://127.0.0.1:9000/v1' });
    expect(settings.judge).toMatchObject({ model: 'judge-model', baseUrl: 'http://127.0.0.1:4000/v1' });
    const bare = await settingsFor('', env);
    expect(bare.settings.examiner).toMatchObject({ model: 'shared-model', baseUrl: 'http://127.0.0.1:4000/v1' });
  });

  it('TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE and EVALFLOW_TEMPORAL_PORT win over the file', async () => {
    const { settings } = await settingsFor(FULL_CONFIG, {
      TEMPORAL_ADDRESS: 'temporal.internal:7233',
      TEMPORAL_NAMESPACE: 'nightly',
      EVALFLOW_TEMPORAL_PORT: '7555',
      EVALFLOW_TEMPORAL_UI_PORT: '8555',
    });
    expect(settings.temporal).toMatchObject({ address: 'temporal.internal:7233', namespace: 'nightly', port: 7555, uiPort: 8555 });
  });

  it('rejects an EVALFLOW_TEMPORAL_PORT that is not a port', async () => {
    const root = await fixture({});
    const err = await loadError(loadSettings(root, { EVALFLOW_TEMPORAL_PORT: 'seven' }));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toBe("EVALFLOW_TEMPORAL_PORT: expected a TCP port (1-65535), found 'seven'");
  });

  it('reads the database URL from the variable store.database_url_env names', async () => {
    const urls = { DATABASE_URL: 'postgres://default/db', EVAL_DB: 'postgres://custom/db' };
    expect((await settingsFor('', urls)).settings.databaseUrl).toBe('postgres://default/db');
    expect((await settingsFor('store:\n  database_url_env: EVAL_DB\n', urls)).settings.databaseUrl).toBe('postgres://custom/db');
    expect((await settingsFor('store:\n  database_url_env: EVAL_DB\n', { DATABASE_URL: 'x' })).settings.databaseUrl).toBeUndefined();
    expect((await settingsFor('', { DATABASE_URL: '' })).settings.databaseUrl).toBeUndefined();
  });

  it('EVALFLOW_RUNS_DIR and EVALFLOW_HOME move the runs and state folders', async () => {
    const { root, settings } = await settingsFor('runs_dir: from-file\n', { EVALFLOW_RUNS_DIR: '/abs/runs', EVALFLOW_HOME: 'state' });
    expect(settings.runsDir).toBe('/abs/runs');
    expect(settings.stateDir).toBe(join(root, 'state'));
    expect(settings.pgliteDir).toBe(join(root, 'state', 'pglite'));
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('judging settings', () => {
  it('default to one sample, review later, no self-judging; the config file and flags change them, flags winning', async () => {
    expect((await settingsFor('')).settings.judging).toEqual({ samples: 1, review: 'later', allowSelfJudge: false });
    const { root, settings } = await settingsFor('judging: { samples: 3, review: wait, allow_self_judge: true }\n');
    expect(settings.judging).toEqual({ samples: 3, review: 'wait', allowSelfJudge: true });
    expect((await loadSettings(root, {}, { judges: 2, review: 'later' })).judging).toEqual({ samples: 2, review: 'later', allowSelfJudge: true });
  });

  it('refuses judging keys it does not know, naming the field', async () => {
    const { root } = await settingsFor('');
    await writeFile(join(root, 'evalflow.config.yaml'), 'judging: { samples: 12 }\n');
    expect((await loadError(loadSettings(root, {}))).message).toMatch(/judging\.samples: Too big: expected number to be <=9/);
  });
});


describe('loadSettings: project and workflow_dir as git URLs', () => {
  it('keeps a git URL as written, where a path is made absolute', async () => {
    const { settings } = await settingsFor('project: https://git.example.com/team/app.git#v2\nworkflow_dir: git@git.example.com:team/workflow.git\n');
    expect(settings.project).toBe('https://git.example.com/team/app.git#v2');
    expect(settings.workflowDir).toBe('git@git.example.com:team/workflow.git');
    const flagged = await loadSettings(settings.root, {}, { project: 'file:///srv/git/app.git', workflowDir: 'wf' });
    expect(flagged.project).toBe('file:///srv/git/app.git');
    expect(flagged.workflowDir).toBe(join(settings.root, 'wf'));
  });

  it('refuses a bad URL in one line naming the file, the field and what it expected', async () => {
    const root = await fixture({ 'evalflow.config.yaml': 'project: ftp://git.example.com/app.git\n' });
    const err = await loadError(loadSettings(root, {}));
    expect(err).toBeInstanceOf(FormatError);
    expect(err.message).toBe(
      `${join(root, 'evalflow.config.yaml')}: project: expected a local path or a git URL (https://host/repo, ssh://host/repo, git@host:repo, file:///path), optionally ending in #ref, found 'ftp://git.example.com/app.git' (scheme ftp:// is not one git is fetched over here)`,
    );
    const workflow = await loadError(loadSettings(await fixture({ 'evalflow.config.yaml': 'workflow_dir: https://me:pw@host/wf.git\n' }), {}));
    expect(workflow.message).toMatch(/evalflow\.config\.yaml: workflow_dir: expected a local path or a git URL .*a password in the URL/);
    expect(workflow.message.split('\n')).toHaveLength(1);
  });

  it('refuses a bad URL given by flag, naming the flag', async () => {
    const root = await fixture({});
    const err = await loadError(loadSettings(root, {}, { project: 'git@host:' }));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toMatch(/^--project: expected a local path or a git URL .*found 'git@host:'/);
  });
});
