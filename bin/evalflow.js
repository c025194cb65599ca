#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build`.
import('../dist/client.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/client.js')) {
    console.error('evalflow: dist/ is missing; run `npm run build` first');
  } else {
    console.error(err);
  }
  process.exitCode = 1;
});
