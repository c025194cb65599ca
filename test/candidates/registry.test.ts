import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCandidateFactory, getCandidateAdapter, getCliAdapter, knownAdapterNames } from '../../src/candidates/index.js';
import { ConfigError } from '../../src/errors.js';
import { writeTempFiles } from './tempFiles.js';

const unusedLlm = () => ({ chat: () => Promise.reject(new Error('not used')) });

describe('candidate registry', () => {
  it('knows every adapter by its exact name', () => {
    expect([...knownAdapterNames].sort()).toEqual(['builtin', 'claude-code', 'codebuddy', 'codex', 'command', 'cursor-agent', 'gemini', 'opencode', 'qwen-code']);
    expect(getCliAdapter('qwen-code').executables).toEqual(['qwen']);
  });

  it('rejects an unknown name with a ConfigError that lists the known ones', () => {
    expect(() => getCandidateAdapter('claude')).toThrow(ConfigError);
    expect(() => getCandidateAdapter('claude')).toThrow(
      'unknown candidate adapter "claude"; known adapters: builtin, claude-code, codebuddy, codex, command, cursor-agent, gemini, opencode, qwen-code',
    );
    expect(() => getCliAdapter('command')).toThrow('adapter "command" is not an agent CLI; agent CLI adapters: claude-code, codebuddy, codex, cursor-agent, gemini, opencode, qwen-code');
  });

  it('gives the worker workflow placements, candidates and CLI versions', async () => {
    const root = await writeTempFiles({ 'bin/codex': '#!/bin/sh\necho "codex-cli 0.171.0"\n' });
    const factory = createCandidateFactory({ env: { PATH: join(root, 'bin') }, llmFor: unusedLlm });
    expect(factory.workflowSupport('claude-code').native).toEqual({ agents: '.claude/agents', commands: '.claude/commands', rules: '.claude/rules', skills: '.claude/skills' });
    expect(factory.workflowSupport('codex')).toMatchObject({ native: { skills: '.agents/skills' }, contextFile: 'AGENTS.md', skillReadInvokes: true });
    expect(await factory.version({ name: 'c', adapter: 'codex', args: [], env: {} })).toBe('codex-cli 0.171.0');
    expect(await factory.version({ name: 'g', adapter: 'gemini', args: [], env: {} })).toBeNull();
    expect(await factory.version({ name: 'b', adapter: 'builtin', args: [], env: {} })).toBeNull();
    expect(() => factory.create({ name: 'b', adapter: 'builtin', args: [], env: {} })).toThrow('candidate "b": adapter builtin needs a model');
    expect(typeof factory.create({ name: 'x', adapter: 'opencode', args: [], env: {} }).runTurn).toBe('function');
  });
});
