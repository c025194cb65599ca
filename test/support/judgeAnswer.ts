/**
 * The answer of a judge that passes a run: 4 on every score, each of `items` (the rubric's hard
 * requirements) met on `evidence`, no suggestions. Tests script the mock model with it.
 */
export function passingJudgeAnswer(items: string[], evidence = 'postcondition'): string {
  return [
    "reasoning: 'ok'",
    'result: pass',
    'compliance: 4',
    'execution_quality: 4',
    'overall: 4',
    "summary: 'ok'",
    'hard_requirements:',
    ...items.map((item) => `  - item: ${quoted(item)}\n    met: true\n    evidence: ${quoted(evidence)}`),
    'suggestions: []',
    '',
  ].join('\n');
}

/** A YAML single-quoted scalar: the only character it escapes is the quote itself. */
function quoted(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
