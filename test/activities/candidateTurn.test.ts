import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Candidate, TurnRequest } from '../../src/candidates/adapter.js';
import { createCommandCandidate } from '../../src/candidates/index.js';
import { StoreError } from '../../src/errors.js';
import { writeFiles } from '../sandbox/sandboxFixture.js';
import { createActivityFixture, type ActivityFixture } from './activityFixture.js';

/** A candidate that emits `count` events, pausing after each so background flushes can settle. */
function chatty(count: number, content: (i: number) => string): Candidate {
  return {
    async runTurn(request: TurnRequest) {
      for (let i = 1; i <= count; i++) {
        request.onEvent({ role: 'candidate.assistant_partial', content: content(i) });
        await new Promise((r) => setTimeout(r, 2));
      }
      request.onEvent({ role: 'candidate', content: 'done' });
      return { reply: 'done', session: {} };
    },
  };
}

describe('candidateTurn activity', () => {
  let fx: ActivityFixture;

  beforeAll(async () => {
    fx = await createActivityFixture({ PATH: process.env.PATH, CORP_LLM: 'corp-secret-value-0042', HOME_PAGE: 'http://example.invalid' });
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('redacts a key the candidate gets through its config env from a host variable with a plain name', async () => {
    fx.candidate = chatty(1, () => 'env says ANTHROPIC_API_KEY=corp-secret-value-0042');
    const spec = await fx.preparedSpec({ env: { ANTHROPIC_API_KEY: '${CORP_LLM}', SITE: '${HOME_PAGE}' } });
    await fx.activities().candidateTurn({ spec, turn: 1, message: 'go', session: null });
    const events = await fx.store.getTranscript(spec.runId, { attempts: 'all' });
    expect(events[0]?.content).toBe('env says ANTHROPIC_API_KEY=[REDACTED:ANTHROPIC_API_KEY]');
    expect(await readFile(join(spec.runsDir, spec.runId, 'transcript.jsonl'), 'utf8')).not.toContain('corp-secret-value-0042');
  });

  it("reports a failed background write of events as the turn's error instead of crashing the process", async () => {
    fx.candidate = chatty(30, (i) => `partial ${i}`);
    const spec = await fx.preparedSpec();
    let failNext = true;
    fx.wrapStore = (store) => ({
      ...store,
      async appendTranscriptEvents(events) {
        if (failNext && events.length >= 20) {
          failNext = false;
          throw new StoreError('store: appendTranscriptEvents failed: connection reset');
        }
        return store.appendTranscriptEvents(events);
      },
    });
    try {
      await expect(fx.activities().candidateTurn({ spec, turn: 1, message: 'go', session: null })).rejects.toThrow('connection reset');
    } finally {
      fx.wrapStore = (store) => store;
    }
  });

  it('heartbeats while the candidate is silent (a long tool run), so the turn is not taken for dead', { timeout: 20_000 }, async () => {
    fx.candidate = {
      async runTurn(request: TurnRequest) {
        await new Promise((r) => setTimeout(r, 6_000));
        request.onEvent({ role: 'candidate', content: 'built' });
        return { reply: 'built', session: {} };
      },
    };
    const spec = await fx.preparedSpec();
    const env = new MockActivityEnvironment();
    const beats: number[] = [];
    env.on('heartbeat', () => beats.push(Date.now()));
    await env.run(() => fx.activities().candidateTurn({ spec, turn: 1, message: 'go', session: null }));
    // The activity's heartbeat timeout is 60 s; one beat every few seconds while the agent works.
    expect(beats.length).toBeGreaterThanOrEqual(2);
    expect(beats.some((t, i) => i > 0 && t - beats[0]! >= 4_000)).toBe(true);
  });

  it('stores binary tool output holding NUL characters', async () => {
    fx.candidate = chatty(1, () => 'shell: head -c 8 logo.png → exit=0 \u0089PNG\u0000\u0000');
    const spec = await fx.preparedSpec();
    const output = await fx.activities().candidateTurn({ spec, turn: 1, message: 'go', session: null });
    expect(output.failure).toBeUndefined();
    const events = await fx.store.getTranscript(spec.runId, { attempts: 'all' });
    expect(events.map((e) => e.content)).toEqual(['shell: head -c 8 logo.png → exit=0 \u0089PNG\uFFFD\uFFFD', 'done']);
  });

  it('records a candidate that exits 1 as failing its turn, with its stdout tail beside stderr, and returns the turn notes', async () => {
    await writeFiles(fx.root, { 'bin/crash.sh': '#!/bin/sh\necho "working on it"\necho "half done, ANTHROPIC_API_KEY=corp-secret-value-0042"\necho "boom" >&2\nexit 1\n' });
    fx.candidate = createCommandCandidate({ hostEnv: fx.hostEnv });
    const spec = await fx.preparedSpec({ adapter: 'command', args: [join(fx.root, 'bin/crash.sh')], env: { ANTHROPIC_API_KEY: '${CORP_LLM}' } });
    const output = await fx.activities().candidateTurn({ spec, turn: 1, message: 'go', session: null });
    expect(output.failure).toBe('fake (command) turn 1 failed: the process exited with code 1');
    expect(output.anomalies).toEqual([{ kind: 'candidate_output', turn: 1, detail: 'exited with code 1; stdout ended: working on it ⏎ half done, ANTHROPIC_API_KEY=[REDACTED:ANTHROPIC_API_KEY]' }]);
    const events = await fx.store.getTranscript(spec.runId, { attempts: 'all' });
    expect(events.map((e) => [e.role, e.content])).toEqual([
      [
        'system',
        'candidate turn 1 failed: fake (command) turn 1 failed: the process exited with code 1\nstderr tail:\nboom\n\nstdout tail:\nworking on it\nhalf done, ANTHROPIC_API_KEY=[REDACTED:ANTHROPIC_API_KEY]\n',
      ],
    ]);
  });

  it('throws, never records as the candidate failing, a candidate whose executable does not exist on this host', async () => {
    fx.candidate = createCommandCandidate({ hostEnv: fx.hostEnv });
    const spec = await fx.preparedSpec({ adapter: 'command', args: [join(fx.root, 'bin/no-such-agent')] });
    const error = await fx.activities().candidateTurn({ spec, turn: 1, message: 'go', session: null }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect(error).toMatchObject({ type: 'CandidateSetupError', nonRetryable: true });
    expect((error as Error).message).toBe(`fake (command) turn 1: cannot start on this host: ${join(fx.root, 'bin/no-such-agent')} does not exist; args[0] (or executable) must name an executable file`);
    expect(await fx.store.getTranscript(spec.runId, { attempts: 'all' })).toEqual([]);
  });
});
