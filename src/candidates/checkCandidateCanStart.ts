import { tmpdir } from 'node:os';
import { isAbsolute } from 'node:path';
import { ConfigError } from '../errors.js';
import type { CandidateSpec } from './adapter.js';
import { executablesOf } from './agentCache.js';
import { buildCandidateEnv } from './candidateEnv.js';
import { cliSetupHint } from './cliCandidate.js';
import { COMMAND_HINT, commandLineOf } from './command.js';
import { getCandidateAdapter } from './registry.js';
import { findExecutable, whyCannotStart } from './sessionFiles.js';

/**
 * Refuse, before anything starts, a candidate whose program this machine cannot run: a CLI
 * adapter whose CLI is not installed (or whose `executable` is wrong), or a `command` whose
 * file is missing or not executable. Throws a ConfigError naming the candidate, what was
 * looked for and how to fix it; the same problem found later on a worker host is a
 * CandidateSetupError of the turn. `cwd` resolves relative commands (the project, which
 * each sandbox checks out); without it they are left to the turn.
 */
export async function checkCandidateCanStart(spec: CandidateSpec, hostEnv: NodeJS.ProcessEnv, options: { cwd?: string } = {}): Promise<void> {
  const entry = getCandidateAdapter(spec.adapter);
  if (spec.adapter === 'builtin') return;
  const who = `candidate "${spec.name}" (adapter ${spec.adapter}) cannot start`;
  const { PATH } = buildCandidateEnv({ hostEnv, homeDir: tmpdir(), adapterEnv: {}, spec });
  if (entry.cli && spec.executable === undefined) {
    if (await findExecutable(executablesOf(entry.cli, hostEnv), PATH)) return;
    const names = entry.cli.executables;
    const missing = names.length === 1 ? `${names[0]} is not on PATH` : `none of ${names.join(', ')} is on PATH`;
    throw new ConfigError(`${who}: ${missing}; ${cliSetupHint(entry.cli)}`);
  }
  const command = spec.executable ?? commandLineOf(spec)[0];
  if (!isAbsolute(command) && command.includes('/') && !options.cwd) return;
  const why = await whyCannotStart(command, PATH, options.cwd);
  if (why) throw new ConfigError(`${who}: ${why}; ${entry.cli ? cliSetupHint(entry.cli) : COMMAND_HINT}`);
}
