// A stand-in worker process for the escape test: it runs one candidate command that leaves a
// setsid grandchild in /, says it started, and waits to be killed with kill -9.
import { runProcess } from '../../src/candidates/processRunner.js';
import type { SandboxView } from '../../src/containment/index.js';

const { host, marker, contained } = JSON.parse(process.argv[2]!) as { host: { sandboxDir: string; homeDir: string; view: SandboxView }; marker: string; contained: boolean };
process.stdout.write('started\n');
await runProcess({
  command: 'bash',
  args: ['-c', `setsid bash -c 'cd /; exec -a ${marker} sleep 120' </dev/null >/dev/null 2>&1 & sleep 120`],
  cwd: host.sandboxDir,
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: host.homeDir },
  timeoutMs: 120_000,
  ...(contained ? { view: host.view } : {}),
});
