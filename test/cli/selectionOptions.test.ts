import { Command, type Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { DESCRIBE_ONLY } from '../../src/cliReference.js';
import { withSelection } from '../../src/cli/selectionOptions.js';
import { SELECTION_FLAGS } from '../../src/run/selectionFlags.js';

/** The declared program, without parsing argv (as scripts/cli-reference.ts reads it). */
async function declaredProgram(): Promise<Command> {
  (globalThis as Record<symbol, unknown>)[DESCRIBE_ONLY] = true;
  return (await import('../../src/client.js')).program;
}

function subcommand(parent: Command, name: string): Command {
  const found = parent.commands.find((c) => c.name() === name);
  if (!found) throw new Error(`no command ${name} under ${parent.name()}`);
  return found;
}

/** The selection options a command declares, as its help shows them. */
function selectionOptionsOf(command: Command): { flags: string; description: string; attribute: string }[] {
  const selection = new Set<string>(SELECTION_FLAGS.map((f) => f.flag));
  return command.options.filter((o: Option) => selection.has(o.flags)).map((o) => ({ flags: o.flags, description: o.description, attribute: o.attributeName() }));
}

describe('the selection flags', () => {
  it('are the same on `run` and `schedule create`: every entry of the one list, with its help', async () => {
    const program = await declaredProgram();
    const run = selectionOptionsOf(subcommand(program, 'run'));
    const create = selectionOptionsOf(subcommand(subcommand(program, 'schedule'), 'create'));
    const expected = SELECTION_FLAGS.map((f) => ({ flags: f.flag, description: f.help, attribute: f.key }));
    expect(run).toEqual(expected);
    expect(create).toEqual(expected);
  });

  it('give the commands the keys SelectionFlags names, each value read by its parser', () => {
    const command = withSelection(new Command('t').exitOverride().configureOutput({ writeErr: () => {} }));
    command.parse(['--only', 'a,b', '--runs-per-case', '3', '--arm', 'A=base', '--arm', 'B=model=m', '--workflow-dir', 'wf'], { from: 'user' });
    expect(command.opts()).toEqual({ only: 'a,b', runsPerCase: 3, arm: ['A=base', 'B=model=m'], workflowDir: 'wf' });
  });

  it('refuse a count that is not a positive whole number', () => {
    const command = withSelection(new Command('t').exitOverride().configureOutput({ writeErr: () => {} }));
    expect(() => command.parse(['--parallelism', '0'], { from: 'user' })).toThrow(/--parallelism <n>.*expected a whole number 1 or more, found '0'/);
  });
});
