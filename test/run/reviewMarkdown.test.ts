import { describe, expect, it } from 'vitest';
import { describeAnomalies, isMarginalPass } from '../../src/run/reviewAnomalies.js';
import { renderAbortedReview, renderJudgeFailedReview, renderReview } from '../../src/run/reviewMarkdown.js';
import { aCheck, aScore, someFacts } from '../judge/builders.js';

describe('renderReview', () => {
  it('renders requirements, observations, suggestions by tag and a clean anomalies section', () => {
    const score = aScore({
      hard_requirements: [
        { item: 'Runs the tests before answering', met: true, assessed: true, evidence: '[Turn 1] shell: go test ./... → exit=0' },
        { item: 'Edits only greet.go', met: false, assessed: true, evidence: '[Turn 2] edit: main.go\nalso touched go.mod' },
      ],
      result: 'fail',
      suggestions: ['[capability] Loses track of scope.', '[eval] Name the file to edit.', '[workflow] Add a scope rule.'],
    });
    expect(renderReview({ score, facts: someFacts() })).toBe(`# Review: run-case-a-fake@20250101T000000 — FAIL

- Case: case-a
- Judge model: judge-model-1
- Scores: compliance 4/5, execution quality 4/5, overall 4/5
- Dialogue: 3 of 10 turns, ended by the examiner

## Did it follow the requirements?

1 of 2 hard requirements met.

- ✓ Runs the tests before answering — evidence: [Turn 1] shell: go test ./... → exit=0
- ✗ Edits only greet.go — evidence: [Turn 2] edit: main.go
  also touched go.mod

## Key observations

Fixed the greeting and ran the tests.

### Judge reasoning

Turn 1 shows go test passing.

## Suggestions

### [workflow]

- Add a scope rule.

### [eval]

- Name the file to edit.

### [capability]

- Loses track of scope.

## Run anomalies

None.
`);
  });

  it('omits empty suggestion groups and says None when there are none', () => {
    const withOne = renderReview({ score: aScore({ suggestions: ['[eval] Name the file.'] }), facts: someFacts() });
    expect(withOne).toContain('## Suggestions\n\n### [eval]\n\n- Name the file.\n\n## Run anomalies');
    const withNone = renderReview({ score: aScore(), facts: someFacts() });
    expect(withNone).toContain('## Suggestions\n\nNone.\n\n## Run anomalies');
  });

  it('lists every anomaly: forced fail, turn limit, timeouts, infra retries, salvage and corrections', () => {
    const score = aScore({
      result: 'fail',
      salvaged: true,
      forced_fail_reason: 'hard postcondition failed: tests pass (exit 1)',
      notes: ['judge answer is not valid YAML: Nested mappings are not allowed', 'salvage: overall not found in the judge answer; set to 0'],
    });
    const review = renderReview({
      score,
      facts: someFacts({ turnsUsed: 10, maxTurns: 10, turnLimitHit: true, examinerEnded: false }),
      anomalies: [
        { kind: 'timeout', detail: 'candidate turn 3 exceeded 600 s' },
        { kind: 'infra_retries', count: 2, detail: 'candidateTurn ×2' },
        { kind: 'infra_retries', count: 1 },
        { kind: 'other', detail: 'sandbox restored before retrying turn 3' },
      ],
    });
    expect(review).toContain('- Dialogue: 10 of 10 turns, stopped at the turn limit');
    expect(review.slice(review.indexOf('## Run anomalies'))).toBe(`## Run anomalies

- Forced fail: hard postcondition failed: tests pass (exit 1)
- Turn limit hit: 10 of 10 turns used without the examiner ending the dialogue
- Timeout: candidate turn 3 exceeded 600 s
- Infra retries: 2 retried activity attempts (candidateTurn ×2)
- Infra retries: 1 retried activity attempt
- sandbox restored before retrying turn 3
- Salvaged judge output: the answer was not valid YAML or failed the schema, also when asked again; the verdict was recovered field by field
- Corrections to the judge answer (2):
  - judge answer is not valid YAML: Nested mappings are not allowed
  - salvage: overall not found in the judge answer; set to 0
`);
  });

  it('flags a marginal pass', () => {
    const review = renderReview({ score: aScore({ overall: 2.5 }), facts: someFacts() });
    expect(review).toContain('## Run anomalies\n\n- Marginal pass: compliance 4, execution quality 4, overall 2.5 (a pass with a score below 3)\n');
  });

  it('fills in missing summary, reasoning and evidence', () => {
    const score = aScore({ summary: '', reasoning: ' ', hard_requirements: [{ item: 'Runs the tests', met: false, assessed: true, evidence: '' }] });
    const review = renderReview({ score, facts: someFacts({ examinerEnded: false }) });
    expect(review).toContain('- ✗ Runs the tests — evidence: (none given)');
    expect(review).toContain('## Key observations\n\n(no summary given)\n\n### Judge reasoning\n\n(no reasoning given)');
    expect(review).toContain('- Dialogue: 3 of 10 turns, stopped before the examiner ended it');
  });
});

describe('renderReview for a verdict in doubt', () => {
  const doubtful = aScore({
    hard_requirements: [
      { item: 'Runs the tests before answering', met: true, assessed: true, evidence: '[Turn 1] shell: go test' },
      { item: 'Edits only greet.go', met: null, assessed: false, evidence: 'not assessed by the judge' },
    ],
    review_reasons: ['hard requirement not assessed by the judge in 3 requests: 2. Edits only greet.go'],
    judge_attempts: [
      { sample: 1, attempt: 1, problem: 'the verdict assesses 1 of the 2 hard requirements; missing: 2. Edits only greet.go' },
      { sample: 1, attempt: 2, problem: 'the verdict assesses 1 of the 2 hard requirements; missing: 2. Edits only greet.go' },
      { sample: 1, attempt: 3, problem: 'the verdict assesses 1 of the 2 hard requirements; missing: 2. Edits only greet.go' },
    ],
  });

  it('says the run waits for a person, why and how, and shows items not assessed as such', () => {
    const review = renderReview({ score: doubtful, facts: someFacts() });
    expect(review).toMatch(/^# Review: run-case-a-fake@20250101T000000 — NEEDS REVIEW \(the judge said pass\)\n/);
    expect(review).toContain(
      "## A person's review\n\nNeeded: this run is not counted until a person decides (`evalflow review run-case-a-fake@20250101T000000 --result pass|fail --note \"why\"`), because:\n\n" +
        '- hard requirement not assessed by the judge in 3 requests: 2. Edits only greet.go\n\n## Did it follow',
    );
    expect(review).toContain('1 of 2 hard requirements met, 1 not assessed by the judge.\n\n- ✓ Runs the tests before answering — evidence: [Turn 1] shell: go test\n- ? Edits only greet.go — not assessed by the judge\n');
    expect(review).toContain('- Judge answers that could not be used as written (3):\n  - request 1: the verdict assesses 1 of the 2 hard requirements');
  });

  it("shows a person's decision beside the judge's verdict, which stays as it was", () => {
    const review = renderReview({
      score: { ...doubtful, result: 'fail' },
      facts: someFacts(),
      decision: { result: 'pass', author: 'alice', note: 'greet.go was the only file edited (turn 2)', decidedAt: '2026-01-02T03:04:05.000Z' },
    });
    expect(review).toMatch(/^# Review: run-case-a-fake@20250101T000000 — PASS \(a person's decision; the judge said fail\)\n/);
    expect(review).toContain(
      "## A person's review\n\n- Decision: pass, by alice, 2026-01-02T03:04:05.000Z\n- Note: greet.go was the only file edited (turn 2)\n- Asked for because:\n  - hard requirement not assessed",
    );
    expect(review).toContain('- ? Edits only greet.go — not assessed by the judge');
  });

  it('lists what each judge sample said', () => {
    const score = aScore({ judge_samples: [{ sample: 1, result: 'pass', overall: 4, review_reasons: [] }, { sample: 2, result: 'fail', overall: 2, review_reasons: [] }] });
    expect(renderReview({ score, facts: someFacts() })).toContain('- Judge samples: sample 1 pass (overall 4), sample 2 fail (overall 2)\n');
  });
});

describe('isMarginalPass', () => {
  it('is a pass with any score below 3', () => {
    expect(isMarginalPass(aScore())).toBe(false);
    expect(isMarginalPass(aScore({ overall: 2.5 }))).toBe(true);
    expect(isMarginalPass(aScore({ execution_quality: 2 }))).toBe(true);
    expect(isMarginalPass(aScore({ compliance: 3, execution_quality: 3, overall: 3 }))).toBe(false);
    expect(isMarginalPass(aScore({ result: 'fail', overall: 1 }))).toBe(false);
  });
});

describe('describeAnomalies', () => {
  it('is empty for a clean run', () => {
    expect(describeAnomalies({ score: aScore(), facts: someFacts(), anomalies: [] })).toEqual([]);
  });

  it('lists restored protected paths with what was done, cutting a long list short', () => {
    const paths = Array.from({ length: 12 }, (_, i) => ({ path: `test/fixtures/gen${i}.txt`, change: 'added' as const }));
    expect(describeAnomalies({ anomalies: [{ kind: 'protected_changed', paths: [{ path: 'test/slug.test.js', change: 'changed' }, { path: 'test/fixtures/', change: 'deleted' }] }] })).toEqual([
      '- Protected paths restored before the postconditions: test/slug.test.js (changed), test/fixtures/ (deleted)',
    ]);
    const [line] = describeAnomalies({ anomalies: [{ kind: 'protected_changed', paths }] });
    expect(line).toMatch(/gen9\.txt \(added\) and 2 more \(see env_checklist\.yaml\)$/);
  });
});

describe('renderAbortedReview', () => {
  it('renders the reason, the preconditions and the anomaly, with no verdict', () => {
    const review = renderAbortedReview({
      runId: 'run-case-a-fake@20250101T000000',
      caseId: 'case-a',
      reason: 'hard precondition failed: go is installed',
      preconditions: [
        aCheck({ description: 'repo is clean', check: 'git diff --quiet', passed: true }),
        aCheck({ description: 'go is installed', check: 'go version', passed: false, exit_code: 127, output: 'sh: go: not found\n' }),
      ],
      anomalies: [{ kind: 'infra_retries', count: 1, detail: 'prepareRun' }],
    });
    expect(review).toBe(`# Review: run-case-a-fake@20250101T000000 — ABORTED

- Case: case-a
- Not judged: the run stopped before the candidate could be scored. Aborted runs do not count in pass rates.

## Reason

hard precondition failed: go is installed

## Preconditions

- ✓ [hard] repo is clean
  Check: \`git diff --quiet\` (exit 0)
- ✗ [hard] go is installed
  Check: \`go version\` (exit 127)
  \`\`\`
  sh: go: not found
  \`\`\`

## Run anomalies

- Run aborted: hard precondition failed: go is installed
- Infra retries: 1 retried activity attempt (prepareRun)
`);
  });
});

describe('renderJudgeFailedReview', () => {
  it('renders the error in a fence it cannot break and points to rejudge', () => {
    const review = renderJudgeFailedReview({
      runId: 'run-x',
      caseId: 'case-a',
      facts: someFacts({ turnsUsed: 10, maxTurns: 10, turnLimitHit: true, examinerEnded: false }),
      error: 'judge answer could not be read: found ```text```\nsecond line',
    });
    expect(review).toBe(`# Review: run-x — JUDGE FAILED

- Case: case-a
- Dialogue: 10 of 10 turns, stopped at the turn limit
- Not scored: the judge step failed. The transcript is stored; \`evalflow rejudge run-x\` runs only the judge again. Judge failures do not count in pass rates.

## Error

\`\`\`\`
judge answer could not be read: found \`\`\`text\`\`\`
second line
\`\`\`\`

## Run anomalies

- Judge failed: judge answer could not be read: found \`\`\`text\`\`\`
- Turn limit hit: 10 of 10 turns used without the examiner ending the dialogue
`);
  });
});
