import type { CliAdapter } from './adapter.js';
import { executablesOf } from './agentCache.js';
import { CANDIDATE_ADAPTER_NAMES, getCandidateAdapter } from './registry.js';
import { findExecutable } from './sessionFiles.js';

export interface InstalledCli {
  adapter: string;
  cli: CliAdapter;
  /** Where its executable is (on PATH or in the agents cache); undefined when not installed. */
  path: string | undefined;
}

/** Every agent CLI adapter and where its CLI is installed on this host: a look on PATH and in the agents cache, nothing run. */
export async function findInstalledClis(hostEnv: NodeJS.ProcessEnv): Promise<InstalledCli[]> {
  const clis = CANDIDATE_ADAPTER_NAMES.flatMap((adapter) => {
    const { cli } = getCandidateAdapter(adapter);
    return cli ? [{ adapter, cli }] : [];
  });
  return Promise.all(clis.map(async ({ adapter, cli }) => ({ adapter, cli, path: await findExecutable(executablesOf(cli, hostEnv), hostEnv.PATH) })));
}
