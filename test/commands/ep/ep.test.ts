import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/commands/ep/ep.js';
import type { EpOptions } from '../../../src/commands/ep/options.js';
import { memoryIo } from '../../../src/cli/io.js';
import { formatEvalReport, formatJsonl, parseExampleText, scoreExample, summaryJson } from '../../../src/editprediction/index.js';
import type { Example } from '../../../src/editprediction/index.js';
import { startMockServer, type MockServer } from '../../../src/llm/mock/server.js';
import type { MockReply, MockRequest } from '../../../src/llm/mock/types.js';
import { createEpRepo, epExampleMarkdown, exampleOf, rewriteReply, writeTree } from '../../support/epExamples.js';
import { startCli } from '../../support/cliProcess.js';
import { startTestTemporal, type TestTemporal } from '../../support/temporalServer.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { dropSchema, postgresUrl, randomSchema } from '../../store/testBackends.js';

const REPO = resolve(import.meta.dirname, '../../..');

/**
 * Five examples over three local repositories: one.md, two.md (alpha, examples 1 and 2),
 * three.md (beta, 3) and more.jsonl (gamma, 4 and 5, nameless: more-0 and more-1), plus
 * broken.md (alpha, a cursor excerpt that is not in the file).
 */
async function writeExamples(root: string): Promise<void> {
  const alpha = await createEpRepo(root, 'repos/alpha', [1, 2]);
  const beta = await createEpRepo(root, 'repos/beta', [3]);
  const gamma = await createEpRepo(root, 'repos/gamma', [4, 5]);
  const nameless = [4, 5].flatMap((i) => parseExampleText(epExampleMarkdown('repos/gamma', gamma, i), 'x.md')).map((example) => ({ ...example, name: '' }));
  await writeTree(
    {
      'examples/one.md': epExampleMarkdown('repos/alpha', alpha, 1),
      'examples/two.md': epExampleMarkdown('repos/alpha', alpha, 2),
      'examples/three.md': epExampleMarkdown('repos/beta', beta, 3),
      'examples/more.jsonl': formatJsonl(nameless),
      'examples/broken.md': epExampleMarkdown('repos/alpha', alpha, 2, { cursorLine: '    print(f2(99))' }),
    },
    root,
  );
}

async function readJsonl(file: string): Promise<Example[]> {
  return parseExampleText(await readFile(file, 'utf8'), file);
}

/** Requests the model got per example number. */
function requestsPerExample(mock: MockServer): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const request of mock.requests) {
    const i = exampleOf(request);
    if (i !== undefined) counts[i] = (counts[i] ?? 0) + 1;
  }
  return counts;
}

/** Rescored with the metrics directly, from what the output file holds. */
function rescored(examples: Example[]): Example[] {
  return examples.map((example) => scoreExample({ ...example, score: [] }));
}

describe('evalflow ep', () => {
  let temporal: TestTemporal;
  let mock: MockServer;
  let root: string;
  let env: NodeJS.ProcessEnv;
  let script: (request: MockRequest) => MockReply | Promise<MockReply> = () => ({ status: 500, errorMessage: 'no script' });

  beforeAll(async () => {
    temporal = await startTestTemporal();
    mock = await startMockServer({ script: (request) => script(request) });
    root = await writeTree({});
    await writeExamples(root);
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      OPENAI_BASE_URL: mock.url,
      OPENAI_API_KEY: 'sk-test',
      EVALFLOW_EP_MODEL: 'ep-model',
      EVALFLOW_HOME: join(root, '.evalflow'),
      EVALFLOW_TEMPORAL_PORT: String(temporal.port),
      EVALFLOW_TEMPORAL_UI_PORT: String(temporal.uiPort),
    };
  });
  afterAll(async () => {
    await mock?.close();
    await temporal?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  async function ep(options: EpOptions, extraEnv: NodeJS.ProcessEnv = {}) {
    const io = memoryIo(root, { ...env, ...extraEnv });
    const code = await run(options, io);
    return { code, stdout: io.stdout, stderr: io.stderr.join('\n') };
  }

  const names = (lines: string[]) => lines.map((line) => (JSON.parse(line) as { name: string }).name);
  const all = ['examples/three.md', 'examples/one.md', 'examples/two.md', 'examples/more.jsonl'];

  it('read: orders by repository, applies --offset before and --limit after the filters', async () => {
    expect(names((await ep({ subcommand: 'read', inputs: all })).stdout)).toEqual(['one', 'two', 'three', 'more-0', 'more-1']);
    // --offset skips three.md, the first input, before sorting.
    expect(names((await ep({ subcommand: 'read', inputs: all, offset: 1 })).stdout)).toEqual(['one', 'two', 'more-0', 'more-1']);
    expect(names((await ep({ subcommand: 'read', inputs: all, offset: 1, name: 'o', limit: 3 })).stdout)).toEqual(['one', 'two', 'more-0']);
    expect(names((await ep({ subcommand: 'read', inputs: all, repo: 'gamma', limit: 1 })).stdout)).toEqual(['more-0']);
  });

  it('read: --markdown -o writes one .md per example that reads back as the same examples', async () => {
    const result = await ep({ subcommand: 'read', inputs: all, markdown: true, output: 'md' });
    expect(result.code).toBe(0);
    expect((await readdir(join(root, 'md'))).sort()).toEqual(['more-0.md', 'more-1.md', 'one.md', 'three.md', 'two.md']);
    const original = await ep({ subcommand: 'read', inputs: all });
    const roundTrip = await ep({ subcommand: 'read', inputs: ['md/three.md', 'md/one.md', 'md/two.md', 'md/more-0.md', 'md/more-1.md'] });
    expect(roundTrip.stdout).toEqual(original.stdout);

    await ep({ subcommand: 'read', inputs: ['examples/one.md'], output: 'read.jsonl' });
    expect(await readFile(join(root, 'read.jsonl'), 'utf8')).toBe(`${original.stdout[0]}\n`);
  });

  it('refuses flag combinations Zed refuses, before reading anything', async () => {
    await expect(ep({ subcommand: 'predict', inputs: ['examples/one.md', 'examples/two.md'], inPlace: true })).rejects.toThrow(
      '--in-place: expected exactly one input file, found 2 inputs',
    );
    await expect(ep({ subcommand: 'read', inputs: ['examples/one.md'], markdown: true })).rejects.toThrow(
      '--markdown writes one .md file per example into the -o directory; give -o DIR',
    );
    await expect(ep({ subcommand: 'score', inputs: ['examples/one.md'], failed: 'drop' })).rejects.toThrow(
      '--failed: expected one of keep, skip, skip-no-files, found "drop"',
    );
    await expect(ep({ subcommand: 'eval', inputs: ['examples/one.md'], provider: 'zeta2' })).rejects.toThrow(
      '--provider: unknown provider "zeta2"; expected one of noop, openai',
    );
    await expect(ep({ subcommand: 'qa', inputs: ['examples/one.md'] })).rejects.toThrow('ep: unknown subcommand "qa"; expected one of read, predict, score, eval');
  });

  it('eval: predicts with the model (retrying a 429), scores, and reports what the metrics give', async () => {
    const rateLimited = new Set<number>();
    script = (request) => {
      const i = exampleOf(request);
      if (i === 3 && !rateLimited.has(3)) {
        rateLimited.add(3);
        return { status: 429, errorMessage: 'slow down' };
      }
      return rewriteReply(request, i === 2 ? 'wrong' : 'right');
    };
    mock.requests.length = 0;
    const result = await ep({
      subcommand: 'eval',
      inputs: ['examples/one.md', 'examples/two.md', 'examples/three.md'],
      provider: 'openai',
      output: 'out/eval.jsonl',
      summaryJson: 'out/summary.json',
      maxParallelism: 2,
    });
    expect(result.stderr).toContain('3 examples in 2 groups, provider openai (ep-model), max parallelism 2');
    expect(result.code).toBe(0);
    expect(requestsPerExample(mock)).toEqual({ 1: 1, 2: 1, 3: 2 });
    expect(mock.requests.every((request) => request.model === 'ep-model')).toBe(true);

    const written = await readJsonl(join(root, 'out/eval.jsonl'));
    expect(written.map((example) => example.name)).toEqual(['one', 'two', 'three']);
    const expected = rescored(written);
    expect(written.map((example) => example.score)).toEqual(expected.map((example) => example.score));
    expect(result.stdout).toEqual(formatEvalReport(expected));
    expect(JSON.parse(await readFile(join(root, 'out/summary.json'), 'utf8'))).toEqual(summaryJson(expected));

    // The right rewrites score 100 with the exact cursor; the wrong one does not.
    expect(result.stdout.find((line) => line.startsWith('one '))).toMatch(/^one\s+100\.00\s+0\s+100\.0%\s+0\.0%\s+✓/);
    expect(result.stdout.find((line) => line.startsWith('three '))).toMatch(/^three\s+100\.00\s+0\s+100\.0%/);
    expect(written[1]!.score[0]!.delta_chr_f).toBeLessThan(100);
    expect(written[1]!.score[0]!.exact_lines_fp).toBe(1);
    const summary = summaryJson(expected);
    expect([summary.total_examples, summary.exact_lines_true_positives, summary.exact_lines_false_positives]).toEqual([3, 2, 1]);
  });

  it('-o resumes: examples already in the output are skipped ("Resuming: k/n")', async () => {
    const inputs = ['examples/one.md', 'examples/three.md'];
    const first = await ep({ subcommand: 'predict', inputs, provider: 'noop', output: 'out/pred.jsonl', limit: 1 });
    expect(first.code).toBe(0);
    expect((await readJsonl(join(root, 'out/pred.jsonl'))).map((example) => example.name)).toEqual(['one']);

    const second = await ep({ subcommand: 'predict', inputs, provider: 'noop', output: 'out/pred.jsonl' });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('Resuming: 1/2 examples already processed');
    expect(second.stderr).toContain('1 example in 1 group, provider noop');
    const written = await readJsonl(join(root, 'out/pred.jsonl'));
    expect(written.map((example) => [example.name, example.predictions.map((prediction) => prediction.provider)])).toEqual([
      ['one', ['noop']],
      ['three', ['noop']],
    ]);
    expect(written[1]!.prompt_inputs?.cursor_excerpt).toContain('print(f3(2))');
  });

  it('--failed skip leaves a failed example out of the output but writes its failure files; keep writes it as it is', async () => {
    const inputs = ['examples/broken.md', 'examples/one.md'];
    const skipped = await ep({ subcommand: 'score', inputs, provider: 'noop', failed: 'skip', output: 'out/skip.jsonl' });
    expect(skipped.code).toBe(1);
    expect(skipped.stderr).toMatch(/error: broken: load failed: FormatError: broken: Cursor excerpt did not exist in buffer src\/m2\.py \(after the edit history\)/);
    expect(skipped.stderr).toContain('1 of 2 examples failed');
    expect((await readJsonl(join(root, 'out/skip.jsonl'))).map((example) => example.name)).toEqual(['one']);
    const artifact = /failure details of broken: (\S+)/.exec(skipped.stderr)?.[1];
    expect(artifact).toMatch(/\.evalflow\/ep\/runs\/ep-batch-[^/]+\/failed\/broken\.json$/);
    expect(await readFile(artifact!.replace(/\.json$/, '_err.txt'), 'utf8')).toMatch(/^load failed: FormatError: broken: Cursor excerpt/);

    const kept = await ep({ subcommand: 'score', inputs, provider: 'noop', output: 'out/keep.jsonl', failed: 'keep' });
    expect(kept.code).toBe(1);
    const written = await readJsonl(join(root, 'out/keep.jsonl'));
    // Same repository and revision: input order.
    expect(written.map((example) => [example.name, example.predictions.length, example.score.length])).toEqual([
      ['broken', 0, 0],
      ['one', 1, 1],
    ]);

    const noFiles = await ep({ subcommand: 'score', inputs, provider: 'noop', failed: 'skip-no-files', output: 'out/nofiles.jsonl' });
    expect(noFiles.stderr).not.toContain('failure details');
    const batchId = /batch (ep-batch-\S+):/.exec(noFiles.stderr)?.[1];
    expect(existsSync(join(root, '.evalflow/ep/runs', batchId!))).toBe(false);
  });

  it('--in-place rewrites its single input as JSONL', async () => {
    await copyFile(join(root, 'examples/more.jsonl'), join(root, 'inplace.jsonl'));
    const result = await ep({ subcommand: 'predict', inputs: ['inplace.jsonl'], provider: 'noop', inPlace: true });
    expect(result.code).toBe(0);
    expect(result.stdout).toEqual([]);
    const rewritten = await readJsonl(join(root, 'inplace.jsonl'));
    expect(rewritten.map((example) => [example.name, example.predictions[0]?.provider])).toEqual([
      // Nameless JSONL lines are named after the file they were read from.
      ['inplace-0', 'noop'],
      ['inplace-1', 'noop'],
    ]);
    expect(existsSync(join(root, 'inplace.jsonl.tmp'))).toBe(false);
  });

  describe('a process killed mid-batch (PostgreSQL, worker in its own process)', () => {
    let schema: string;
    let workerEnv: NodeJS.ProcessEnv;
    const workers: ChildProcess[] = [];

    beforeAll(async () => {
      schema = randomSchema();
      workerEnv = { ...env, DATABASE_URL: await postgresUrl(), EVALFLOW_STORE_SCHEMA: schema, EVALFLOW_HOST_ID: 'crash-test-host', EVALFLOW_HOME: join(root, '.evalflow-crash') };
      await writeFile(join(root, 'worker.config.yaml'), '{}\n');
    });
    afterAll(async () => {
      for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
      if (schema) await dropSchema(schema);
    });

    /** `evalflow worker` in a child process; resolves once it polls. */
    async function startWorker(): Promise<ChildProcess> {
      const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'src/client.ts'), 'worker', '-c', join(root, 'worker.config.yaml')], {
        cwd: REPO,
        env: workerEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      workers.push(child);
      let output = '';
      await new Promise<void>((ready, fail) => {
        const timer = setTimeout(() => fail(new Error(`worker did not start within 90 s:\n${output}`)), 90_000);
        const onData = (chunk: Buffer) => {
          output += chunk.toString('utf8');
          if (output.includes('worker on ')) {
            clearTimeout(timer);
            ready();
          }
        };
        child.stdout?.on('data', onData);
        child.stderr?.on('data', onData);
        child.once('exit', (code, signal) => {
          clearTimeout(timer);
          fail(new Error(`worker exited early (${code ?? signal}):\n${output}`));
        });
      });
      return child;
    }

    /**
     * The model answers every example (`wrongFor` wrongly) but holds the first call for example
     * `held` open until `release`: a process dies, or the user detaches, while it is open.
     */
    function holdFirstCallOf(held: number, wrongFor?: number): { asked: () => number; release: () => void } {
      let release = () => undefined as void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let asked = 0;
      script = async (request) => {
        const i = exampleOf(request);
        if (i === held && ++asked === 1) await gate;
        return rewriteReply(request, i === wrongFor ? 'wrong' : 'right');
      };
      return { asked: () => asked, release: () => release() };
    }

    async function stopWorker(worker: ChildProcess): Promise<void> {
      worker.kill('SIGTERM');
      await new Promise((resolve) => worker.once('exit', resolve));
    }

    /** Waits up to 90 s for the batch's row to leave `running`, then checks how it ended. */
    async function expectRowCompleted(store: Store, batchId: string): Promise<void> {
      const deadline = Date.now() + 90_000;
      while ((await store.getBatch(batchId))?.status === 'running' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
      expect(await store.getBatch(batchId)).toMatchObject({ status: 'completed', counts: { examples: 2, failed: 0, not_run: 0 } });
    }

    async function waitFor(condition: () => boolean, what: string, timeoutMs = 90_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!condition()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }

    it('finishes the batch with a fresh worker without asking the model again for predicted examples', { timeout: 300_000 }, async () => {
      const third = holdFirstCallOf(3, 4); // the worker dies while this call is open
      mock.requests.length = 0;

      const first = await startWorker();
      const io = memoryIo(root, workerEnv);
      const finished = run({ subcommand: 'eval', inputs: all, provider: 'openai', worker: false, maxParallelism: 1, output: 'crash/eval.jsonl', summaryJson: 'crash/summary.json' }, io);
      await waitFor(() => third.asked() === 1, 'the model call of the third example');
      expect(requestsPerExample(mock)).toEqual({ 1: 1, 2: 1, 3: 1 });

      first.kill('SIGKILL');
      await new Promise((resolve) => first.once('exit', resolve));
      expect(first.signalCode).toBe('SIGKILL');
      third.release();
      const second = await startWorker();

      expect(await finished).toBe(0);
      // Examples 1 and 2 were predicted before the crash and never asked again; the call that
      // died with the worker was asked once more.
      expect(requestsPerExample(mock)).toEqual({ 1: 1, 2: 1, 3: 2, 4: 1, 5: 1 });
      const written = await readJsonl(join(root, 'crash/eval.jsonl'));
      expect(written.map((example) => example.name)).toEqual(['one', 'two', 'three', 'more-0', 'more-1']);
      const expected = rescored(written);
      expect(written.map((example) => example.score)).toEqual(expected.map((example) => example.score));
      expect(written.map((example) => example.score[0]!.delta_chr_f === 100)).toEqual([true, true, true, false, true]);
      expect(io.stdout).toEqual(formatEvalReport(expected));
      expect(JSON.parse(await readFile(join(root, 'crash/summary.json'), 'utf8'))).toEqual(summaryJson(expected));

      await stopWorker(second);
    });

    it('a CLI killed with SIGKILL mid-batch leaves no batch running: the workflow ends its row', { timeout: 300_000 }, async () => {
      const second = holdFirstCallOf(2); // the CLI dies while this call is open
      const worker = await startWorker();
      const cli = startCli(['ep', 'eval', 'examples/one.md', 'examples/two.md', '--provider', 'openai', '--no-worker', '--max-parallelism', '1'], { cwd: root, env: workerEnv });
      const started = await cli.waitForLine(/^batch ep-\S+:/, 90_000);
      const batchId = /^batch (ep-\S+):/.exec(started)![1]!;
      await waitFor(() => second.asked() === 1, 'the model call of the second example');
      const store = await openStore({ databaseUrl: await postgresUrl(), schema });
      try {
        expect((await store.getBatch(batchId))?.status).toBe('running');
        cli.kill('SIGKILL');
        expect(await cli.exited).toBeNull();
        second.release();
        // Nobody is left to write the row but the workflow.
        await expectRowCompleted(store, batchId);
      } finally {
        await store.close();
        await stopWorker(worker);
      }
    });

    it('Ctrl-C with --on-interrupt detach exits 130 and the batch goes on to complete its row', { timeout: 300_000 }, async () => {
      const second = holdFirstCallOf(2); // the user detaches while this call is open
      const worker = await startWorker();
      const cli = startCli(['ep', 'eval', 'examples/one.md', 'examples/two.md', '--provider', 'openai', '--no-worker', '--max-parallelism', '1', '--on-interrupt', 'detach'], {
        cwd: root,
        env: workerEnv,
      });
      const batchId = /^batch (ep-\S+):/.exec(await cli.waitForLine(/^batch ep-\S+:/, 90_000))![1]!;
      // The shared follow prints the first example once the workflow's progress query says it finished.
      await cli.waitForLine(/^\[1\/2\] one: /, 90_000);
      await waitFor(() => second.asked() === 1, 'the model call of the second example');
      const store = await openStore({ databaseUrl: await postgresUrl(), schema });
      try {
        cli.kill('SIGINT');
        expect(await cli.exited).toBe(130);
        expect(cli.stderr).toContain(`detached: batch ${batchId} goes on in Temporal; its row records how it ends (\`evalflow batches\`)`);
        expect((await store.getBatch(batchId))?.status).toBe('running');
        second.release();
        await expectRowCompleted(store, batchId);
      } finally {
        await store.close();
        await stopWorker(worker);
      }
    });
  });
});
