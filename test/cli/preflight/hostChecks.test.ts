import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostChecks } from '../../../src/cli/preflight/hostChecks.js';
import { formatPreflight, type PreflightRow } from '../../../src/cli/preflight/preflightTable.js';
import { loadSettings } from '../../../src/config.js';
import { startMockServer, type MockServer } from '../../../src/llm/mock/server.js';
import { freePort } from '../../support/temporalServer.js';

describe("a worker host's preflight checks", () => {
  let dir: string;
  let mock: MockServer;
  let rows: PreflightRow[];
  let lines: string[];
  let deadPort: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evalflow-preflight-'));
    // Claude Code is installed on this host; no other agent CLI is, on PATH or in the agents cache.
    await mkdir(join(dir, 'bin'));
    await writeFile(join(dir, 'bin', 'claude'), '#!/bin/sh\necho 1.0.0\n');
    await chmod(join(dir, 'bin', 'claude'), 0o755);
    mock = await startMockServer({ script: () => ({ text: 'never asked' }) });
    deadPort = await freePort();
    const env = {
      PATH: join(dir, 'bin'),
      HOME: dir,
      EVALFLOW_CACHE_DIR: join(dir, 'cache'),
      EVALFLOW_ISOLATION: 'none',
      OPENAI_API_KEY: 'sk-never-shown',
      EVALFLOW_EXAMINER_BASE_URL: mock.url,
      EVALFLOW_EXAMINER_MODEL: 'pf-examiner',
      EVALFLOW_JUDGE_BASE_URL: `http://judge:pw-secret@127.0.0.1:${deadPort}/v1?key=q-secret`,
      EVALFLOW_JUDGE_MODEL: 'pf-judge',
    };
    const settings = await loadSettings(dir, env);
    ({ rows } = await hostChecks(settings, env));
    lines = formatPreflight(rows);
  }, 60_000);

  afterAll(async () => {
    await mock?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const row = (check: string) => rows.find((r) => r.check === check);

  it('shows the agent CLIs installed here and the missing ones, with how to install them', () => {
    expect(row('agent CLI claude-code')).toEqual({ check: 'agent CLI claude-code', state: 'ok', detail: join(dir, 'bin', 'claude') });
    expect(row('agent CLI codex')).toEqual({ check: 'agent CLI codex', state: 'missing', detail: 'not installed: runs of codex candidates go to other hosts (npm install -g @openai/codex)' });
    expect(rows.filter((r) => r.check.startsWith('agent CLI ') && r.state === 'ok').map((r) => r.check)).toEqual(['agent CLI claude-code']);
  });

  it('checks the model endpoints over TCP, sending nothing, and never shows a key or a password', () => {
    expect(row('examiner')).toEqual({ check: 'examiner', state: 'ok', detail: `${mock.url} (model pf-examiner, key OPENAI_API_KEY set)` });
    expect(row('judge')).toEqual({ check: 'judge', state: 'missing', detail: `http://127.0.0.1:${deadPort}/v1 (model pf-judge, key OPENAI_API_KEY set) unreachable: ECONNREFUSED` });
    expect(mock.requests).toEqual([]);
    const printed = lines.join('\n');
    for (const secret of ['sk-never-shown', 'pw-secret', 'q-secret']) expect(printed).not.toContain(secret);
  });

  it('says containment is off by config, and whether bubblewrap could contain a candidate that asks for it', () => {
    expect(row('containment')?.state).toBe('off');
    expect(row('containment')?.detail).toMatch(/^isolation: none; bubblewrap (available for candidates that ask for a sandbox|unavailable: .+)$/);
  });

  it('prints one table: a header, a rule, a line per check', () => {
    expect(lines[0]).toMatch(/^check\s+state\s+detail$/);
    expect(lines[1]).toMatch(/^-+\s+-+\s+-+$/);
    expect(lines).toHaveLength(rows.length + 2);
    expect(lines.find((l) => l.startsWith('agent CLI codex '))).toMatch(/^agent CLI codex\s+missing\s+not installed: /);
  });
});
