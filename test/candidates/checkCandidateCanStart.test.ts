import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CandidateSpec } from '../../src/candidates/adapter.js';
import { checkCandidateCanStart } from '../../src/candidates/checkCandidateCanStart.js';
import { ConfigError } from '../../src/errors.js';
import { writeTempFiles } from './tempFiles.js';

const spec = (fields: Partial<CandidateSpec> & Pick<CandidateSpec, 'adapter'>): CandidateSpec => ({ name: 'cand', args: [], env: {}, ...fields });

describe('checkCandidateCanStart', () => {
  it('refuses an agent CLI that is not installed, naming the candidate, the command looked for and the setup line', async () => {
    const empty = await writeTempFiles({});
    const check = checkCandidateCanStart(spec({ name: 'claude-sonnet', adapter: 'claude-code' }), { PATH: empty });
    await expect(check).rejects.toThrow(ConfigError);
    await expect(check).rejects.toThrow(
      'candidate "claude-sonnet" (adapter claude-code) cannot start: claude is not on PATH; install Claude Code with: npm install -g @anthropic-ai/claude-code (or set executable: to its path)',
    );
    await expect(checkCandidateCanStart(spec({ adapter: 'cursor-agent' }), { PATH: empty })).rejects.toThrow(
      'candidate "cand" (adapter cursor-agent) cannot start: none of cursor-agent, agent is on PATH; install Cursor Agent CLI with: curl https://cursor.com/install -fsS | bash (or set executable: to its path)',
    );
  });

  it('refuses an executable override or a command that does not exist, or is not executable', async () => {
    const root = await writeTempFiles({ 'agent.sh': '#!/bin/sh\n', 'notes.txt': 'not a program\n' });
    await expect(checkCandidateCanStart(spec({ adapter: 'codex', executable: '/nonexistent/codex' }), { PATH: root })).rejects.toThrow(
      'candidate "cand" (adapter codex) cannot start: /nonexistent/codex does not exist; install OpenAI Codex CLI with: npm install -g @openai/codex (or set executable: to its path)',
    );
    await expect(checkCandidateCanStart(spec({ name: 'fixer', adapter: 'command', args: ['/nonexistent/fix.sh', '--fast'] }), { PATH: root })).rejects.toThrow(
      'candidate "fixer" (adapter command) cannot start: /nonexistent/fix.sh does not exist; args[0] (or executable) must name an executable file',
    );
    const notes = join(root, 'notes.txt');
    await expect(checkCandidateCanStart(spec({ adapter: 'command', args: [notes] }), { PATH: root })).rejects.toThrow(
      `candidate "cand" (adapter command) cannot start: ${notes} is not executable (chmod +x ${notes}); args[0] (or executable) must name an executable file`,
    );
    await expect(checkCandidateCanStart(spec({ adapter: 'command', args: [] }), { PATH: root })).rejects.toThrow('adapter command needs the command to run');
  });

  it('finds a CLI that is not on PATH in the agents cache of scripts/agent-clis.sh', async () => {
    const root = await writeTempFiles({ 'cache/agents/qwen/node_modules/.bin/qwen': '#!/bin/sh\n' });
    await chmod(join(root, 'cache/agents/qwen/node_modules/.bin/qwen'), 0o755);
    await checkCandidateCanStart(spec({ adapter: 'qwen-code' }), { PATH: join(root, 'bin'), EVALFLOW_CACHE_DIR: join(root, 'cache') });
    await expect(checkCandidateCanStart(spec({ adapter: 'gemini' }), { PATH: join(root, 'bin'), EVALFLOW_CACHE_DIR: join(root, 'cache') })).rejects.toThrow('gemini is not on PATH');
  });

  it('lets through what can start: an installed CLI, a command on PATH or relative to the project, and builtin', async () => {
    const root = await writeTempFiles({ 'bin/claude': '#!/bin/sh\n', 'project/scripts/agent.sh': '#!/bin/sh\n' });
    await checkCandidateCanStart(spec({ adapter: 'claude-code' }), { PATH: join(root, 'bin') });
    await checkCandidateCanStart(spec({ adapter: 'claude-code', env: { PATH: join(root, 'bin') } }), { PATH: '/nonexistent' });
    await checkCandidateCanStart(spec({ adapter: 'command', args: ['sh', '-c', 'echo hi'] }), { PATH: process.env.PATH });
    await checkCandidateCanStart(spec({ adapter: 'command', args: ['scripts/agent.sh'] }), { PATH: '' }, { cwd: join(root, 'project') });
    await checkCandidateCanStart(spec({ adapter: 'builtin', model: 'm' }), { PATH: '' });
  });
});
