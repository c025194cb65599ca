import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../support/cliProcess.js';
import { freePort, startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

describe('evalflow worker preflight', () => {
  let dir: string;
  let temporal: TestTemporal | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evalflow-worker-preflight-'));
  });
  afterAll(async () => {
    await temporal?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the whole table, then exits 69 with one line naming TEMPORAL_ADDRESS when Temporal and PostgreSQL do not answer', { timeout: 120_000 }, async () => {
    const [temporalPort, pgPort] = [await freePort(), await freePort()];
    const env = {
      // No agent CLI on this host: none on PATH (node's folder and the system's), none in its agents cache.
      PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: dir,
      EVALFLOW_CACHE_DIR: join(dir, 'cache'),
      TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
      DATABASE_URL: `postgres://evalflow:pg-secret@127.0.0.1:${pgPort}/test`,
      EVALFLOW_ISOLATION: 'none',
      OPENAI_BASE_URL: `http://127.0.0.1:${pgPort}/v1`,
      OPENAI_API_KEY: 'sk-never-shown',
    };
    const worker = startCli(['worker'], { cwd: dir, env });
    expect(await worker.exited).toBe(69);
    const table = worker.stdout;
    expect(table[0]).toMatch(/^check\s+state\s+detail$/);
    expect(table.find((l) => l.startsWith('Temporal '))).toMatch(new RegExp(`^Temporal\\s+failed\\s+Temporal at 127\\.0\\.0\\.1:${temporalPort} \\(TEMPORAL_ADDRESS\\) is unreachable`));
    expect(table.find((l) => l.startsWith('store '))).toMatch(new RegExp(`^store\\s+failed\\s+store: connect to PostgreSQL at postgres://evalflow:\\*\\*\\*@127\\.0\\.0\\.1:${pgPort}/test failed`));
    expect(table.find((l) => l.startsWith('examiner '))).toMatch(/^examiner\s+missing\s+http:\/\/127\.0\.0\.1:\d+\/v1 \(model [^,]+, key OPENAI_API_KEY set\) unreachable: ECONNREFUSED$/);
    expect(table.find((l) => l.startsWith('agent CLI codex '))).toMatch(/^agent CLI codex\s+missing\s+not installed: /);
    // One line of error, after the table, no stack; no secret anywhere.
    const errors = worker.stderr.filter((l) => l.startsWith('error: '));
    expect(errors).toEqual([`error: Temporal at 127.0.0.1:${temporalPort} (TEMPORAL_ADDRESS) is unreachable: start that server or point TEMPORAL_ADDRESS at a running one (unset it to use the embedded dev server)`]);
    expect(worker.lines.join('\n')).not.toMatch(/\n\s+at |pg-secret|sk-never-shown/);
    expect(table.some((l) => l.startsWith('worker on '))).toBe(false);
  });

  it('exits 69 with one line naming DATABASE_URL when Temporal answers and PostgreSQL does not', { timeout: 180_000 }, async () => {
    temporal = await startTestTemporal();
    const pgPort = await freePort();
    const env = {
      PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: dir,
      EVALFLOW_CACHE_DIR: join(dir, 'cache'),
      TEMPORAL_ADDRESS: temporal.address,
      DATABASE_URL: `postgres://evalflow:pg-secret@127.0.0.1:${pgPort}/test`,
      EVALFLOW_ISOLATION: 'none',
    };
    const worker = startCli(['worker'], { cwd: dir, env });
    expect(await worker.exited).toBe(69);
    expect(worker.stdout.find((l) => l.startsWith('Temporal '))).toMatch(new RegExp(`^Temporal\\s+ok\\s+${temporal.address.replace(/\./g, '\\.')}, namespace default \\(cluster\\)$`));
    expect(worker.stdout.find((l) => l.startsWith('store '))).toMatch(/^store\s+failed\s+store: connect to PostgreSQL at /);
    const errors = worker.stderr.filter((l) => l.startsWith('error: '));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`^error: store: connect to PostgreSQL at postgres://evalflow:\\*\\*\\*@127\\.0\\.0\\.1:${pgPort}/test failed: .*ECONNREFUSED.*: start it, or point DATABASE_URL at the PostgreSQL this cluster's clients use$`));
    expect(worker.lines.join('\n')).not.toMatch(/\n\s+at |pg-secret/);
  });
});
