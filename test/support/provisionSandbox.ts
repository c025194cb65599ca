import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';

const SCRIPTS = resolve(import.meta.dirname, '../../scripts');

/** The real tools the provisioning scripts and the fakes below run; nothing else is on PATH. */
const REAL_TOOLS = ['bash', 'basename', 'chmod', 'cut', 'date', 'dirname', 'du', 'flock', 'grep', 'mkdir', 'rm', 'sleep', 'tail', 'touch'];

/**
 * Fakes of the tools that would download and build for minutes. Each logs its arguments to
 * $FAKE_LOG and leaves behind what the real one would (executables where the scripts look).
 */
const FAKES: Record<string, string> = {
  go: `#!/bin/sh
echo "go $*" >> "$FAKE_LOG"
case "$1" in
  version) echo "go version go1.26.0 linux/amd64" ;;
  env) echo "$GOMODCACHE" ;;
  mod) mkdir -p "$GOMODCACHE/go.temporal.io/server@v1.29.1/schema/postgresql/v12" ;;
  install)
    if [ -n "$FAKE_GO_FAILS" ]; then echo "$FAKE_GO_FAILS" >&2; exit 1; fi
    sleep "\${FAKE_BUILD_SECONDS:-0}"
    mkdir -p "$GOBIN"
    for arg in "$@"; do
      case "$arg" in
        */cmd/temporal@*) name=temporal ;;
        */cmd/server@*) name=server ;;
        */tools/sql@*) name=sql ;;
        *) continue ;;
      esac
      printf '#!/bin/sh\\necho "%s version 0.0.0-fake"\\n' "$name" > "$GOBIN/$name"
      chmod +x "$GOBIN/$name"
    done ;;
esac
`,
  npm: `#!/bin/sh
echo "npm $*" >> "$FAKE_LOG"
while [ $# -gt 0 ]; do [ "$1" = --prefix ] && prefix=$2; shift; done
mkdir -p "$prefix/node_modules/.bin" "$prefix/node_modules/@tencent-ai/agent-sdk/cli/bin"
for name in .bin/claude .bin/qwen .bin/opencode .bin/gemini .bin/codex @tencent-ai/agent-sdk/cli/bin/codebuddy; do
  touch "$prefix/node_modules/$name"
  chmod +x "$prefix/node_modules/$name"
done
`,
  'apt-get': `#!/bin/sh
echo "apt-get $*" >> "$FAKE_LOG"
[ "$1" = install ] || exit 0
for package in "$@"; do
  case "$package" in
    bubblewrap) file="$FAKES/bwrap" ;;
    ripgrep) file="$FAKES/rg" ;;
    chromium) file="$EVALFLOW_CHROMIUM" ;;
    *) continue ;;
  esac
  touch "$file"
  chmod +x "$file"
done
`,
  id: '#!/bin/sh\necho "$FAKE_UID"\n',
};

export interface ProvisionSandboxOptions {
  /** Which fakes are on PATH (default: all). */
  fakes?: string[];
  /** Whether chromium, bwrap and rg are already there (default: all are). */
  packages?: { chromium?: boolean; bwrap?: boolean; rg?: boolean };
  uid?: number;
  /** A TEST_DATABASE_URL port; the default is a closed one (PostgreSQL down). */
  postgresPort?: number;
}

export interface ScriptResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface ProvisionSandbox {
  cache: string;
  env: Record<string, string>;
  /** Runs scripts/<script> with the sandbox's PATH, HOME and cache (nothing of this machine's). */
  run(script: string, args?: string[], env?: Record<string, string>): Promise<ScriptResult>;
  /** The fakes' calls so far, one line each. */
  calls(): Promise<string[]>;
  close(): Promise<void>;
}

/** A HOME, an empty evalflow cache and a PATH of real basic tools and fake slow ones. */
export async function provisionSandbox(options: ProvisionSandboxOptions = {}): Promise<ProvisionSandbox> {
  const root = await mkdtemp(join(tmpdir(), 'evf-provision-'));
  const tools = join(root, 'tools');
  const fakes = join(root, 'fakes');
  await mkdir(tools);
  await mkdir(fakes);
  for (const tool of REAL_TOOLS) await symlink(execFileSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim(), join(tools, tool));
  for (const name of options.fakes ?? Object.keys(FAKES)) await writeFile(join(fakes, name), FAKES[name]!, { mode: 0o755 });
  const packages = { chromium: true, bwrap: true, rg: true, ...options.packages };
  const chromium = join(root, 'chromium');
  if (packages.chromium) await writeFile(chromium, '#!/bin/sh\n', { mode: 0o755 });
  for (const tool of ['bwrap', 'rg'] as const) if (packages[tool]) await writeFile(join(fakes, tool), '#!/bin/sh\n', { mode: 0o755 });
  const log = join(root, 'calls.log');
  const env: Record<string, string> = {
    PATH: `${fakes}:${tools}`,
    HOME: root,
    EVALFLOW_CACHE_DIR: join(root, 'cache'),
    EVALFLOW_CHROMIUM: chromium,
    GOMODCACHE: join(root, 'gomodcache'),
    TEST_DATABASE_URL: `postgres://test@127.0.0.1:${options.postgresPort ?? 1}/test`,
    FAKE_LOG: log,
    FAKES: fakes,
    FAKE_UID: String(options.uid ?? 1000),
  };
  return {
    cache: env.EVALFLOW_CACHE_DIR!,
    env,
    async run(script, args = [], extra = {}) {
      const started = Date.now();
      const result = await execa('bash', [join(SCRIPTS, script), ...args], { env: { ...env, ...extra }, extendEnv: false, reject: false });
      return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr), ms: Date.now() - started };
    },
    async calls() {
      return existsSync(log) ? (await readFile(log, 'utf8')).split('\n').filter(Boolean) : [];
    },
    async close() {
      await rm(root, { recursive: true, force: true });
    },
  };
}
