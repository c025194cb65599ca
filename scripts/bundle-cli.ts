// Bundles the CLI (src/client.ts) into dist/cli/ for bin/evalflow.js; `npm run build` runs it
// after tsc. Start-up is the point: loading zod, yaml and commander as a few files instead of
// a hundred-odd modules. Every command stays its own lazily imported chunk.
//
//   node --import tsx scripts/bundle-cli.ts [OUTDIR]
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * The dependencies bundled in: the ones the quick commands load. The rest stay imports of
 * node_modules, as tsc's output has them: Temporal's worker bundles workflow code from files
 * and loads native modules, PGlite reads its wasm beside its own code, and the others are
 * needed only once a command talks to Temporal, the store or a model. `pg` is bundled: a
 * served look-up talks to the store through it, and loading it from node_modules took 30-odd
 * CommonJS files and, through its runtime probe (below), Node's fetch.
 */
const BUNDLED = ['commander', 'smol-toml', 'yaml', 'zod', 'pg'];

/** pg's optional native and Cloudflare back ends: a Node CLI uses neither. */
const NEVER_LOADED = ['pg-native', 'pg-cloudflare'];

/**
 * pg asks on load whether it runs in a Cloudflare Worker by building a fetch `Response`, which
 * on Node 20 loads Node's fetch (undici, web streams: about 35 ms of a look-up). The CLI only
 * runs on Node, so that probe is answered at build time; the build fails if pg's code changes.
 */
const PG_PROBE = "typeof Response === 'function'";
const nodeOnlyPg: Plugin = {
  name: 'node-only-pg',
  setup(on) {
    on.onLoad({ filter: /[\\/]pg[\\/]lib[\\/]stream\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(PG_PROBE)) throw new Error(`scripts/bundle-cli.ts: ${args.path} no longer has pg's Cloudflare probe (${PG_PROBE}); look at it again`);
      return { contents: source.replace(PG_PROBE, 'false'), loader: 'js' };
    });
  },
};

export async function bundleCli(outdir: string = resolve(ROOT, 'dist/cli')): Promise<Metafile> {
  const { dependencies } = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const external = Object.keys(dependencies)
    .filter((name) => !BUNDLED.includes(name))
    .concat(NEVER_LOADED)
    .flatMap((name) => [name, `${name}/*`]);
  await rm(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/client.ts'],
    outdir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external,
    plugins: [nodeOnlyPg],
    // Error classes are named by `new.target.name` and activity failures by the constructor's
    // name; workflows match on those names, so the bundler must not rename anything.
    keepNames: true,
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    // commander and yaml are CommonJS and require() Node's builtins; an ES module has no require.
    banner: { js: "import { createRequire as __evalflowCreateRequire } from 'node:module'; const require = __evalflowCreateRequire(import.meta.url);" },
  });
  return result.metafile;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await bundleCli(process.argv[2] ? resolve(process.argv[2]) : undefined);
}
