import { appendFileSync } from 'node:fs';
import process from 'node:process';

export async function load(url, context, nextLoad) {
  appendFileSync(process.env.EVALFLOW_IMPORT_TRACE, `${url}\n`);
  return nextLoad(url, context);
}
