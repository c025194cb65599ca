import { Option, type Command } from 'commander';
import { SELECTION_FLAGS, type SelectionValue } from '../run/selectionFlags.js';
import { positiveInteger } from './flagValues.js';

/** A repeatable option's values, in order. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** The option one entry of `SELECTION_FLAGS` declares, with the strict parser of its value. */
function optionOf(flag: string, help: string, value: SelectionValue): Option {
  const option = new Option(flag, help);
  if (value === 'positiveInteger') return option.argParser(positiveInteger);
  if (value === 'repeated') return option.argParser(collect).default([]);
  return option;
}

/** What a batch runs, for `run` and for a schedule's batches alike, declared from the one list. */
export function withSelection(command: Command): Command {
  for (const { flag, help, value } of SELECTION_FLAGS) command.addOption(optionOf(flag, help, value));
  return command;
}
