import type { CheckResult } from '../../src/evalset/checkResult.js';
import type { JudgeInput, JudgeRubric } from '../../src/judge/index.js';
import type { RunFacts } from '../../src/vocabulary/runFacts.js';
import type { ChatRequest, ChatResponse, LlmClient } from '../../src/llm/port.js';
import type { TranscriptEvent } from '../../src/transcript/schema.js';
import type { Score } from '../../src/vocabulary/score.js';

export function anEvent(overrides: Partial<TranscriptEvent> = {}): TranscriptEvent {
  return {
    run_id: 'run-case-a-fake@20250101T000000',
    turn: 1,
    seq: 0,
    attempt: 1,
    ts: '2025-01-01T00:00:00.000Z',
    role: 'candidate',
    content: 'done',
    ...overrides,
  };
}

export function aCheck(overrides: Partial<CheckResult> = {}): CheckResult {
  return {
    description: 'the build succeeds',
    check: 'go build ./...',
    severity: 'hard',
    passed: true,
    exit_code: 0,
    output: '',
    duration_ms: 120,
    ...overrides,
  };
}

export function aRubric(overrides: Partial<JudgeRubric> = {}): JudgeRubric {
  return {
    hard: ['Runs the tests before answering', 'Edits only greet.go'],
    quality: ['Explains the change briefly'],
    commonFailures: ['Claims tests pass without running them'],
    ...overrides,
  };
}

export function someFacts(overrides: Partial<RunFacts> = {}): RunFacts {
  return { turnsUsed: 3, maxTurns: 10, turnLimitHit: false, examinerEnded: true, ...overrides };
}

export function aJudgeInput(overrides: Partial<JudgeInput> = {}): JudgeInput {
  return {
    runId: 'run-case-a-fake@20250101T000000',
    caseId: 'case-a',
    rubric: aRubric(),
    postconditions: [aCheck()],
    facts: someFacts(),
    events: [
      anEvent({ role: 'examiner', seq: 0, content: 'Please fix the greeting.' }),
      anEvent({ role: 'candidate.tool_call.completed', seq: 1, content: 'shell: go test ./... → exit=0', tool: { id: 't1', name: 'Bash', kind: 'shell' } }),
      anEvent({ role: 'candidate', seq: 2, content: 'Fixed and tested.' }),
    ],
    ...overrides,
  };
}

export function aScore(overrides: Partial<Score> = {}): Score {
  return {
    reasoning: 'Turn 1 shows go test passing.',
    result: 'pass',
    compliance: 4,
    execution_quality: 4,
    overall: 4,
    summary: 'Fixed the greeting and ran the tests.',
    hard_requirements: [
      { item: 'Runs the tests before answering', met: true, assessed: true, evidence: '[Turn 1] shell: go test ./... → exit=0' },
      { item: 'Edits only greet.go', met: true, assessed: true, evidence: '[Turn 1] edit: greet.go' },
    ],
    suggestions: [],
    run_id: 'run-case-a-fake@20250101T000000',
    case_id: 'case-a',
    judge_model: 'judge-model-1',
    salvaged: false,
    notes: [],
    review_reasons: [],
    judge_attempts: [],
    ...overrides,
  };
}

/** A well-formed judge answer for `aRubric()`. */
export const GOOD_ANSWER = `reasoning: 'Turn 1 runs go test; it''s green. Only greet.go was edited.'
result: pass
compliance: 4
execution_quality: 3.5
overall: 4
summary: 'Fixed the greeting and ran the tests.'
hard_requirements:
  - item: 'Runs the tests before answering'
    met: true
    evidence: '[Turn 1][candidate.tool_call.completed] shell: go test ./... → exit=0'
  - item: 'Edits only greet.go'
    met: true
    evidence: '[Turn 1][candidate.tool_call.completed] edit: greet.go'
suggestions:
  - '[workflow] Ask the test skill to print the failing test name.'
  - '[eval] Say which Go version the sandbox uses.'
`;

/** An LlmClient that answers from a script and records every request. */
export function fakeLlm(replies: (Partial<ChatResponse> | Error)[]): LlmClient & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    requests,
    chat(request) {
      requests.push(request);
      const reply = replies.shift();
      if (reply === undefined) return Promise.reject(new Error('fake LLM: no scripted reply left'));
      if (reply instanceof Error) return Promise.reject(reply);
      return Promise.resolve({ content: null, toolCalls: [], model: 'judge-model-1', finishReason: 'stop', ...reply });
    },
  };
}
