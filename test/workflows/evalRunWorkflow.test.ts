import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { MockReply, MockRequest } from '../../src/llm/mock/types.js';
import { builtinCandidate, createEvalHarness, type Backend, type EvalHarness } from '../support/evalHarness.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

const greetingCase = (overrides: { env?: string } = {}) => ({
  'meta.yaml': 'id: write-greeting\nversion: v1\ntarget_workflow: add-helper\ncategory: feature\npurpose: The candidate writes a file and checks it.\nmax_turns: 2\n',
  'task.md': '## Prompt\n\n> Please create greeting.txt containing the word hello.\n\n## Scenario\n\nYou want a greeting file.\n\n## Guidance\n\nEnd with <<END>> once it says it is done.\n',
  'rubric.md': '## Hard requirements\n\n- greeting.txt contains hello (postcondition)\n- The candidate checked the file with a shell command\n\n## Quality\n\n- Short reply\n\n## Common failures\n\n- Writing another file\n',
  'env.yaml':
    overrides.env ??
    [
      'preconditions:',
      '  - description: the project is there',
      '    check: test -f "${SANDBOX_DIR}/package.json"',
      '    severity: hard',
      'postconditions:',
      '  - description: greeting.txt says hello',
      '    check: grep -q hello "${SANDBOX_DIR}/greeting.txt"',
      '    severity: hard',
      '  - description: git sees only the candidate\'s file',
      '    check: cd "${SANDBOX_DIR}" && test "$(git status --porcelain)" = "?? greeting.txt"',
      '    severity: soft',
      '',
    ].join('\n'),
});

const judgeAnswer = (result: 'pass' | 'fail') =>
  [
    "reasoning: 'The candidate wrote greeting.txt and ran cat on it (exit 0); the hard postcondition passed.'",
    `result: ${result}`,
    'compliance: 4',
    'execution_quality: 4',
    'overall: 4',
    "summary: 'Wrote the file and checked it.'",
    'hard_requirements:',
    "  - item: 'greeting.txt contains hello'",
    '    met: true',
    "    evidence: '[Turn 1] write: greeting.txt'",
    "  - item: 'The candidate checked the file with a shell command'",
    '    met: true',
    "    evidence: '[Turn 1] shell: cat greeting.txt → exit=0'",
    'suggestions:',
    "  - '[eval] Also check the file ends with a newline.'",
  ].join('\n');

/** Not YAML (an unquoted colon), and no hard items. */
const BROKEN_ANSWER = `result: pass\ncompliance: 4\nexecution_quality: 3\noverall: 3.5\nsummary: it worked: mostly\n  - [unclosed`;
/** Whole YAML, but only the first of the case's two hard items. */
const SHORT_ANSWER = judgeAnswer('pass').replace(/\n {2}- item: 'The candidate checked[^\n]*\n[^\n]*\n[^\n]*/, '');

/** The examiner ends after the first answer; the candidate writes and checks; the judge answers `judge`. */
function script(judge: (request: MockRequest) => MockReply, candidateQueue: () => MockReply | undefined = () => undefined) {
  return (request: MockRequest): MockReply => {
    if (request.model === 'test-examiner') return { text: '<<END>>' };
    if (request.model === 'test-judge') return judge(request);
    const queued = candidateQueue();
    if (queued) return queued;
    const steps = request.messages.filter((m) => m.role === 'assistant').length;
    if (steps === 0) return { reasoning: 'I will write the file.', toolCalls: [{ name: 'write_file', arguments: { path: 'greeting.txt', content: 'hello\n' } }] };
    if (steps === 1) return { toolCalls: [{ name: 'run_shell', arguments: { command: 'cat greeting.txt; env | grep -c OPENAI_API_KEY || true' } }] };
    return { text: 'Created greeting.txt with hello.' };
  };
}

describe.each<Backend>(['pglite', 'postgres'])('evalRunWorkflow on the real dev server with %s', (backend) => {
  let temporal: TestTemporal;
  let harness: EvalHarness;
  let judgeMode: 'good' | 'broken' | 'short' = 'good';
  /** Replies the judge gives first, one per call, before answering by judgeMode. */
  let judgeQueue: MockReply[] = [];
  /** Replies the builtin candidate's model gives first. */
  let candidateQueue: MockReply[] = [];

  beforeAll(async () => {
    temporal = await startTestTemporal();
    harness = await createEvalHarness({
      backend,
      temporal,
      script: script(() => {
        const queued = judgeQueue.shift();
        if (queued) return queued;
        if (judgeMode === 'broken') return { text: BROKEN_ANSWER };
        if (judgeMode === 'short') return { text: SHORT_ANSWER };
        return { text: judgeAnswer('pass') };
      }, () => candidateQueue.shift()),
    });
    await harness.writeCase('write-greeting', greetingCase());
  });
  afterAll(async () => {
    await harness?.close();
    await temporal?.stop();
  });

  it('runs a builtin candidate through every stage and records files, rows and search attributes', async () => {
    judgeMode = 'good';
    // The viewer's address as the config gives it (`view`), not an assumed default.
    const { outcome, spec } = await harness.runCase('write-greeting', builtinCandidate(harness.mock), { viewerUrl: 'http://127.0.0.1:9400' });
    expect(outcome).toMatchObject({ status: 'completed', result: 'pass', overall: 4 });
    const runDir = join(harness.runsDir, spec.runId);
    for (const file of ['config.yaml', 'env_checklist.yaml', 'transcript.jsonl', 'score.yaml', 'review.md', 'workflow/rules/testing.md']) {
      expect(existsSync(join(runDir, file)), file).toBe(true);
    }
    const transcript = (await readFile(join(runDir, 'transcript.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(transcript.map((e) => e.role)).toEqual([
      'examiner',
      'candidate.thinking',
      'candidate.tool_call.started',
      'candidate.tool_call.completed',
      'candidate.tool_call.started',
      'candidate.tool_call.completed',
      'candidate',
      'system',
      'examiner',
    ]);
    expect(transcript[0]!.content).toBe('Please create greeting.txt containing the word hello.');
    expect(transcript[3]!.content).toBe('write: greeting.txt (+1 lines)');
    expect(transcript[5]!.content).toMatch(/^shell: cat greeting.txt; env \| grep -c OPENAI_API_KEY \|\| true → exit=0/);
    // The candidate saw its key but the transcript never holds it.
    expect(await readFile(join(runDir, 'transcript.jsonl'), 'utf8')).not.toContain('sk-test-secret-value-1234');

    const score = parseYaml(await readFile(join(runDir, 'score.yaml'), 'utf8')) as Record<string, unknown>;
    expect(score).toMatchObject({ result: 'pass', overall: 4, run_id: spec.runId, salvaged: false, judge_usage: { input_tokens: 100 } });
    const review = await readFile(join(runDir, 'review.md'), 'utf8');
    expect(review).toContain('2 of 2 hard requirements met.');
    const checklist = parseYaml(await readFile(join(runDir, 'env_checklist.yaml'), 'utf8')) as { postconditions: { passed: boolean }[]; workflow_rev: string; project_rev: string };
    expect(checklist.postconditions.map((p) => p.passed)).toEqual([true, true]);
    expect(checklist.workflow_rev).toMatch(/^sha256:[0-9a-f]{16}$/);

    const row = await harness.store.getRun(spec.runId);
    expect(row).toMatchObject({ status: 'completed', result: 'pass', overall: 4, case_id: 'write-greeting', temporal_workflow_id: spec.runId });
    // The judge's facts say how the candidate ran: this spec names no isolation, so uncontained.
    expect(row?.judge_input).toMatchObject({ facts: { turnsUsed: 1, isolation: 'none' } });
    // What a comparison groups by is on the row, and the tokens of each role, as the mock
    // counts them (100 in per call, a token per 4 characters out): one examiner call ('<<END>>'),
    // three candidate calls, one judge call.
    expect(row).toMatchObject({ project_rev: checklist.project_rev, workflow_rev: checklist.workflow_rev, workflow_dirty: false, workflow_hash: checklist.workflow_rev, arm: null, attempt_index: null });
    expect(row?.tokens).toEqual({ examiner: { input_tokens: 100, output_tokens: 2 }, candidate: { input_tokens: 300, output_tokens: 10 }, judge: { input_tokens: 100, output_tokens: 132 } });
    expect((await harness.store.getTranscript(spec.runId, { attempts: 'all' })).length).toBe(transcript.length);
    expect(await harness.store.getScore(spec.runId)).toMatchObject({ result: 'pass', judge_model: 'mock/test-judge' });

    // The judge saw tool events and postcondition results, not only the candidate's words.
    const judgeRequest = harness.mock.requests.filter((r) => r.model === 'test-judge').at(-1)!;
    const judgePrompt = judgeRequest.messages.map((m) => m.content).join('\n');
    expect(judgePrompt).toContain('write: greeting.txt (+1 lines)');
    expect(judgePrompt).toContain('greeting.txt says hello');
    // The sandbox is gone after cleanup.
    expect(existsSync(join(harness.root, 'sandboxes', spec.runId))).toBe(false);

    // Search attributes are visible to the Temporal client (visibility is eventually consistent).
    const query = `EvalCase = "write-greeting" AND EvalCandidate = "builtin" AND EvalStatus = "completed" AND EvalResult = "pass"`;
    let found: string[] = [];
    for (let i = 0; i < 50 && !found.includes(spec.runId); i++) {
      found = [];
      for await (const wf of harness.client.workflow.list({ query })) found.push(wf.workflowId);
      if (!found.includes(spec.runId)) await new Promise((r) => setTimeout(r, 200));
    }
    expect(found).toContain(spec.runId);
    // The verdict, the host and the viewer's link are in the memo: the Web UI shows them with no worker running.
    const { memo } = await harness.client.workflow.getHandle(spec.runId).describe();
    const hosts = await harness.store.getRunHosts([spec.runId]);
    expect(hosts).toHaveLength(1);
    expect(memo).toEqual({ verdict: 'pass, overall 4/5 (status completed)', host: hosts[0]!.host_id, evalflow_view: `http://127.0.0.1:9400/runs/${encodeURIComponent(spec.runId)}` });
  });

  it('runs a contained command candidate whose stream-json output is normalised', async () => {
    judgeMode = 'good';
    const agent = join(harness.root, 'agent.sh');
    await writeFile(
      agent,
      [
        '#!/usr/bin/env bash',
        'read -r message',
        'echo hello > greeting.txt',
        'echo \'{"type":"system","subtype":"init","session_id":"s-1"}\'',
        'echo \'{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cat greeting.txt"}}]}}\'',
        'echo \'{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"hello","is_error":false}]}}\'',
        'echo \'{"type":"result","subtype":"success","is_error":false,"result":"Wrote greeting.txt","session_id":"s-1","usage":{"input_tokens":10,"output_tokens":5}}\'',
        '',
      ].join('\n'),
    );
    await chmod(agent, 0o755);
    const { outcome, spec } = await harness.runCase('write-greeting', { name: 'script', adapter: 'command', args: [agent], env: {}, isolation: 'sandbox' });
    expect(outcome).toMatchObject({ status: 'completed', result: 'pass' });
    expect((await harness.store.getRun(spec.runId))?.judge_input).toMatchObject({ facts: { isolation: 'sandbox' } });
    const events = await harness.store.getTranscript(spec.runId, { attempts: 'all' });
    expect(events.filter((e) => e.role.startsWith('candidate')).map((e) => [e.role, e.content])).toEqual([
      ['candidate.tool_call.started', 'shell: cat greeting.txt'],
      ['candidate.tool_call.completed', expect.stringMatching(/^shell: cat greeting.txt → /)],
      ['candidate', 'Wrote greeting.txt'],
    ]);
    expect(events.find((e) => e.role === 'system')?.usage).toEqual({ input_tokens: 10, output_tokens: 5 });
  });

  it('aborts the run, without judging, when a hard precondition fails', async () => {
    const dir = await harness.writeCase('needs-missing-file', {
      ...greetingCase({
        env: 'preconditions:\n  - description: a file that is not there\n    check: test -f "${SANDBOX_DIR}/nope.txt"\n    severity: hard\n',
      }),
      'meta.yaml': greetingCase()['meta.yaml'].replace('write-greeting', 'needs-missing-file'),
    });
    expect(dir).toContain('needs-missing-file');
    const judgeCallsBefore = harness.mock.requests.filter((r) => r.model === 'test-judge').length;
    const { outcome, spec } = await harness.runCase('needs-missing-file', builtinCandidate(harness.mock));
    expect(outcome).toMatchObject({ status: 'aborted', result: null });
    expect(outcome.error).toContain('hard precondition failed: a file that is not there');
    expect(harness.mock.requests.filter((r) => r.model === 'test-judge').length).toBe(judgeCallsBefore);
    expect(await readFile(join(harness.runsDir, spec.runId, 'review.md'), 'utf8')).toContain('ABORTED');
    expect(existsSync(join(harness.runsDir, spec.runId, 'score.yaml'))).toBe(false);
    expect((await harness.store.getRun(spec.runId))?.status).toBe('aborted');
  });

  it('records trouble during cleanup in review.md and the store, not after them', async () => {
    judgeMode = 'good';
    await harness.writeCase('cleanup-fails', {
      ...greetingCase({
        env: 'postconditions:\n  - description: greeting.txt says hello\n    check: grep -q hello "${SANDBOX_DIR}/greeting.txt"\n    severity: hard\npost_run_cleanup:\n  - "exit 3"\n',
      }),
      'meta.yaml': greetingCase()['meta.yaml'].replace('write-greeting', 'cleanup-fails'),
    });
    const { outcome, spec } = await harness.runCase('cleanup-fails', builtinCandidate(harness.mock));
    const anomaly = { kind: 'cleanup', detail: 'post_run_cleanup command failed (exit 3): exit 3' };
    expect(outcome).toMatchObject({ status: 'completed', result: 'pass' });
    expect(outcome.anomalies).toContainEqual(anomaly);
    expect((await harness.store.getRun(spec.runId))?.anomalies).toContainEqual(anomaly);
    expect(await readFile(join(harness.runsDir, spec.runId, 'review.md'), 'utf8')).toContain('- Cleanup: post_run_cleanup command failed (exit 3): exit 3');
  });

  /** Runs write-greeting with this judge behaviour; returns the outcome, the spec and how many judge requests it took. */
  const judged = async (mode: typeof judgeMode, queue: MockReply[] = [], overrides = {}) => {
    judgeMode = mode;
    judgeQueue = queue;
    const before = harness.mock.requests.filter((r) => r.model === 'test-judge').length;
    const run = await harness.runCase('write-greeting', builtinCandidate(harness.mock), overrides);
    return { ...run, requests: harness.mock.requests.filter((r) => r.model === 'test-judge').length - before };
  };

  it('asks a judge that answered broken YAML once again, and records the whole second verdict', async () => {
    const { outcome, spec, requests } = await judged('good', [{ text: BROKEN_ANSWER }]);
    expect(requests).toBe(2);
    expect(outcome).toMatchObject({ status: 'completed', result: 'pass', overall: 4 });
    const score = parseYaml(await readFile(join(harness.runsDir, spec.runId, 'score.yaml'), 'utf8')) as { salvaged: boolean; judge_attempts: { problem: string | null }[]; review_reasons: string[] };
    expect(score.salvaged).toBe(false);
    expect(score.review_reasons).toEqual([]);
    expect(score.judge_attempts.map((a) => a.problem === null)).toEqual([false, true]);
    const reask = harness.mock.requests.filter((r) => r.model === 'test-judge').at(-1)!;
    expect(reask.messages.at(-1)?.content).toMatch(/^Your verdict could not be used as written: judge answer is not valid YAML/);
  });

  it('salvages a judge answer broken three times: needs_review with the salvaged pass kept and the items not assessed, not a fail', async () => {
    const { outcome, spec, requests } = await judged('broken');
    expect(requests).toBe(3);
    expect(outcome).toMatchObject({ status: 'needs_review', result: null, overall: null });
    expect(outcome.error).toMatch(/^needs a person's review \(the judge said pass\): the judge's answer could not be read whole in 3 requests/);
    expect(await harness.store.getRun(spec.runId)).toMatchObject({ status: 'needs_review', result: null });
    const score = await harness.store.getScore(spec.runId);
    expect(score).toMatchObject({ salvaged: true, result: 'pass', compliance: 4, execution_quality: 3, overall: 3.5 });
    expect(score?.hard_requirements.map((item) => item.met)).toEqual([null, null]);
    const review = await readFile(join(harness.runsDir, spec.runId, 'review.md'), 'utf8');
    expect(review).toContain('— NEEDS REVIEW (the judge said pass)');
    expect(review).toContain('0 of 2 hard requirements met, 2 not assessed by the judge.');
    expect(review).toContain('- ? The candidate checked the file with a shell command — not assessed by the judge');
  });

  it('asks a judge that left a hard item out once again, and records the whole second verdict', async () => {
    const { outcome, requests } = await judged('good', [{ text: SHORT_ANSWER }]);
    expect(requests).toBe(2);
    expect(outcome).toMatchObject({ status: 'completed', result: 'pass' });
    const reask = harness.mock.requests.filter((r) => r.model === 'test-judge').at(-1)!;
    expect(reask.messages.at(-1)?.content).toContain('the verdict assesses 1 of the 2 hard requirements; missing: 2. The candidate checked the file with a shell command.');
  });

  it('records a hard item the judge left out three times as not assessed: needs_review, not a fail', async () => {
    const { outcome, spec, requests } = await judged('short');
    expect(requests).toBe(3);
    expect(outcome).toMatchObject({ status: 'needs_review', result: null });
    const score = await harness.store.getScore(spec.runId);
    expect(score).toMatchObject({ salvaged: false, result: 'pass' });
    expect(score?.hard_requirements.map((item) => item.met)).toEqual([true, null]);
    const review = await readFile(join(harness.runsDir, spec.runId, 'review.md'), 'utf8');
    expect(review).toContain('1 of 2 hard requirements met, 1 not assessed by the judge.');
    expect(review).toContain('- hard requirement not assessed by the judge in 3 requests: 2. The candidate checked the file with a shell command');
  });

  it('asks a person when two judge samples disagree', async () => {
    const { outcome, spec, requests } = await judged('good', [{ text: judgeAnswer('pass') }, { text: judgeAnswer('fail') }], {
      judging: { samples: 2, review: 'later', allowSelfJudge: false },
    });
    expect(requests).toBe(2);
    expect(outcome).toMatchObject({ status: 'needs_review', result: null });
    expect(outcome.error).toMatch(/the judge samples disagree: sample 1 (pass|fail), sample 2 (fail|pass)$/);
    const score = parseYaml(await readFile(join(harness.runsDir, spec.runId, 'score.yaml'), 'utf8')) as { judge_samples: { result: string }[] };
    expect(score.judge_samples.map((s) => s.result).sort()).toEqual(['fail', 'pass']);
  });

  it('waits out a builtin model endpoint failure inside the turn, keeping the work done before it', async () => {
    judgeMode = 'good';
    // The first model call writes a file; the next one hits a 503; the turn goes on after a wait.
    candidateQueue = [{ toolCalls: [{ name: 'write_file', arguments: { path: 'greeting.txt', content: 'hello\n' } }] }, { status: 503, errorMessage: 'overloaded' }];
    const { outcome, spec } = await harness.runCase('write-greeting', builtinCandidate(harness.mock));
    expect(outcome).toMatchObject({ status: 'completed', result: 'pass' });
    expect(outcome.anomalies).toContainEqual({ kind: 'candidate_output', turn: 1, detail: expect.stringMatching(/^the builtin agent's model endpoint failed 1 time\(s\) and was waited out for 1 s \(last error: .*HTTP 503 overloaded\)$/) });
    expect(outcome.anomalies.some((a) => a.kind === 'infra_retries')).toBe(false);
    const events = await harness.store.getTranscript(spec.runId, { attempts: 'all' });
    // One attempt: nothing was rolled back or done twice.
    expect(new Set(events.filter((e) => e.role.startsWith('candidate')).map((e) => e.attempt))).toEqual(new Set([1]));
    expect(events.filter((e) => e.role === 'candidate.tool_call.completed').map((e) => e.content)[0]).toBe('write: greeting.txt (+1 lines)');
  });

  it('waits out a judge that answers 429 twice (honouring Retry-After), then records the verdict in one attempt', async () => {
    judgeMode = 'good';
    judgeQueue = [{ status: 429, errorMessage: 'slow down', retryAfterS: 2 }, { status: 429, errorMessage: 'slow down' }];
    const before = harness.mock.requests.filter((r) => r.model === 'test-judge').length;
    const started = Date.now();
    const { outcome, spec } = await harness.runCase('write-greeting', builtinCandidate(harness.mock));
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_000); // 2 s asked for, then the 2 s backoff
    expect(outcome).toMatchObject({ status: 'completed', result: 'pass' });
    expect(harness.mock.requests.filter((r) => r.model === 'test-judge').length - before).toBe(3);
    expect(outcome.anomalies).toContainEqual({ kind: 'model_outage', role: 'judge', turn: 0, retries: 2, waitedS: 4, lastError: expect.stringContaining('HTTP 429 slow down') });
    const history = await harness.client.workflow.getHandle(spec.runId).fetchHistory();
    const retried = (history.events ?? []).filter((e) => (e.activityTaskStartedEventAttributes?.attempt ?? 1) > 1);
    expect(retried).toEqual([]);
    expect(await readFile(join(harness.runsDir, spec.runId, 'review.md'), 'utf8')).toContain('- Model outage: judge waited 4 s over 2 retries');
  });
});
