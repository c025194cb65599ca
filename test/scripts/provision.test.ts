import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { provisionSandbox, type ProvisionSandbox, type ProvisionSandboxOptions } from '../support/provisionSandbox.js';

const AGENTS = ['claude', 'qwen', 'opencode', 'codebuddy', 'gemini', 'codex'];

/** Something listening where the tests' PostgreSQL would be: all the script checks is that it answers. */
let postgres: net.Server;
let postgresPort: number;
beforeAll(async () => {
  postgres = net.createServer((socket) => socket.destroy());
  await new Promise<void>((done) => postgres.listen(0, '127.0.0.1', done));
  postgresPort = (postgres.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((done) => postgres.close(() => done())));

const sandboxes: ProvisionSandbox[] = [];
afterEach(async () => {
  for (const sandbox of sandboxes.splice(0)) await sandbox.close();
});
async function sandbox(options: ProvisionSandboxOptions = {}): Promise<ProvisionSandbox> {
  const made = await provisionSandbox({ postgresPort, ...options });
  sandboxes.push(made);
  return made;
}
const downloads = (calls: string[]) => calls.filter((call) => /^(npm install|go install|go mod download|apt-get)/.test(call));

describe('scripts/provision.sh (the pretest step)', () => {
  it('--check on an empty cache names every missing piece, exits 1 and installs nothing', async () => {
    const box = await sandbox({ packages: { chromium: false, bwrap: false, rg: false }, postgresPort: 1 });
    const result = await box.run('provision.sh', ['--check']);
    expect(result.exitCode).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('missing: Debian packages chromium bubblewrap ripgrep (apt-get install -y --no-install-recommends chromium bubblewrap ripgrep)');
    expect(lines[1]).toBe("missing: PostgreSQL on 127.0.0.1:1 (the tests' database; TEST_DATABASE_URL sets another)");
    expect(lines.filter((line) => line.startsWith('missing: agent CLI ')).map((line) => line.split(' ')[3])).toEqual(AGENTS);
    expect(lines).toContain(`missing: the Temporal CLI v1.5.1 (${box.cache}/bin/temporal; built with Go, 3-6 minutes once)`);
    expect(lines.filter((line) => /^missing: the Temporal (server|Web UI server|server's SQL schemas)/.test(line))).toHaveLength(3);
    expect(lines).toHaveLength(2 + AGENTS.length + 1 + 3);
    expect(result.stderr).toBe('');
    expect(downloads(await box.calls())).toEqual([]);
  });

  it('as root on a fresh cache installs the Debian packages, the agent CLIs and the Go builds, each once; then a run does nothing and says nothing', async () => {
    const box = await sandbox({ uid: 0, packages: { chromium: true, bwrap: false, rg: false } });
    const first = await box.run('provision.sh');
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toBe('');
    // The long steps are announced, with their times, before they start.
    expect(first.stderr.split('\n')[0]).toBe(
      'evalflow: npm test provisions what it needs, once: Debian packages bubblewrap ripgrep (a minute), 6 agent CLIs (about 5 minutes), the Temporal CLI (3-6 minutes with Go), the team-mode server binaries (15-30 minutes with Go)',
    );
    expect(first.stderr).toMatch(/building the Temporal CLI v1\.5\.1 with go1\.26\.0 into .* \(3-6 minutes, once\)/);
    expect(downloads(await box.calls())).toEqual([
      'apt-get update',
      'apt-get install -y --no-install-recommends bubblewrap ripgrep',
      ...AGENTS.map((name) => expect.stringMatching(new RegExp(`^npm install --prefix ${box.cache}/agents/${name} `))),
      'go install -trimpath -ldflags=-s -w github.com/temporalio/cli/cmd/temporal@v1.5.1',
      'go install -trimpath -ldflags=-s -w go.temporal.io/server/cmd/server@v1.29.1 go.temporal.io/server/cmd/tools/sql@v1.29.1',
      'go install -trimpath -ldflags=-s -w github.com/temporalio/ui-server/v2/cmd/server@v2.42.1',
      'go mod download go.temporal.io/server@v1.29.1',
    ]);

    const check = await box.run('provision.sh', ['--check']);
    expect(check).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    const callsBefore = await box.calls();
    const again = await box.run('provision.sh');
    expect(again).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    // Nothing forked that costs time: no go, npm or apt-get at all.
    expect(await box.calls()).toEqual(callsBefore);
  });

  it('without root, missing Debian packages stop the run at once with the one command to run', async () => {
    const box = await sandbox({ uid: 1000, packages: { chromium: false, bwrap: true, rg: false } });
    const result = await box.run('provision.sh');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      'evalflow: npm test needs Debian packages that are missing; install them, then run npm test again: sudo apt-get install -y --no-install-recommends chromium ripgrep',
    );
    expect(downloads(await box.calls())).toEqual([]);
  });

  it('without Go, one line says to install it, before any agent CLI is installed', async () => {
    const box = await sandbox({ fakes: ['npm', 'apt-get', 'id'] });
    const result = await box.run('provision.sh');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      'evalflow: npm test needs the Temporal CLI and the team-mode server, built once with Go >= 1.25, and Go is not installed: install it (https://go.dev/dl/), then run npm test again',
    );
    expect(await box.calls()).toEqual([]);
  });

  it('with PostgreSQL down, one line says where it was looked for and how to start it', async () => {
    const box = await sandbox({ postgresPort: 1 });
    const result = await box.run('provision.sh');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      'evalflow: npm test needs PostgreSQL on 127.0.0.1:1 and nothing answers there; start it (on Debian: pg_ctlcluster --skip-systemctl-redirect <version> main start) or set TEST_DATABASE_URL, then run npm test again',
    );
    expect(downloads(await box.calls())).toEqual([]);
  });

  it('a build that cannot reach the network fails with one line that says so and names the log', async () => {
    const box = await sandbox();
    const result = await box.run('provision.sh', [], { FAKE_GO_FAILS: 'go: github.com/temporalio/cli/cmd/temporal@v1.5.1: dial tcp: lookup proxy.golang.org: no such host' });
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim().split('\n').pop()).toBe(
      `evalflow: building the Temporal CLI failed: the network is unreachable (go: github.com/temporalio/cli/cmd/temporal@v1.5.1: dial tcp: lookup proxy.golang.org: no such host); connect and run again (log: ${box.cache}/logs/temporal-cli.log)`,
    );
    // A failed build leaves nothing that passes for a binary: the next run tries again.
    expect((await box.run('temporal-binary.sh', ['--check'])).exitCode).toBe(1);
  });

  it('two runs at once build the Temporal CLI once: the second waits on the cache lock, then finds it built', async () => {
    const box = await sandbox();
    await box.run('agent-clis.sh');
    await box.run('team-binaries.sh');
    const before = (await box.calls()).length;
    const slow = { FAKE_BUILD_SECONDS: '2' };
    const [one, two] = await Promise.all([box.run('provision.sh', [], slow), box.run('provision.sh', [], slow)]);
    expect([one.exitCode, two.exitCode], one.stderr + two.stderr).toEqual([0, 0]);
    expect((await box.calls()).slice(before)).toEqual(['go version', 'go install -trimpath -ldflags=-s -w github.com/temporalio/cli/cmd/temporal@v1.5.1']);
    expect([one.stderr, two.stderr].filter((stderr) => stderr.includes(`evalflow: another process is building the Temporal CLI into ${box.cache}/bin; waiting for it`))).toHaveLength(1);
  });

  it('each script checks its own part: agent-clis.sh --check names only the CLIs asked for', async () => {
    const box = await sandbox();
    await box.run('agent-clis.sh', ['codex']);
    expect(await box.run('agent-clis.sh', ['--check', 'codex'])).toMatchObject({ exitCode: 0, stdout: '' });
    const result = await box.run('agent-clis.sh', ['--check', 'codex', 'qwen']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe(`missing: agent CLI qwen (@qwen-code/qwen-code@0.24.4 in ${box.cache}/agents/qwen)`);
  });
});
