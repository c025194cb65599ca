import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { cachedExecutable } from '../../src/candidates/agentCache.js';
import { memoryIo } from '../../src/cli/io.js';
import { run } from '../../src/commands/run.js';
import { startMockServer, type MockServer } from '../../src/llm/mock/server.js';
import type { MockDialect, MockReply, MockRequest } from '../../src/llm/mock/types.js';
import type { TranscriptEvent } from '../../src/transcript/schema.js';
import type { WorkflowUsageRow } from '../../src/vocabulary/workflowUsage.js';
import { startTestTemporal, type TestTemporal } from './temporalServer.js';
import type { Usage } from '../../src/vocabulary/usage.js';

const REPO = resolve(import.meta.dirname, '../..');

/** The agent CLI that `scripts/agent-clis.sh` installed for this adapter (the test fails clearly when it did not). */
export function installedAgent(adapter: string): string {
  const path = cachedExecutable(adapter, process.env);
  if (!path || !existsSync(path)) throw new Error(`${adapter}: ${path ?? 'no cache path'} is missing; run scripts/agent-clis.sh first`);
  return path;
}

export const TURN1_PROMPT = 'Please use the team skill for tests (node-test) and tell me what it asks for.';
export const TURN2_PROMPT = 'Thanks. Now write hello.txt containing hello-from-agent with a shell command.';
export const SHELL_COMMAND = 'echo hello-from-agent > hello.txt && cat hello.txt';
export const SKILL_CALL_ID = 'call_skill_t1';
export const SHELL_CALL_ID = 'call_shell_t2';
const USAGE: Usage = { input_tokens: 120, output_tokens: 30 };

/** How one CLI's model is made to use the skill in turn 1 and run the shell command in turn 2. */
export interface AgentMoves {
  /** The tool call that loads the example skill (the CLI's skill tool, or a read of its SKILL.md). */
  skill(request: MockRequest): { name: string; arguments: Record<string, unknown> };
  /** The CLI's shell tool call running SHELL_COMMAND. */
  shell(request: MockRequest): { name: string; arguments: Record<string, unknown> };
}

export interface LiveAgentOptions {
  adapter: string;
  dialects: MockDialect[];
  /** The model id the candidate asks for; requests for it are the agent's. */
  model: string;
  /** base_url of the candidate, from the mock's addresses. */
  baseUrl(mock: MockServer): string;
  moves: AgentMoves;
}

/** One agent-model call as the mock answered it: the dialogue turn it served and the usage it reported. */
export interface AgentCall {
  turn: 1 | 2;
  request: MockRequest;
  usage: Usage;
}

export interface LiveAgentRun {
  exitCode: number;
  output: string;
  events: TranscriptEvent[];
  workflowUsage: WorkflowUsageRow[];
  calls: AgentCall[];
  result: string;
}

/** Which dialogue turn an agent request serves: turn 2's prompt is in it, or not. */
export const turnOf = (request: MockRequest): 1 | 2 => (request.messages.some((m) => m.role === 'user' && m.content.includes(TURN2_PROMPT)) ? 2 : 1);
/** Whether the request carries the result of the tool call with this id. */
export const answered = (request: MockRequest, id: string) => request.messages.some((m) => m.role === 'tool' && m.toolCallId === id);

/**
 * A real agent CLI under `evalflow run` against the scripted mock, in the loopback namespace:
 * a two-turn case whose model uses the example skill in turn 1 and runs a shell command in
 * turn 2; the examiner and judge are mock models too.
 */
export class LiveAgentCase {
  temporal!: TestTemporal;
  mock!: MockServer;
  root!: string;
  readonly calls: AgentCall[] = [];

  constructor(private readonly options: LiveAgentOptions) {}

  async start(): Promise<void> {
    const executable = installedAgent(this.options.adapter);
    this.temporal = await startTestTemporal();
    this.mock = await startMockServer({ dialects: this.options.dialects, script: (request) => this.reply(request) });
    this.root = await mkdtemp(join(tmpdir(), `evalflow-live-${this.options.adapter}-`));
    await cp(join(REPO, 'examples/project'), join(this.root, 'project'), { recursive: true });
    await cp(join(REPO, 'examples/workflow'), join(this.root, 'workflow'), { recursive: true });
    const caseDir = join(this.root, 'eval_sets', 'skill-then-shell');
    await mkdir(caseDir, { recursive: true });
    await writeFile(
      join(caseDir, 'meta.yaml'),
      'id: skill-then-shell\nversion: v1\ntarget_workflow: node-test\ncategory: e2e\npurpose: A real agent CLI uses a skill, then runs a shell command in a resumed session.\nmax_turns: 3\nexpect_workflow:\n  must_use: [skills/node-test]\n',
    );
    await writeFile(join(caseDir, 'task.md'), `## Prompt\n\n> ${TURN1_PROMPT}\n\n## Scenario\n\nYou want a file.\n\n## Guidance\n\nIn turn 2 ask for hello.txt; then end.\n`);
    await writeFile(join(caseDir, 'rubric.md'), '## Hard requirements\n\n- hello.txt says hello\n\n## Quality\n\n## Common failures\n');
    await writeFile(
      join(caseDir, 'env.yaml'),
      'postconditions:\n  - description: hello.txt was written by a shell command\n    check: grep -qx hello-from-agent "${SANDBOX_DIR}/hello.txt"\n    severity: hard\n',
    );
    await writeFile(
      join(this.root, 'evalflow.config.yaml'),
      [
        'project: project',
        'workflow_dir: workflow',
        'candidates:',
        '  agent:',
        `    adapter: ${this.options.adapter}`,
        `    model: ${this.options.model}`,
        `    base_url: ${this.options.baseUrl(this.mock)}`,
        '    api_key_env: E2E_AGENT_KEY',
        `    executable: ${executable}`,
        '    turn_timeout_s: 180',
        'examiner:',
        '  model: e2e-examiner',
        `  base_url: ${this.mock.url}`,
        'judge:',
        '  model: e2e-judge',
        `  base_url: ${this.mock.url}`,
        '',
      ].join('\n'),
    );
  }

  async stop(): Promise<void> {
    await this.mock?.close();
    await this.temporal?.stop();
    if (this.root) await rm(this.root, { recursive: true, force: true });
  }

  async run(): Promise<LiveAgentRun> {
    const io = memoryIo(this.root, this.hostEnv());
    const exitCode = await run({ candidate: 'agent' }, io);
    const output = [...io.stdout, ...io.stderr].join('\n');
    const runDir = /(runs\/run-skill-then-shell-agent@\S+)/.exec(io.stdout.join('\n'))?.[1];
    if (!runDir) throw new Error(`no run directory in the output:\n${output}`);
    const events = (await readFile(join(this.root, runDir, 'transcript.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as TranscriptEvent);
    const score = parseYaml(await readFile(join(this.root, runDir, 'score.yaml'), 'utf8')) as { result: string; workflow_usage: WorkflowUsageRow[] };
    // Every live agent runs contained, as evalflow runs it by default.
    expect((parseYaml(await readFile(join(this.root, runDir, 'env_checklist.yaml'), 'utf8')) as { isolation?: string }).isolation).toBe('sandbox');
    return { exitCode, output, events, workflowUsage: score.workflow_usage, calls: this.calls, result: score.result };
  }

  /** The agent's usage for one turn: the sum of what the mock reported to that turn's calls. */
  usageOf(turn: 1 | 2): Usage {
    const calls = this.calls.filter((c) => c.turn === turn);
    return { input_tokens: calls.reduce((sum, c) => sum + c.usage.input_tokens, 0), output_tokens: calls.reduce((sum, c) => sum + c.usage.output_tokens, 0) };
  }

  private reply(request: MockRequest): MockReply {
    if (request.model === 'e2e-examiner') {
      const users = request.messages.filter((m) => m.role === 'user').length;
      return { text: users === 1 ? TURN2_PROMPT : '<<END>>' };
    }
    if (request.model === 'e2e-judge') return { text: JUDGE_REPLY };
    // The CLI's side requests (titles, classifiers) offer no tools.
    if (request.tools.length === 0) return { text: 'ok', usage: { input_tokens: 5, output_tokens: 1 } };
    const turn = turnOf(request);
    this.calls.push({ turn, request, usage: USAGE });
    if (turn === 1) {
      if (answered(request, SKILL_CALL_ID)) return { text: 'Turn 1 done: the skill asks for node:test.', usage: USAGE };
      return { reasoning: 'The user wants the team skill.', text: 'Loading the skill.', toolCalls: [{ id: SKILL_CALL_ID, ...this.options.moves.skill(request) }], usage: USAGE };
    }
    if (answered(request, SHELL_CALL_ID)) return { text: 'Turn 2 done.', usage: USAGE };
    return { text: 'Writing the file.', toolCalls: [{ id: SHELL_CALL_ID, ...this.options.moves.shell(request) }], usage: USAGE };
  }

  private hostEnv(): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      OPENAI_API_KEY: 'sk-e2e',
      E2E_AGENT_KEY: 'sk-e2e-agent-secret-000222',
      EVALFLOW_HOME: join(this.root, '.evalflow'),
      EVALFLOW_SANDBOX_ROOT: join(this.root, 'sandboxes'),
      EVALFLOW_TEMPORAL_PORT: String(this.temporal.port),
      EVALFLOW_TEMPORAL_UI_PORT: String(this.temporal.uiPort),
      EVALFLOW_CANDIDATE_NETNS: 'loopback',
    };
  }
}

const JUDGE_REPLY = [
  "reasoning: 'Turn 1 used the node-test skill; turn 2 wrote hello.txt with a shell command (exit 0).'",
  'result: pass',
  'compliance: 5',
  'execution_quality: 4',
  'overall: 4.5',
  "summary: 'Skill used, file written.'",
  'hard_requirements:',
  "  - item: 'hello.txt says hello'",
  '    met: true',
  "    evidence: '[Turn 2] shell → exit=0'",
  'suggestions: []',
].join('\n');

/** The name of the first tool the request offers among these (CLIs rename their tools between versions). */
export function toolNamed(request: MockRequest, ...names: string[]): string {
  const found = names.find((name) => request.tools.some((t) => t.name === name));
  if (!found) throw new Error(`none of ${names.join(', ')} among the offered tools: ${request.tools.map((t) => t.name).join(', ')}`);
  return found;
}

/** What every live agent's run is checked for, gathered from its transcript, score.yaml and the mock's requests. */
export function twoTurnFacts(live: LiveAgentCase, result: LiveAgentRun) {
  const started = result.events.filter((e) => e.role === 'candidate.tool_call.started');
  const completed = result.events.filter((e) => e.role === 'candidate.tool_call.completed');
  const usage = (turn: number) => result.events.find((e) => e.turn === turn && e.role === 'system' && e.usage)?.usage;
  const turn2History = JSON.stringify(live.calls.find((c) => c.turn === 2)?.request.body ?? null);
  return {
    started: started.map((e) => ({ turn: e.turn, id: e.tool?.id, kind: e.tool?.kind })),
    completed: completed.map((e) => ({ turn: e.turn, id: e.tool?.id, kind: e.tool?.kind, exit_code: e.tool?.exit_code })),
    shellSummary: completed.find((e) => e.tool?.kind === 'shell')?.content,
    summaries: completed.map((e) => e.content),
    finals: [1, 2].map((turn) => result.events.find((e) => e.turn === turn && e.role === 'candidate')?.content),
    usage: [usage(1), usage(2)],
    expectedUsage: [live.usageOf(1), live.usageOf(2)],
    resumed: turn2History.includes(TURN1_PROMPT) && turn2History.includes(SKILL_CALL_ID),
    skill: result.workflowUsage.find((row) => row.item === 'skills/node-test'),
    // What the CLI sent back after the skill call: the placed SKILL.md's own text.
    skillBodySent: live.calls.some((c) => answered(c.request, SKILL_CALL_ID) && JSON.stringify(c.request.body).includes('Writing tests with node:test')),
  };
}

/**
 * What every agent with a skill tool and ids kept as the model sent them must show of the
 * two-turn case: the skill used in turn 1, a resumed shell command in turn 2, usage per turn.
 */
export async function expectSkillThenShell(live: LiveAgentCase): Promise<void> {
  const result = await live.run();
  expect(result.output, result.output).toMatch(/skill-then-shell\s+completed\s+pass/);
  expect(result.exitCode).toBe(0);
  const facts = twoTurnFacts(live, result);
  expect(facts.started).toEqual([
    { turn: 1, id: SKILL_CALL_ID, kind: 'skill' },
    { turn: 2, id: SHELL_CALL_ID, kind: 'shell' },
  ]);
  expect(facts.completed).toEqual([
    { turn: 1, id: SKILL_CALL_ID, kind: 'skill', exit_code: undefined },
    { turn: 2, id: SHELL_CALL_ID, kind: 'shell', exit_code: 0 },
  ]);
  expect(facts.shellSummary).toMatch(/^shell: echo hello-from-agent > hello.txt && cat hello.txt → exit=0/);
  expectTurnsEndedResumedWithSkill(facts);
}

/** What every live agent shows of the two-turn case whatever its tool names: both turns' replies, the resumed session, usage per turn, the skill used in turn 1. */
export function expectTurnsEndedResumedWithSkill(facts: ReturnType<typeof twoTurnFacts>): void {
  expect(facts.finals).toEqual(['Turn 1 done: the skill asks for node:test.', 'Turn 2 done.']);
  expect(facts.resumed).toBe(true);
  expect(facts.usage).toEqual(facts.expectedUsage.map((u) => expect.objectContaining(u)));
  expect(facts.skill).toMatchObject({ loaded: 'yes', invoked: 'yes', first_turn: 1 });
  expect(facts.skillBodySent).toBe(true);
  expect(facts.skill?.evidence).toMatch(/^\[Turn 1\] skill: node-test/);
}
