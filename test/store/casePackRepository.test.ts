import { describe, expect, it } from 'vitest';
import { uniqueId } from './builders.js';
import { BACKENDS, useStore } from './testBackends.js';

describe.each(BACKENDS)('case packs and case sets on %s', (backend) => {
  const store = useStore(backend);

  it('keeps a pack under its hash once, and hands it back as saved', async () => {
    const packHash = `sha256:${uniqueId('pack')}`;
    const pack = { caseId: 'greet', files: [{ path: 'task.md', executable: false, content: 'aGk=' }] };
    await store().saveCasePack({ packHash, caseId: 'greet', pack, bytes: 4 });
    // A hash names one content: a second save keeps the first.
    await store().saveCasePack({ packHash, caseId: 'greet', pack: { caseId: 'greet', files: [] }, bytes: 0 });
    expect(await store().getCasePack(packHash)).toEqual(pack);
    expect(await store().getCasePack('sha256:none')).toBeNull();
  });

  it('keys a case set by its entries, in order', async () => {
    const id = uniqueId('case');
    const entries = [
      { case_id: id, case_dir: `/bank/${id}`, case_hash: 'a'.repeat(64), pack_hash: 'sha256:1' },
      { case_id: `${id}-2`, case_dir: `/bank/${id}-2`, case_hash: 'b'.repeat(64), pack_hash: 'sha256:2' },
    ];
    const setHash = await store().saveCaseSet(entries);
    expect(setHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await store().saveCaseSet(entries)).toBe(setHash);
    expect(await store().saveCaseSet([...entries].reverse())).not.toBe(setHash);
    expect(await store().getCaseSet(setHash)).toEqual(entries);
    expect(await store().getCaseSet('sha256:none')).toBeNull();
  });
});
