import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { insideRelayScript, loopbackTargets, openPortRelay } from '../containment/relay.js';

/**
 * A command wrapped to run in a new network namespace with only `lo` up, for candidates run
 * without containment (`isolation: none`) when EVALFLOW_CANDIDATE_NETNS=loopback asks for it.
 * Host loopback ports (the model server) stay reachable inside through the port relay, which
 * runs in the agent's process group, so it dies with it.
 */
export interface LoopbackNamespace {
  command: string;
  args: string[];
  close(): Promise<void>;
}

export async function wrapInLoopbackNamespace(command: string, args: string[], forwardPorts: number[] = []): Promise<LoopbackNamespace> {
  if (forwardPorts.length === 0) {
    return { command: 'unshare', args: ['-n', 'sh', '-c', 'ip link set lo up && exec "$@"', 'evalflow-netns', command, ...args], close: async () => undefined };
  }
  const dir = await mkdtemp(join(tmpdir(), 'evf-ns-'));
  const relay = await openPortRelay(dir, loopbackTargets(forwardPorts));
  const script = ['ip link set lo up || exit 97', ...insideRelayScript(process.execPath, relay), 'exec "$@"'].join('\n');
  return {
    command: 'unshare',
    args: ['-n', 'sh', '-c', script, 'evalflow-netns', command, ...args],
    async close() {
      await relay.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
