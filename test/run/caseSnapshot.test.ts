import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEvalCase } from '../../src/evalset/index.js';
import { toCaseSnapshot } from '../../src/run/caseSnapshot.js';
import { CaseSnapshotSchema } from '../../src/run/runSpec.js';

describe('toCaseSnapshot', () => {
  it('carries what the run, the dashboard and the Web UI need of meta.yaml: purpose, category, tags', async () => {
    const snapshot = toCaseSnapshot(await loadEvalCase(resolve(import.meta.dirname, '../../eval_sets/add-truncate')));
    expect(snapshot).toMatchObject({ id: 'add-truncate', category: expect.any(String), tags: ['feature', 'tests', 'single-turn'] });
    expect(snapshot.purpose?.length).toBeGreaterThan(0);
    expect(CaseSnapshotSchema.parse(snapshot)).toEqual(snapshot);
  });

  it('carries env.yaml protected when the case has it, and a snapshot of an older spec without it still parses', async () => {
    const evalCase = await loadEvalCase(resolve(import.meta.dirname, '../../eval_sets/add-truncate'));
    const snapshot = toCaseSnapshot({ ...evalCase, env: { ...evalCase.env, protected: ['test/truncate.test.js'] } });
    expect(CaseSnapshotSchema.parse(snapshot).env.protected).toEqual(['test/truncate.test.js']);
    const { protected: _none, ...older } = toCaseSnapshot(evalCase).env;
    expect(CaseSnapshotSchema.parse({ ...toCaseSnapshot(evalCase), env: older }).env).not.toHaveProperty('protected');
  });
});
