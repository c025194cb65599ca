import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { memoryIo } from '../../src/cli/io.js';
import { run } from '../../src/commands/run.js';
import { anthropicMessagesDialect } from '../../src/llm/mock/anthropicMessages.js';
import { startMockServer, type MockServer } from '../../src/llm/mock/server.js';
import type { MockReply, MockRequest } from '../../src/llm/mock/types.js';
import type { TranscriptEvent } from '../../src/transcript/schema.js';
import { installedAgent } from '../support/liveAgent.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

const REPO = resolve(import.meta.dirname, '../..');
const CLAUDE = installedAgent('claude-code');

/** The user text messages of an Anthropic conversation, i.e. which dialogue turn this call serves. */
const userTurns = (request: MockRequest) => request.messages.filter((m) => m.role === 'user' && m.content.trim() !== '').length;

/**
 * The fake Anthropic model behind the real Claude Code CLI: turn 1 runs a shell command that
 * writes a file, turn 2 writes a file with the Write tool; after a tool result it answers.
 * Calls without tools (Claude Code's own side requests) get a plain "ok".
 */
function claudeModel(request: MockRequest): MockReply {
  const usage = { input_tokens: 120, output_tokens: 30 };
  if (!request.tools.some((t) => t.name === 'Bash')) return { text: 'ok', usage: { input_tokens: 5, output_tokens: 1 } };
  // The skill cases: call the Skill tool once, then answer.
  if (request.messages.some((m) => m.role === 'user' && m.content.includes('use the team skill for tests'))) {
    if (JSON.stringify(request.body).includes('toolu_skill')) return { text: 'Used the node-test skill.', usage };
    return { text: 'Using the team skill.', toolCalls: [{ id: 'toolu_skill', name: 'Skill', arguments: { skill: 'node-test' } }], usage };
  }
  const last = request.messages.at(-1);
  const turn = userTurns(request);
  if (last?.role === 'tool') return { text: `Turn ${turn} done.`, usage };
  if (turn === 1) {
    return {
      reasoning: 'I will create the file with a shell command.',
      text: 'Creating the file.',
      toolCalls: [{ id: 'toolu_turn1', name: 'Bash', arguments: { command: 'echo hello-from-claude > hello.txt && cat hello.txt', description: 'write hello.txt' } }],
      usage,
    };
  }
  return {
    text: 'Writing the notes.',
    toolCalls: [{ id: 'toolu_turn2', name: 'Write', arguments: { file_path: join(request.headers['x-sandbox'] as string ?? '', 'notes.md'), content: '# Notes\n\nhello.txt says hello.\n' } }],
    usage,
  };
}

describe('a real agent CLI (Claude Code) under evalflow run', () => {
  let temporal: TestTemporal;
  let mock: MockServer;
  let root: string;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    mock = await startMockServer({
      dialects: [anthropicMessagesDialect],
      script: (request) => {
        if (request.dialect === 'anthropic-messages' && request.model === 'claude-examiner') {
          // Claude Code serving the examiner in text-only mode: one rendered prompt, no tools.
          const prompt = request.messages.map((m) => m.content).join('\n');
          return { text: prompt.includes('Turn 2 done.') ? '<<END>>' : 'Thanks. Now also write notes.md saying what hello.txt contains.' };
        }
        if (request.dialect === 'anthropic-messages') return claudeModel(request);
        if (request.model === 'e2e-examiner') {
          return { text: userTurns(request) === 1 ? 'Thanks. Now also write notes.md saying what hello.txt contains.' : '<<END>>' };
        }
        return {
          text: [
            "reasoning: 'Turn 1 ran a shell command that wrote hello.txt (exit 0); turn 2 wrote notes.md.'",
            'result: pass',
            'compliance: 5',
            'execution_quality: 4',
            'overall: 4.5',
            "summary: 'Both files written.'",
            'hard_requirements:',
            "  - item: 'hello.txt says hello'",
            '    met: true',
            "    evidence: '[Turn 1] shell → exit=0'",
            "  - item: 'notes.md exists'",
            '    met: true',
            "    evidence: '[Turn 2] write: notes.md'",
            'suggestions: []',
          ].join('\n'),
        };
      },
    });
    root = await mkdtemp(join(tmpdir(), 'evalflow-claude-'));
    await cp(join(REPO, 'examples/project'), join(root, 'project'), { recursive: true });
    await cp(join(REPO, 'examples/workflow'), join(root, 'workflow'), { recursive: true });
    const caseDir = join(root, 'eval_sets', 'two-files');
    await mkdir(caseDir, { recursive: true });
    await writeFile(join(caseDir, 'meta.yaml'), 'id: two-files\nversion: v1\ntarget_workflow: add-helper\ncategory: e2e\npurpose: A real agent CLI runs two turns.\nmax_turns: 3\n');
    await writeFile(join(caseDir, 'task.md'), '## Prompt\n\n> Please write hello.txt containing hello-from-claude.\n\n## Scenario\n\nYou want two files.\n\n## Guidance\n\nIn turn 2 ask for notes.md; then end.\n');
    await writeFile(join(caseDir, 'rubric.md'), '## Hard requirements\n\n- hello.txt says hello\n- notes.md exists\n\n## Quality\n\n## Common failures\n');
    await writeFile(
      join(caseDir, 'env.yaml'),
      'postconditions:\n  - description: hello.txt was written by a shell command\n    check: grep -qx hello-from-claude "${SANDBOX_DIR}/hello.txt"\n    severity: hard\n  - description: notes.md was written\n    check: grep -q "hello.txt says hello" "${SANDBOX_DIR}/notes.md"\n    severity: hard\n',
    );
    await writeFile(
      join(root, 'evalflow.config.yaml'),
      [
        'project: project',
        'workflow_dir: workflow',
        'candidates:',
        '  claude:',
        '    adapter: claude-code',
        '    model: claude-e2e',
        `    base_url: ${mock.origin}`,
        '    api_key_env: E2E_ANTHROPIC_KEY',
        `    executable: ${CLAUDE}`,
        '    turn_timeout_s: 120',
        'examiner:',
        '  model: e2e-examiner',
        `  base_url: ${mock.url}`,
        'judge:',
        '  model: e2e-judge',
        `  base_url: ${mock.url}`,
        '',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await mock?.close();
    await temporal?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('drives two turns in a loopback-only namespace and records a normalised transcript', async () => {
    const io = memoryIo(root, hostEnv());
    const code = await run({ candidate: 'claude' }, io);
    const runDir = /(runs\/run-two-files-claude@\S+)/.exec(io.stdout.join('\n'))?.[1];
    expect(io.stdout.join('\n') + io.stderr.join('\n')).toMatch(/two-files\s+completed\s+pass/);
    expect(code).toBe(0);

    const events = (await readFile(join(root, runDir!, 'transcript.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as TranscriptEvent);
    const byTurn = (turn: number) => events.filter((e) => e.turn === turn);
    // Paired tool events with exit codes.
    const started = events.filter((e) => e.role === 'candidate.tool_call.started');
    const completed = events.filter((e) => e.role === 'candidate.tool_call.completed');
    expect(started.map((e) => e.tool?.id)).toEqual(['toolu_turn1', 'toolu_turn2']);
    expect(completed.map((e) => e.tool?.id)).toEqual(['toolu_turn1', 'toolu_turn2']);
    expect(completed[0]).toMatchObject({ turn: 1, tool: { kind: 'shell', exit_code: 0 } });
    expect(completed[0]!.content).toMatch(/^shell: echo hello-from-claude > hello.txt && cat hello.txt → exit=0/);
    expect(completed[1]).toMatchObject({ turn: 2, tool: { kind: 'write' } });
    expect(byTurn(1).some((e) => e.role === 'candidate.thinking' && e.content.includes('create the file'))).toBe(true);
    expect(byTurn(1).find((e) => e.role === 'candidate')?.content).toBe('Turn 1 done.');
    expect(byTurn(2).find((e) => e.role === 'candidate')?.content).toBe('Turn 2 done.');
    // Usage per turn: per invocation, not cumulative across the resumed session.
    const usage = (turn: number) => byTurn(turn).find((e) => e.role === 'system' && e.usage)?.usage;
    // Each model call of a turn was answered with 120 input / 30 output tokens.
    const calls = (turn: number) => mock.requests.filter((r) => r.dialect === 'anthropic-messages' && r.model === 'claude-e2e' && userTurns(r) === turn).length;
    expect(calls(1)).toBe(2);
    expect(calls(2)).toBe(2);
    expect(usage(1)).toMatchObject({ input_tokens: 120 * calls(1), output_tokens: 30 * calls(1) });
    expect(usage(2)).toMatchObject({ input_tokens: 120 * calls(2), output_tokens: 30 * calls(2) });
    // Turn 2 resumed the same session: the model saw turn 1's prompt and tool call again.
    const turn2Calls = mock.requests.filter((r) => r.dialect === 'anthropic-messages' && userTurns(r) === 2);
    expect(turn2Calls.length).toBeGreaterThan(0);
    const history = JSON.stringify(turn2Calls[0]!.body);
    expect(history).toContain('Please write hello.txt containing hello-from-claude.');
    expect(history).toContain('toolu_turn1');
    // The judge received the tool events.
    const judgePrompt = mock.requests.filter((r) => r.model === 'e2e-judge').at(-1)!.messages.map((m) => m.content).join('\n');
    expect(judgePrompt).toContain('shell: echo hello-from-claude > hello.txt && cat hello.txt → exit=0');
    expect(judgePrompt).toMatch(/write: .*notes\.md/);
    // The key never reached the run's files.
    expect(await readFile(join(root, runDir!, 'env_checklist.yaml'), 'utf8')).toMatch(/^isolation: sandbox$/m);
    for (const file of ['transcript.jsonl', 'config.yaml', 'env_checklist.yaml', 'review.md', 'score.yaml']) {
      expect(await readFile(join(root, runDir!, file), 'utf8')).not.toContain('sk-ant-e2e-secret-000111');
    }
  }, 240_000);

  it('lets an agent CLI serve the examiner in text-only mode', async () => {
    await writeFile(
      join(root, 'textonly.config.yaml'),
      (await readFile(join(root, 'evalflow.config.yaml'), 'utf8')).replace(
        /examiner:\n {2}model: e2e-examiner\n {2}base_url: \S+\n/,
        `examiner:\n  model: claude-examiner\n  adapter: claude-code\n  base_url: ${mock.origin}\n  api_key_env: E2E_ANTHROPIC_KEY\n  executable: ${CLAUDE}\n`,
      ),
    );
    const before = mock.requests.length;
    const io = memoryIo(root, hostEnv());
    const code = await run({ candidate: 'claude', config: 'textonly.config.yaml' }, io);
    expect(io.stdout.join('\n')).toMatch(/two-files\s+completed\s+pass/);
    expect(code).toBe(0);
    const examinerCalls = mock.requests.slice(before).filter((r) => r.model === 'claude-examiner');
    // Turn 2's message and the <<END>> of turn 3, each one text-only Claude Code call without tools.
    expect(examinerCalls.length).toBeGreaterThanOrEqual(2);
    expect(examinerCalls.every((r) => r.tools.length === 0)).toBe(true);
    const runDir = /(runs\/run-two-files-claude@\S+)/.exec(io.stdout.join('\n'))![1]!;
    const transcript = await readFile(join(root, runDir, 'transcript.jsonl'), 'utf8');
    expect(transcript).toContain('Now also write notes.md');
  }, 240_000);

  it('records the Skill call of the real CLI as workflow usage with its turn, and fails a case that expects another skill', async () => {
    // The example workflow plus a second skill, so a case can expect the one that is not used.
    const workflow = join(root, 'skill-workflow');
    await cp(join(REPO, 'examples/workflow'), workflow, { recursive: true });
    await mkdir(join(workflow, 'skills/release-notes'), { recursive: true });
    await writeFile(join(workflow, 'skills/release-notes/SKILL.md'), '---\nname: release-notes\ndescription: Write release notes. Use when preparing a release.\n---\n\nList the changes since the last tag.\n');
    const skillCase = async (id: string, expectation: string) => {
      const dir = join(root, 'skill_sets', id);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'meta.yaml'), `id: ${id}\nversion: v1\ntarget_workflow: node-test\ncategory: e2e\npurpose: The real CLI invokes a skill.\nmax_turns: 2\nexpect_workflow:\n  must_use: [${expectation}]\n`);
      await writeFile(join(dir, 'task.md'), '## Prompt\n\n> Please add a test for wordCount and use the team skill for tests.\n\n## Scenario\n\nYou want a test.\n\n## Guidance\n\nEnd after the first answer.\n');
      await writeFile(join(dir, 'rubric.md'), '## Hard requirements\n\n- hello.txt says hello\n- notes.md exists\n\n## Quality\n\n## Common failures\n');
      await writeFile(join(dir, 'env.yaml'), 'postconditions: []\n');
    };
    await skillCase('skill-fires', 'skills/node-test');
    await skillCase('other-skill', 'skills/release-notes');
    const io = memoryIo(root, hostEnv());
    const code = await run({ candidate: 'claude', paths: ['skill_sets'], workflowDir: 'skill-workflow' }, io);
    const out = io.stdout.join('\n') + io.stderr.join('\n');
    expect(out).toMatch(/skill-fires\s+completed\s+pass/);
    expect(out).toMatch(/other-skill\s+completed\s+fail/);
    // Both runs completed (a fail is a verdict, not an error); only a gate turns it into an exit code.
    expect(code).toBe(0);
    const score = async (id: string) => {
      const runDir = new RegExp(`(runs/run-${id}-claude@\\S+)`).exec(io.stdout.join('\n'))![1]!;
      return parseYaml(await readFile(join(root, runDir, 'score.yaml'), 'utf8')) as {
        result: string;
        forced_fail_reason?: string;
        hard_requirements: { item: string; met: boolean | null; evidence: string }[];
        workflow_usage: { item: string; loaded: string; invoked: string; first_turn: number | null; evidence: string | null }[];
      };
    };
    // The model called Skill(node-test) in turn 1; Claude Code ran it (the skill is placed in .claude/skills).
    const fired = await score('skill-fires');
    expect(fired.workflow_usage.find((row) => row.item === 'skills/node-test')).toMatchObject({ loaded: 'yes', invoked: 'yes', first_turn: 1 });
    expect(fired.workflow_usage.find((row) => row.item === 'skills/node-test')!.evidence).toMatch(/^\[Turn 1\] skill: node-test → /);
    expect(fired.workflow_usage.find((row) => row.item === 'skills/release-notes')).toMatchObject({ loaded: 'no', invoked: 'no', first_turn: null });
    expect(fired.workflow_usage.find((row) => row.item === 'rules/testing')).toMatchObject({ loaded: 'unknown' });
    expect(fired.hard_requirements.at(-1)).toMatchObject({ item: 'uses skills/node-test (expect_workflow.must_use)', met: true });
    const other = await score('other-skill');
    expect(other.result).toBe('fail');
    expect(other.hard_requirements.at(-1)).toEqual({ item: 'uses skills/release-notes (expect_workflow.must_use)', met: false, assessed: true, evidence: 'skills/release-notes: loaded no, invoked no' });
    expect(other.forced_fail_reason).toBe('workflow expectation not met: uses skills/release-notes (expect_workflow.must_use)');
    // What Claude Code sent back after the Skill call: the skill's own text, read from the placed snapshot.
    const afterSkill = mock.requests.filter((r) => r.model === 'claude-e2e' && JSON.stringify(r.body).includes('toolu_skill')).at(-1)!;
    expect(JSON.stringify(afterSkill.body)).toContain('Writing tests with node:test');
  }, 240_000);

  function hostEnv(): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      OPENAI_API_KEY: 'sk-e2e',
      E2E_ANTHROPIC_KEY: 'sk-ant-e2e-secret-000111',
      EVALFLOW_HOME: join(root, '.evalflow'),
      EVALFLOW_SANDBOX_ROOT: join(root, 'sandboxes'),
      EVALFLOW_TEMPORAL_PORT: String(temporal.port),
      EVALFLOW_TEMPORAL_UI_PORT: String(temporal.uiPort),
      EVALFLOW_CANDIDATE_NETNS: 'loopback',
    };
  }
});
