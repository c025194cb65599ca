import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MockReply, MockRequest } from '../../src/llm/mock/types.js';
import { passingJudgeAnswer } from './judgeAnswer.js';

/** The case's one hard requirement. */
const REQUIREMENT = 'progress.txt has a line per turn';

/** The judge's answer to a run of the case: passed, the requirement met. */
export const TWO_STEPS_VERDICT = passingJudgeAnswer([REQUIREMENT]);

const PROGRESS_POSTCONDITION =
  'postconditions:\n  - description: one line per turn, none twice\n    check: test "$(cat "${SANDBOX_DIR}/progress.txt")" = "$(printf \'turn 1\\nturn 2\')"\n    severity: hard\n';

/**
 * Writes the eval case `two-steps` into `evalSets` and returns its folder: at most three turns,
 * an agent asked to write a line `turn $EVALFLOW_TURN` to progress.txt each turn. With
 * `progressPostcondition`, a hard postcondition checks progress.txt has `turn 1` and `turn 2`,
 * each once: a turn run twice, or in another sandbox, fails it. `postRunCleanup` are the case's
 * post_run_cleanup commands (none by default).
 */
export async function writeTwoStepsCase(evalSets: string, options: { progressPostcondition: boolean; postRunCleanup?: readonly string[] }): Promise<string> {
  const caseDir = join(evalSets, 'two-steps');
  await mkdir(caseDir, { recursive: true });
  await writeFile(join(caseDir, 'meta.yaml'), 'id: two-steps\nversion: v1\ntarget_workflow: t\ncategory: c\npurpose: Two turns of work.\nmax_turns: 3\n');
  await writeFile(join(caseDir, 'task.md'), '## Prompt\n\n> Do step one.\n\n## Scenario\n\nA user with two steps.\n\n## Guidance\n\nAsk for the next step, then end.\n');
  await writeFile(join(caseDir, 'rubric.md'), `## Hard requirements\n\n- ${REQUIREMENT}\n\n## Quality\n\n## Common failures\n`);
  const cleanup = options.postRunCleanup?.length ? `post_run_cleanup:\n${options.postRunCleanup.map((line) => `  - ${JSON.stringify(line)}\n`).join('')}` : '';
  await writeFile(join(caseDir, 'env.yaml'), (options.progressPostcondition ? PROGRESS_POSTCONDITION : 'postconditions: []\n') + cleanup);
  return caseDir;
}

/** The case's examiner: after the agent's first answer it asks for the next step, after the second it ends. */
export function twoStepsExaminer(request: MockRequest): MockReply {
  const turns = request.messages.filter((m) => m.role === 'assistant').length;
  return { text: turns >= 2 ? '<<END>>' : 'Good, now do the next step.' };
}
