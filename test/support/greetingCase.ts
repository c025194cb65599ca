import type { MockScript } from '../../src/llm/mock/types.js';
import { passingJudgeAnswer } from './judgeAnswer.js';

/** The case's one hard requirement. */
const REQUIREMENT = 'greeting.txt exists';

/**
 * The files of the eval case `id` in which the candidate is asked to write greeting.txt: one
 * turn unless `maxTurns`, and `envYaml` as its env.yaml (by default none: no setup, no
 * postconditions).
 */
export function greetingCase(id: string, options: { maxTurns?: number; envYaml?: string } = {}): Record<string, string> {
  return {
    'meta.yaml': `id: ${id}\nversion: v1\ntarget_workflow: t\ncategory: c\npurpose: p\nmax_turns: ${options.maxTurns ?? 1}\n`,
    'task.md': '## Prompt\n\n> Write greeting.txt.\n\n## Scenario\n\nA user.\n\n## Guidance\n\nEnd at once.\n',
    'rubric.md': `## Hard requirements\n\n- ${REQUIREMENT}\n\n## Quality\n\n## Common failures\n`,
    'env.yaml': options.envYaml ?? '',
  };
}

/**
 * An eval harness's mock script: the judge (`test-judge`) passes the run, greeting.txt written;
 * every other call, the examiner's, goes to `examiner`.
 */
export function judgedGreeting(examiner: MockScript): MockScript {
  return (request) => (request.model === 'test-judge' ? { text: passingJudgeAnswer([REQUIREMENT], 'write') } : examiner(request));
}
