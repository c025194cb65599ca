import path from 'node:path';
import { exampleKey } from '../../editprediction/format/exampleKey.js';
import { readExamples } from '../../editprediction/format/readExamples.js';
import { PROVIDER_NAMES } from '../../editprediction/predict/providerNames.js';
import { resumeOutput } from '../../editprediction/report/resumeOutput.js';
import { selectExamples } from '../../editprediction/selection.js';
import type { Example } from '../../editprediction/format/schema.js';
import { ConfigError } from '../../errors.js';
import { FAILED_MODES, SUBCOMMANDS, type EpOptions, type FailedMode, type Subcommand } from './options.js';
import { writeExamples } from './output.js';
import type { CommandIo } from '../../cli/io.js';

/**
 * `evalflow ep read|predict|score|eval INPUTS...`, mirroring the subcommands of Zed's `ep` CLI:
 * read and select the examples, skip those a previous `-o` run finished, then (except for
 * `read`) run them as one durable edit-prediction batch (batch.ts, loaded only then, so
 * `read` starts without Temporal, the store or a model client) and write the examples, the
 * report (`eval`) and the summary JSON. Exit 1 when an example failed.
 */
export async function run(options: EpOptions, io: CommandIo): Promise<number> {
  const subcommand = checkSubcommand(options.subcommand);
  const failedMode = checkFlags(options, subcommand);
  const inputs = options.inputs ?? [];
  const examples = await readExamples(inputs, { cwd: io.cwd, ...(inputs.includes('-') ? { stdin: options.stdin ?? process.stdin } : {}) });
  let todo = dedupe(selectExamples(examples, { ...optional('offset', options.offset), ...optional('name', options.name), ...optional('repo', options.repo) }), io);

  const output = options.output === undefined ? undefined : path.resolve(io.cwd, options.output);
  if (output && !options.markdown && !options.inPlace) {
    const done = await resumeOutput(output, new Set(todo.map(exampleKey)));
    if (done.size > 0) io.err(`Resuming: ${done.size}/${todo.length} examples already processed`);
    todo = todo.filter((example) => !done.has(exampleKey(example)));
  }
  if (options.limit !== undefined) todo = todo.slice(0, options.limit);

  if (subcommand === 'read') {
    await writeExamples(todo, options, output, io);
    return 0;
  }
  if (todo.length === 0) {
    io.err(`nothing to ${subcommand}: no example is left after the filters${output ? ` and those already in ${options.output}` : ''}`);
    return 0;
  }
  const { runEpBatch } = await import('./batch.js');
  return runEpBatch({ subcommand, todo, failedMode, output, options, io });
}

/** Only the first of examples with the same key runs (they would share store rows). */
function dedupe(examples: Example[], io: CommandIo): Example[] {
  const first = new Map<string, string>();
  return examples.filter((example) => {
    const key = exampleKey(example);
    const seen = first.get(key);
    if (seen !== undefined) {
      io.err(`skipping ${example.name}: the same example as ${seen}`);
      return false;
    }
    first.set(key, example.name);
    return true;
  });
}

function checkSubcommand(name: string): Subcommand {
  if ((SUBCOMMANDS as readonly string[]).includes(name)) return name as Subcommand;
  throw new ConfigError(`ep: unknown subcommand ${JSON.stringify(name)}; expected one of ${SUBCOMMANDS.join(', ')}`);
}

/** Flag combinations Zed's `ep` refuses, refused the same way before anything runs. */
function checkFlags(options: EpOptions, subcommand: Subcommand): FailedMode {
  const inputs = options.inputs ?? [];
  if (inputs.length === 0) throw new ConfigError(`ep ${subcommand}: expected at least one input (.md, .json, .jsonl, or - for JSONL on stdin)`);
  if (options.inPlace && (inputs.length !== 1 || inputs[0] === '-')) {
    throw new ConfigError(`--in-place: expected exactly one input file, found ${inputs.length === 1 ? 'standard input (-)' : `${inputs.length} inputs`}`);
  }
  if (options.inPlace && options.output !== undefined) throw new ConfigError('--in-place rewrites its input; it cannot be combined with -o');
  if (options.markdown && options.output === undefined) throw new ConfigError('--markdown writes one .md file per example into the -o directory; give -o DIR');
  if (options.markdown && options.inPlace) throw new ConfigError('--markdown writes into the -o directory; it cannot be combined with --in-place');
  if (options.provider !== undefined && !(PROVIDER_NAMES as readonly string[]).includes(options.provider)) {
    throw new ConfigError(`--provider: unknown provider ${JSON.stringify(options.provider)}; expected one of ${PROVIDER_NAMES.join(', ')}`);
  }
  if (options.beta !== undefined && !(options.beta > 0)) throw new ConfigError(`--beta: expected a positive number, found ${options.beta}`);
  const failed = options.failed ?? 'keep';
  if (!(FAILED_MODES as readonly string[]).includes(failed)) throw new ConfigError(`--failed: expected one of ${FAILED_MODES.join(', ')}, found ${JSON.stringify(failed)}`);
  return failed as FailedMode;
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
