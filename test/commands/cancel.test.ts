import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as batches } from '../../src/commands/batches.js';
import { run as cancel } from '../../src/commands/cancel.js';
import { memoryIo } from '../../src/cli/io.js';
import { run as runs } from '../../src/commands/runs.js';
import { run as show } from '../../src/commands/show.js';
import { run as status } from '../../src/commands/status.js';
import { createBatchFixture, type BatchFixture } from '../support/batchFixture.js';
import { startCli } from '../support/cliProcess.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

describe('detach, cancel, batches, runs', () => {
  let temporal: TestTemporal;
  let fixture: BatchFixture;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    fixture = await createBatchFixture();
    env = { ...fixture.env, EVALFLOW_TEMPORAL_PORT: String(temporal.port), EVALFLOW_TEMPORAL_UI_PORT: String(temporal.uiPort) };
  });
  afterAll(async () => {
    await temporal?.stop();
    await fixture?.close();
  });

  it('Ctrl-C with --on-interrupt detach leaves the batch running and says how to attach; `evalflow cancel` then ends it', { timeout: 180_000 }, async () => {
    const client = startCli(['run', '--only', 'tiny', '--candidate', 'sleeper', '--on-interrupt', 'detach'], { cwd: fixture.root, env });
    const batchId = /^batch (batch-\S+):/.exec(await client.waitForLine(/^batch batch-\S+: 1 run/, 90_000))![1]!;
    await fixture.waitForTurns(1);
    client.kill('SIGINT');
    expect(await client.exited).toBe(130);
    expect(client.stderr).toContain(`detached: batch ${batchId} goes on in Temporal; follow it again with: evalflow attach ${batchId}`);
    expect(client.stderr).toContain(`no worker runs it once this process ends: it goes on when one does (\`evalflow attach ${batchId}\` or \`evalflow worker\`)`);
    expect(client.lines.filter((l) => /^\s+at /.test(l))).toEqual([]);

    const looked = memoryIo(fixture.root, env);
    expect(await status({ batchId }, looked)).toBe(0);
    expect(looked.stdout.join('\n')).toMatch(/^status {4}running, 0\/1 finished/m);
    expect(looked.stdout.join('\n')).toContain('waiting   for a worker');

    const cancelled = memoryIo(fixture.root, env);
    expect(await cancel({ batchId }, cancelled)).toBe(0);
    expect(cancelled.stdout).toEqual([
      `cancelling batch ${batchId}: its running runs record what they have and clean up`,
      `batch ${batchId} cancelled`,
      `runs: 1 cancelled (\`evalflow runs --batch ${batchId}\` lists them)`,
    ]);
    const again = memoryIo(fixture.root, env);
    expect(await cancel({ batchId }, again)).toBe(0);
    expect(again.stdout).toEqual([`batch ${batchId} already ended (cancelled): nothing to cancel`]);

    const listed = memoryIo(fixture.root, env);
    expect(await batches({}, listed)).toBe(0);
    expect(listed.stdout[0]).toMatch(/^batch\s+status\s+runs\s+candidate\s+started$/);
    expect(listed.stdout[2]).toMatch(new RegExp(`^${batchId}\\s+cancelled\\s+1/1 finished: 0 pass, 0 fail, 1 cancelled\\s+sleeper\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ$`));

    const table = memoryIo(fixture.root, env);
    expect(await runs({ batch: batchId }, table)).toBe(0);
    expect(table.stdout[0]).toMatch(/^case\s+status\s+result\s+overall\s+host\s+run dir$/);
    expect(table.stdout.slice(2)).toEqual([expect.stringMatching(/^tiny\s+cancelled\s+-\s+-\s+\S+\s+out\/runs\/run-tiny-sleeper@\d{8}T\d{6}$/)]);

    const shown = memoryIo(fixture.root, env);
    expect(await show({ runId: batchId }, shown)).toBe(0);
    expect(shown.stdout.join('\n')).toMatch(/^status {4}cancelled, 1\/1 finished: 0 pass, 0 fail, 1 cancelled$/m);
  });

  it('an unknown batch is one line and exit 3, for status, attach-free look-ups and cancel', { timeout: 60_000 }, async () => {
    for (const command of [
      (io: ReturnType<typeof memoryIo>) => status({ batchId: 'batch-20200101T000000-000000' }, io),
      (io: ReturnType<typeof memoryIo>) => cancel({ batchId: 'batch-20200101T000000-000000' }, io),
      (io: ReturnType<typeof memoryIo>) => runs({ batch: 'batch-20200101T000000-000000' }, io),
    ]) {
      const io = memoryIo(fixture.root, env);
      expect(await command(io)).toBe(3);
      expect(io.stderr).toHaveLength(1);
      expect(io.stderr[0]).toMatch(/^error: no batch batch-20200101T000000-000000 in the store/);
    }
  });
});
