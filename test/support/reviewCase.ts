import type { MockRequest } from '../../src/llm/mock/types.js';
import { createEvalHarness, type EvalHarness } from './evalHarness.js';
import type { TestTemporal } from './temporalServer.js';

/** A case with two hard requirements, the second of which the judge below never assesses. */
export const REVIEW_CASE = {
  'meta.yaml': 'id: write-greeting\nversion: v1\ntarget_workflow: add-helper\ncategory: feature\npurpose: The candidate writes a file.\nmax_turns: 2\n',
  'task.md': '## Prompt\n\n> Please create greeting.txt containing the word hello.\n\n## Scenario\n\nYou want a greeting file.\n\n## Guidance\n\nEnd with <<END>> once it is done.\n',
  'rubric.md': '## Hard requirements\n\n- greeting.txt contains hello\n- The candidate checked the file with a shell command\n\n## Quality\n\n## Common failures\n',
  'env.yaml': 'postconditions:\n  - description: greeting.txt says hello\n    check: grep -q hello "${SANDBOX_DIR}/greeting.txt"\n    severity: hard\n',
};

/** A pass that never assesses the second hard item, however often it is asked: every run needs a person. */
export const UNASSESSED_PASS = [
  "reasoning: 'It wrote greeting.txt.'",
  'result: pass',
  'compliance: 4',
  'execution_quality: 4',
  'overall: 4',
  "summary: 'Wrote the file.'",
  'hard_requirements:',
  "  - item: 'greeting.txt contains hello'",
  '    met: true',
  "    evidence: '[Turn 1] write: greeting.txt'",
  'suggestions: []',
].join('\n');

/**
 * An eval harness on PostgreSQL with REVIEW_CASE written: the examiner ends at once, the
 * builtin candidate writes greeting.txt, and the judge answers UNASSESSED_PASS.
 */
export async function createReviewHarness(temporal: Pick<TestTemporal, 'address' | 'namespace'>): Promise<EvalHarness> {
  const harness = await createEvalHarness({
    backend: 'postgres',
    temporal,
    script: (request: MockRequest) => {
      if (request.model === 'test-examiner') return { text: '<<END>>' };
      if (request.model === 'test-judge') return { text: UNASSESSED_PASS };
      return request.messages.some((m) => m.role === 'tool') ? { text: 'Created greeting.txt.' } : { toolCalls: [{ name: 'write_file', arguments: { path: 'greeting.txt', content: 'hello\n' } }] };
    },
  });
  await harness.writeCase('write-greeting', REVIEW_CASE);
  return harness;
}
