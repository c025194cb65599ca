// Takes docs/images/web-ui-run.png: a run of the batch fixture as the Temporal Web UI shows it
// (static summary and details, current details, activity summaries). Needs Debian's chromium.
import { resolve } from 'node:path';
import { execa } from 'execa';
import { memoryIo } from '../src/cli/io.js';
import { run } from '../src/commands/run.js';
import { createBatchFixture } from '../test/support/batchFixture.js';
import { startTestTemporal } from '../test/support/temporalServer.js';

const out = resolve(import.meta.dirname, '../docs/images/web-ui-run.png');
const temporal = await startTestTemporal();
const fixture = await createBatchFixture();
try {
  const env = { ...fixture.env, EVALFLOW_TEMPORAL_PORT: String(temporal.port), EVALFLOW_TEMPORAL_UI_PORT: String(temporal.uiPort) };
  const io = memoryIo(fixture.root, env);
  await run({ only: 'tiny', candidate: 'quick', runsPerCase: 2, onInterrupt: 'detach' }, io);
  const runId = /run-tiny-quick@\d{8}T\d{6}-2/.exec([...io.stdout, ...io.stderr].join('\n'))?.[0];
  if (!runId) throw new Error(`no run id in the output:\n${io.stdout.join('\n')}`);
  const url = `${temporal.uiUrl}/namespaces/default/workflows/${encodeURIComponent(runId)}`;
  await execa('chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--window-size=1400,1100', '--virtual-time-budget=15000', `--screenshot=${out}`, url], { stdio: 'inherit' });
  console.log(`wrote ${out} from ${url}`);
} finally {
  await fixture.close();
  await temporal.stop();
}
