import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/errors.js';
import { firstMessage } from '../../src/examiner/index.js';

describe('firstMessage', () => {
  it('forwards the Prompt quote verbatim, whitespace and markdown included', () => {
    const prompt = '  Please rename `greet` to `hello`.\n\n- keep the tests green\n- 不要改动 go.mod  \n';
    expect(firstMessage(prompt)).toBe(prompt);
  });

  it('rejects an empty prompt with a message naming the section', () => {
    expect(() => firstMessage(' \n ')).toThrow(FormatError);
    expect(() => firstMessage('')).toThrow('task.md: Prompt: expected the Turn 1 quote (a `>` blockquote), found an empty prompt');
  });
});
