import { JudgeError } from '../errors.js';
import type { ChatMessage, ChatResponse, LlmClient } from '../llm/port.js';
import { describeItems, matchHardRequirements, missingItems } from './hardItems.js';
import type { JudgeInput, JudgeRubric } from './judgeInput.js';
import { parseJudgeAnswer, type ParsedJudgeAnswer } from './parse.js';
import { buildJudgePrompt, judgeMessages, reaskMessage } from './prompt.js';
import { decideVerdict } from './verdict.js';
import { addUsage, type Usage } from '../vocabulary/usage.js';
import type { JudgeAttempt, Score } from '../vocabulary/score.js';

/** The first request and up to two re-asks: a judge's slip is its own to mend, not the candidate's fail. */
export const JUDGE_REQUESTS = 3;

export interface JudgeRunResult {
  /** The verdict, with every request in `judge_attempts` and their usage summed in `judge_usage`. */
  score: Score;
  /** The judge's answer the verdict rests on, as received, kept for rejudging and debugging. */
  raw: string;
  /** Every answer the judge gave, in request order. */
  answers: string[];
  /** All requests together. */
  usage: Usage | undefined;
  model: string;
}

/**
 * Judge one run: build the prompt, ask the model in the `judge` role and apply the verdict
 * rules. An answer that is not valid YAML, fails the format or leaves hard items out is sent
 * back once or twice with what was wrong (the conversation goes on, so the judge sees its own
 * answer); only after that is the latest readable answer salvaged. LlmError from the client
 * passes through untouched so its `retryable` flag reaches the retry policy; no readable
 * answer in any request throws JudgeError.
 */
export async function judgeRun({
  llm,
  input,
  signal,
  sample = 1,
  temperature = 0,
}: {
  llm: LlmClient;
  input: JudgeInput;
  signal?: AbortSignal;
  /** Which independent sample this is (`--judges N`); recorded with each attempt. */
  sample?: number;
  temperature?: number;
}): Promise<JudgeRunResult> {
  const prompt = buildJudgePrompt(input);
  const messages: ChatMessage[] = judgeMessages(prompt);
  const attempts: JudgeAttempt[] = [];
  const answers: string[] = [];
  let taken: { parsed: ParsedJudgeAnswer; raw: string; model: string } | undefined;
  let lastProblem = '';
  for (let attempt = 1; attempt <= JUDGE_REQUESTS; attempt++) {
    const response = await llm.chat({ role: 'judge', messages: [...messages], temperature, ...(signal ? { signal } : {}) });
    const raw = response.content ?? '';
    answers.push(raw);
    const read = readAnswer(raw, response, input.rubric);
    attempts.push({ sample, attempt, problem: read.problem, ...(response.usage ? { usage: response.usage } : {}) });
    if (read.parsed) taken = { parsed: read.parsed, raw, model: response.model };
    if (read.problem === null) break;
    lastProblem = read.problem;
    messages.push({ role: 'assistant', content: raw.trim() === '' ? '(no answer)' : raw }, { role: 'user', content: reaskMessage(read.problem, input.rubric) });
  }
  if (!taken) throw new JudgeError(`the judge gave no readable verdict in ${attempts.length} requests; the last: ${lastProblem}`);

  const { parsed } = taken;
  if (prompt.transcript.elidedBytes > 0) {
    parsed.notes.push(
      `transcript compacted for the judge: ${prompt.transcript.elidedBytes} bytes elided ` +
        `(${prompt.transcript.elidedEvents} events in full, ${prompt.transcript.partlyElidedEvents} in part)`,
    );
  }
  const score = decideVerdict({
    parsed,
    rubric: input.rubric,
    postconditions: input.postconditions,
    expectations: input.expectations ?? [],
    runId: input.runId,
    caseId: input.caseId,
    judgeModel: taken.model,
    requests: attempts.length,
  });
  const usage = attempts.reduce<Usage | undefined>((sum, a) => addUsage(sum, a.usage), undefined);
  return { score: { ...score, judge_attempts: attempts, ...(usage ? { judge_usage: usage } : {}) }, raw: taken.raw, answers, usage, model: taken.model };
}

/** The answer as read, and what is wrong with it (null when it can be taken as written). */
function readAnswer(raw: string, response: ChatResponse, rubric: JudgeRubric): { parsed?: ParsedJudgeAnswer; problem: string | null } {
  if (raw.trim() === '') return { problem: `judge model ${response.model} returned no text (finish reason: ${response.finishReason ?? 'none'})` };
  let parsed: ParsedJudgeAnswer;
  try {
    parsed = parseJudgeAnswer(raw);
  } catch (err) {
    if (err instanceof JudgeError) return { problem: err.message };
    throw err;
  }
  if (parsed.salvaged) return { parsed, problem: parsed.problems.slice(0, 3).join('; ') };
  const missing = missingItems(matchHardRequirements(parsed.answer.hard_requirements, rubric));
  if (missing.length === 0) return { parsed, problem: null };
  return {
    parsed,
    problem: `the verdict assesses ${rubric.hard.length - missing.length} of the ${rubric.hard.length} hard requirements; missing: ${describeItems(missing, rubric)}`,
  };
}
