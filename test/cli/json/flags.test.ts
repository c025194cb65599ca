import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../sandbox/sandboxFixture.js';
import { startCli } from '../../support/cliProcess.js';

describe('--json and the flags it cannot go with: one line, exit 2, nothing on stdout', () => {
  it.each([
    [['review', 'run-x@1', '--json'], 'error: --json: only with --pending (a decision prints one line)'],
    [['runs', '--json', '--query', 'EvalResult="fail"', '--batch', 'batch-1'], 'error: --query: cannot be combined with --batch; put the condition into the query (docs/temporal.md#ready-queries)'],
    [['candidates', 'normalize', 'codex', 'x.jsonl', '--json'], 'error: --json: not with `candidates normalize`, which prints transcript events as JSONL already'],
    [['schedule', 'trigger', 'nightly', '--json'], "error: unknown option '--json'"],
  ])('%j', { timeout: 60_000 }, async (args, line) => {
    const root = await tempDir('evalflow-json-flags-');
    // Temporal on port 1 and no store: anything started would fail otherwise.
    const cli = startCli(args, { cwd: root, env: { PATH: process.env.PATH, HOME: root, EVALFLOW_HOME: join(root, 'state'), EVALFLOW_TEMPORAL_PORT: '1' } });
    const code = await cli.exited;
    expect(cli.stderr).toEqual([line]);
    expect(cli.stdout).toEqual([]);
    expect(code).toBe(2);
  });
});
