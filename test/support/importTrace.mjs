// `node --import ./test/support/importTrace.mjs ...` appends every module URL the program loads
// to the file named by EVALFLOW_IMPORT_TRACE, one per line (hooks run off the main thread).
import { register } from 'node:module';
import process from 'node:process';

if (process.env.EVALFLOW_IMPORT_TRACE) register('./importTraceHooks.mjs', import.meta.url);
