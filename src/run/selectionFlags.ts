import { ARM_GRAMMAR } from './armChanges.js';

/**
 * How a selection flag's value is read; the CLI gives each its strict parser. `text` is kept as
 * written, `positiveInteger` is a whole number 1 or more, `repeated` collects every occurrence.
 */
export type SelectionValue = 'text' | 'positiveInteger' | 'repeated';

/**
 * What a batch runs, as `evalflow run` and `evalflow schedule create` take it: the one list the
 * CLI declares both commands' flags and help from, and `SelectionFlags` is typed from. `key` is
 * the option's name as commander gives it (the flag in camelCase). Import-free but for the arm
 * grammar, so `--help` loads nothing else.
 */
export const SELECTION_FLAGS = [
  { key: 'only', flag: '--only <ids>', value: 'text', help: 'comma-separated eval case ids to run' },
  { key: 'candidate', flag: '--candidate <name>', value: 'text', help: 'configured candidate or adapter name (default: builtin)' },
  { key: 'candidateModel', flag: '--candidate-model <model>', value: 'text', help: 'model for the candidate, overriding its config' },
  { key: 'project', flag: '--project <dir>', value: 'text', help: 'project under test (git repository or folder, or a git URL with an optional #ref)' },
  { key: 'workflowDir', flag: '--workflow-dir <dir>', value: 'text', help: 'folder with agents/ commands/ rules/ skills/ (or a git URL of a repository with them at its top)' },
  { key: 'runsDir', flag: '--runs-dir <dir>', value: 'text', help: 'where run directories go (default: runs)' },
  { key: 'runsPerCase', flag: '--runs-per-case <k>', value: 'positiveInteger', help: 'attempts per case (run ids get -1..-k)' },
  { key: 'parallelism', flag: '--parallelism <n>', value: 'positiveInteger', help: 'runs at the same time' },
  { key: 'changedOnly', flag: '--changed-only <rev>', value: 'text', help: 'only the cases a workflow change since REV can affect (expect_workflow or recorded usage); says what it skips' },
  { key: 'arm', flag: '--arm <name=spec>', value: 'repeated', help: `an A/B arm, twice or more: ${ARM_GRAMMAR}` },
] as const satisfies readonly { key: string; flag: string; value: SelectionValue; help: string }[];

type SelectionFlag = (typeof SELECTION_FLAGS)[number];
type ValueOf<V extends SelectionValue> = V extends 'positiveInteger' ? number : V extends 'repeated' ? string[] : string;

/**
 * The selection as the commands receive it: the bank folders (the commands' positional
 * arguments) and one optional field per entry of `SELECTION_FLAGS`.
 */
export type SelectionFlags = { paths?: string[] } & { [F in SelectionFlag as F['key']]?: ValueOf<F['value']> };
