// Re-records the workflow histories replayed in CI (test/fixtures/histories). Only do this when a
// change to workflow code is meant to be incompatible with runs already in flight.
import { resolve } from 'node:path';
import { recordHistories } from '../test/support/recordHistories.js';

await recordHistories(resolve(import.meta.dirname, '../test/fixtures/histories'));
console.log('recorded test/fixtures/histories/*.json');
