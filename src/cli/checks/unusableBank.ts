import type { SelectedCases } from '../../run/selection.js';
import type { CommandIo } from '../io.js';

/**
 * Says why a command that starts runs cannot start them from the selected bank (its problems,
 * or no case at all) and returns true; false when it can.
 */
export function refuseUnusableBank({ paths, bank }: SelectedCases, io: CommandIo): boolean {
  if (bank.problems.length > 0) {
    for (const problem of bank.problems) io.err(`error: ${problem}`);
    io.err('nothing was run: fix the problems above (`evalflow validate` checks a bank without running it)');
    return true;
  }
  if (bank.cases.length === 0) {
    io.err(`error: no eval cases found under ${paths.join(', ')}`);
    return true;
  }
  return false;
}
