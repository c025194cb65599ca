import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TranscriptEventSchema } from '../../src/transcript/schema.js';
import { normaliseTurns, usageFor } from './usageFixture.js';

const RESULT = { type: 'result', subtype: 'success', is_error: false, result: 'done', usage: { input_tokens: 1, output_tokens: 1 } };

/** Claude stream-json: one tool call and its result, then the terminal result. */
function claudeCall(name: string, input: Record<string, unknown>, output = 'ok', isError = false): unknown[] {
  return [
    { type: 'assistant', message: { content: [{ type: 'tool_use', id: `call-${name}`, name, input }] } },
    { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: `call-${name}`, content: output, is_error: isError }] } },
    RESULT,
  ];
}

describe('detectWorkflowUsage: Claude Code', () => {
  it('a Skill tool call invokes the skill, with its turn and event', async () => {
    const usage = await usageFor('claude-code', (cwd) =>
      normaliseTurns('claude-code', [{ message: 'Add a helper', lines: [RESULT] }, { message: 'And its tests', lines: claudeCall('Skill', { skill: 'node-test' }) }], cwd),
    );
    expect(usage['skills/node-test']).toEqual({
      item: 'skills/node-test',
      kind: 'skill',
      name: 'node-test',
      loaded: 'yes',
      invoked: 'yes',
      first_turn: 2,
      evidence: '[Turn 2] skill: node-test → ok',
    });
    expect(usage['agents/reviewer']).toMatchObject({ loaded: 'no', invoked: 'no', first_turn: null, evidence: null });
  });

  it('a Skill call the agent refused (or that failed) invokes nothing', async () => {
    const usage = await usageFor('claude-code', (cwd) =>
      normaliseTurns('claude-code', [{ message: 'x', lines: claudeCall('Skill', { skill: 'node-test' }, 'Claude requested permissions to use Skill, but you have not granted it yet.', true) }], cwd),
    );
    expect(usage['skills/node-test']).toMatchObject({ loaded: 'no', invoked: 'no', first_turn: null });
  });

  it('a read of SKILL.md loads the skill but does not invoke it (Claude Code has a Skill tool)', async () => {
    const usage = await usageFor('claude-code', (cwd) =>
      normaliseTurns('claude-code', [{ message: 'Add a helper', lines: claudeCall('Read', { file_path: join(cwd, '.claude/skills/node-test/SKILL.md') }) }], cwd),
    );
    expect(usage['skills/node-test']).toMatchObject({ loaded: 'yes', invoked: 'no', first_turn: 1, evidence: '[Turn 1] read: .claude/skills/node-test/SKILL.md (1 lines)' });
  });

  it('a slash command in the user message invokes the command', async () => {
    const usage = await usageFor('claude-code', (cwd) => normaliseTurns('claude-code', [{ message: '/fix-bug the slug has double dashes', lines: [RESULT] }], cwd));
    expect(usage['commands/fix-bug']).toMatchObject({ loaded: 'yes', invoked: 'yes', first_turn: 1, evidence: '[Turn 1] user: /fix-bug the slug has double dashes' });
    expect(usage['commands/add-helper']).toMatchObject({ loaded: 'no', invoked: 'no' });
  });

  it('a Task call naming the subagent invokes it', async () => {
    const usage = await usageFor('claude-code', (cwd) =>
      normaliseTurns('claude-code', [{ message: 'Review it', lines: claudeCall('Task', { subagent_type: 'reviewer', description: 'Review the diff', prompt: 'Review' }) }], cwd),
    );
    expect(usage['agents/reviewer']).toMatchObject({ loaded: 'yes', invoked: 'yes', first_turn: 1, evidence: '[Turn 1] task: Review the diff → ok' });
  });

  it('rules loaded silently are unknown, never "not used"; a rule read shows it loaded', async () => {
    const usage = await usageFor('claude-code', (cwd) => normaliseTurns('claude-code', [{ message: 'Add a helper', lines: claudeCall('Read', { file_path: '.claude/rules/testing.md' }) }], cwd));
    expect(usage['rules/javascript-style']).toEqual({
      item: 'rules/javascript-style',
      kind: 'rule',
      name: 'javascript-style',
      loaded: 'unknown',
      invoked: 'unknown',
      first_turn: null,
      evidence: 'rules in .claude/rules are loaded without an event',
    });
    expect(usage['rules/testing']).toMatchObject({ loaded: 'yes', invoked: 'unknown', first_turn: 1 });
  });

  it('a shell command reading a file of the skill through the snapshot path loads it', async () => {
    const usage = await usageFor('claude-code', (cwd) =>
      normaliseTurns('claude-code', [{ message: 'Add a helper', lines: claudeCall('Bash', { command: 'cat .claude/skills/node-test/SKILL.md | head' }) }], cwd),
    );
    expect(usage['skills/node-test']).toMatchObject({ loaded: 'yes', invoked: 'no', first_turn: 1 });
  });

  it('a path that only starts like an item (node-test-extra) is not that item', async () => {
    const usage = await usageFor('claude-code', (cwd) =>
      normaliseTurns('claude-code', [{ message: 'x', lines: claudeCall('Bash', { command: 'ls .claude/skills/node-test-extra/ .claude/agents/reviewer.md.bak' }) }], cwd),
    );
    expect(usage['skills/node-test']).toMatchObject({ loaded: 'no' });
    expect(usage['agents/reviewer']).toMatchObject({ loaded: 'no' });
  });
});

describe('detectWorkflowUsage: the other agents', () => {
  it('Qwen Code: its skill tool and its task tool', async () => {
    const usage = await usageFor('qwen-code', (cwd) =>
      normaliseTurns('qwen-code', [{ message: 'x', lines: [...claudeCall('skill', { skill: 'node-test' }).slice(0, 2), ...claudeCall('task', { subagent_type: 'reviewer', description: 'review' })] }], cwd),
    );
    expect(usage['skills/node-test']).toMatchObject({ invoked: 'yes', evidence: '[Turn 1] skill: node-test → ok' });
    expect(usage['agents/reviewer']).toMatchObject({ invoked: 'yes' });
    // Qwen Code has no rules folder: rules are inlined into QWEN.md, so nothing can be said.
    expect(usage['rules/testing']).toMatchObject({ loaded: 'unknown', invoked: 'unknown', evidence: "inlined into QWEN.md: in the agent's context without an event" });
  });

  it('CodeBuddy: the Skill tool, as Claude Code', async () => {
    const usage = await usageFor('codebuddy', (cwd) => normaliseTurns('codebuddy', [{ message: 'x', lines: claudeCall('Skill', { skill: 'node-test' }) }], cwd));
    expect(usage['skills/node-test']).toMatchObject({ loaded: 'yes', invoked: 'yes', first_turn: 1 });
  });

  it('Gemini CLI 0.61: a subagent called through invoke_agent', async () => {
    const lines = [
      { type: 'init', session_id: 's', model: 'm' },
      { type: 'tool_use', tool_name: 'invoke_agent', tool_id: 'g1', parameters: { agent_name: 'reviewer', prompt: 'review the diff' } },
      { type: 'tool_result', tool_id: 'g1', status: 'success', output: 'looks good' },
      { type: 'result', status: 'success', stats: { total_tokens: 2, input_tokens: 1, output_tokens: 1 } },
    ];
    const usage = await usageFor('gemini', (cwd) => normaliseTurns('gemini', [{ message: 'x', lines }], cwd));
    expect(usage['agents/reviewer']).toMatchObject({ invoked: 'yes', first_turn: 1 });
  });

  it("Gemini CLI: activate_skill, and a subagent called as the tool of its name", async () => {
    const lines = [
      { type: 'init', session_id: 's', model: 'm' },
      { type: 'tool_use', tool_name: 'activate_skill', tool_id: 'g1', parameters: { name: 'node-test' } },
      { type: 'tool_result', tool_id: 'g1', status: 'success', output: 'skill body' },
      { type: 'tool_use', tool_name: 'reviewer', tool_id: 'g2', parameters: { query: 'review the diff' } },
      { type: 'tool_result', tool_id: 'g2', status: 'success', output: 'looks good' },
      { type: 'message', role: 'assistant', content: 'done', delta: true },
      { type: 'result', status: 'success', stats: { total_tokens: 2, input_tokens: 1, output_tokens: 1 } },
    ];
    const usage = await usageFor('gemini', (cwd) => normaliseTurns('gemini', [{ message: 'x' }, { message: 'y' }].map((turn, i) => ({ ...turn, lines: i === 1 ? lines : [lines[0], lines.at(-1)] })), cwd));
    expect(usage['skills/node-test']).toMatchObject({ loaded: 'yes', invoked: 'yes', first_turn: 2, evidence: '[Turn 2] skill: node-test → skill body' });
    expect(usage['agents/reviewer']).toMatchObject({ invoked: 'yes', first_turn: 2 });
    // Gemini's commands are TOML: the Markdown commands are inlined into GEMINI.md.
    expect(usage['commands/fix-bug']).toMatchObject({ loaded: 'unknown', invoked: 'unknown' });
  });

  it('opencode: its skill tool', async () => {
    const lines = [
      { type: 'tool_use', sessionID: 'ses_1', part: { tool: 'skill', callID: 'o1', state: { status: 'completed', input: { name: 'node-test' }, output: 'skill body', time: { start: 1, end: 2 } } } },
      { type: 'text', sessionID: 'ses_1', part: { text: 'done' } },
      { type: 'step_finish', sessionID: 'ses_1', part: { reason: 'stop', tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } } } },
    ];
    const usage = await usageFor('opencode', (cwd) => normaliseTurns('opencode', [{ message: 'x', lines }], cwd));
    expect(usage['skills/node-test']).toMatchObject({ loaded: 'yes', invoked: 'yes', first_turn: 1 });
  });

  it('Codex: reading SKILL.md from .agents/skills is how it uses a skill', async () => {
    const command = "/bin/bash -lc 'sed -n 1,80p .agents/skills/node-test/SKILL.md'";
    const lines = [
      { type: 'thread.started', thread_id: 't' },
      { type: 'item.started', item: { id: 'i1', type: 'command_execution', command, aggregated_output: '', exit_code: null, status: 'in_progress' } },
      { type: 'item.completed', item: { id: 'i1', type: 'command_execution', command, aggregated_output: '# Writing tests', exit_code: 0, status: 'completed' } },
      { type: 'item.completed', item: { id: 'i2', type: 'agent_message', text: 'done' } },
      { type: 'turn.completed', usage: { input_tokens: 1, output_tokens: 1 } },
    ];
    const usage = await usageFor('codex', (cwd) => normaliseTurns('codex', [{ message: 'x', lines }], cwd));
    expect(usage['skills/node-test']).toMatchObject({ loaded: 'yes', invoked: 'yes', first_turn: 1, evidence: '[Turn 1] shell: sed -n 1,80p .agents/skills/node-test/SKILL.md → exit=0 · out: # Writing tests' });
    // Codex has no subagents or commands of its own: inlined into AGENTS.md.
    expect(usage['agents/reviewer']).toMatchObject({ loaded: 'unknown', invoked: 'unknown', evidence: "inlined into AGENTS.md: in the agent's context without an event" });
  });
});

describe('detectWorkflowUsage: the captured real streams', () => {
  const FIXTURES = join(import.meta.dirname, '../fixtures/agent-streams');
  const ADAPTERS = { claude: 'claude-code', codebuddy: 'codebuddy', qwen: 'qwen-code', codex: 'codex', gemini: 'gemini', opencode: 'opencode' } as const;

  it('find no use of the workflow where none happened: skills, commands and subagents "no", rules never "no"', async () => {
    const files = (await readdir(FIXTURES)).filter((file) => file.endsWith('.expected.jsonl'));
    expect(files).toHaveLength(15);
    for (const file of files) {
      const adapter = ADAPTERS[file.split('-')[0] as keyof typeof ADAPTERS];
      const events = (await readFile(join(FIXTURES, file), 'utf8')).trim().split('\n').map((line) => TranscriptEventSchema.parse(JSON.parse(line)));
      expect(events.some((event) => event.tool?.kind === 'shell')).toBe(true);
      const usage = Object.values(await usageFor(adapter, () => events));
      expect(usage).toHaveLength(6);
      for (const row of usage) {
        expect(row.loaded, `${file} ${row.item}`).not.toBe('yes');
        expect(row.invoked, `${file} ${row.item}`).not.toBe('yes');
        if (row.kind === 'rule') expect(row.loaded, `${file} ${row.item}`).toBe('unknown');
      }
      const skill = usage.find((row) => row.item === 'skills/node-test')!;
      expect(skill, file).toMatchObject({ loaded: 'no', invoked: 'no', first_turn: null });
    }
  });
});
