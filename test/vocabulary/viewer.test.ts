import { describe, expect, it } from 'vitest';
import { runTemplateOf } from '../../src/cli/batch/start.js';
import type { RunOutcome } from '../../src/run/runOutcome.js';
import { verdictMemo } from '../../src/workflows/outcomeAttributes.js';
import { viewerBaseUrl, viewerDetailsLine } from '../../src/vocabulary/viewer.js';
import { settingsFor } from '../support/configFixture.js';

const OUTCOME: RunOutcome = { runId: 'run-a-x@20260101T000000', caseId: 'a', status: 'completed', result: 'pass', overall: 4, runDir: '/runs/a', anomalies: [] };

describe("the viewer's link in the Web UI comes from the config, or is left out", () => {
  it('is the configured url, else http://HOST:PORT of view.host and view.port (or their defaults); none for a wildcard host', () => {
    expect(viewerBaseUrl({})).toBe('http://127.0.0.1:8300');
    expect(viewerBaseUrl({ host: 'evals.lan', port: 9400 })).toBe('http://evals.lan:9400');
    expect(viewerBaseUrl({ host: '::1' })).toBe('http://[::1]:8300');
    expect(viewerBaseUrl({ host: '0.0.0.0', port: 9400 })).toBeNull();
    expect(viewerBaseUrl({ host: '0.0.0.0', url: 'https://evals.example.com/view/' })).toBe('https://evals.example.com/view');
  });

  it('reaches the runs through the template: a configured port in the memo and details, none when unknown', async () => {
    const { settings } = await settingsFor('view:\n  host: 127.0.0.1\n  port: 9400\n');
    expect(settings.view).toEqual({ host: '127.0.0.1', port: 9400 });
    const template = runTemplateOf(settings, { name: 'x', adapter: 'command', args: [], env: {} });
    expect(template.viewerUrl).toBe('http://127.0.0.1:9400');
    const spec = { runId: 'run-a-x@20260101T000000', viewerUrl: template.viewerUrl };
    expect(verdictMemo(spec, OUTCOME)).toEqual({ verdict: 'pass, overall 4/5 (status completed)', evalflow_view: 'http://127.0.0.1:9400/runs/run-a-x%4020260101T000000' });
    expect(viewerDetailsLine(spec)).toBe('\n- in evalflow view: [http://127.0.0.1:9400/runs/run-a-x%4020260101T000000](http://127.0.0.1:9400/runs/run-a-x%4020260101T000000)');

    const wildcard = (await settingsFor('view:\n  host: 0.0.0.0\n')).settings;
    expect(runTemplateOf(wildcard, { name: 'x', adapter: 'command', args: [], env: {} })).not.toHaveProperty('viewerUrl');
    expect(verdictMemo({ runId: spec.runId }, OUTCOME)).toEqual({ verdict: 'pass, overall 4/5 (status completed)' });
    expect(viewerDetailsLine({ runId: spec.runId })).toBe('');
  });
});
