#!/usr/bin/env node
// Thin launcher: `npm run build` compiles the CLI to dist/ and bundles it into dist/cli/.
import('../dist/cli/client.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/cli/client.js')) {
    console.error('evalflow: the built CLI (dist/cli/) is missing; run `npm run build` first');
  } else {
    console.error(err);
  }
  process.exitCode = 1;
});
