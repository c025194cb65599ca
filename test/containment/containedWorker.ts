// A stand-in worker process for the escape test: it runs one candidate command that leaves a
// setsid grandchild in /, says it started, and waits to be killed with kill -9.
import { runProcess } from '../../src/candidates/processRunner.js';
import type { SandboxView } from '../../src/containment/index.js';

// The marker comes in the environment, so only the grandchild's command line holds it.
const marker = process.env.EVF_MARK!;
const { host, contained } = JSON.parse(process.argv[2]!) as { host: { sandboxDir: string; homeDir: string; view: SandboxView }; contained: boolean };
process.stdout.write('started\n');
await runProcess({
  command: 'bash',
  args: ['-c', `setsid bash -c 'cd /; exec -a "$EVF_MARK" sleep 120' </dev/null >/dev/null 2>&1 & sleep 120`],
  cwd: host.sandboxDir,
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: host.homeDir, EVF_MARK: marker },
  timeoutMs: 120_000,
  ...(contained ? { view: host.view } : {}),
});
