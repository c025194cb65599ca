import { describe, expect, it } from 'vitest';
import { headlineBatch, latestOfSelection, selectionFolder, type BatchSelection } from '../../src/summaries/selection.js';

const batch = (batchId: string, day: number, cases: string[], arms: string[] = []): BatchSelection => ({ batchId, createdAt: `2026-01-0${day}T00:00:00.000Z`, cases: new Set(cases), arms: new Set(arms) });

describe('headlineBatch', () => {
  const full = batch('b1', 1, ['a', 'b', 'c', 'd', 'e'], ['with', 'none']);
  const followUp = batch('b2', 2, ['c']);
  const again = batch('b3', 3, ['a', 'b', 'c', 'd', 'e'], ['with', 'none']);
  const wider = batch('b4', 4, ['a', 'b', 'c', 'd', 'e', 'f']);
  const all = [wider, followUp, again, full];

  it('keeps the headline on the full batch after a follow-up over other cases', () => {
    expect(headlineBatch(all, 'b2')?.batchId).toBe('b1');
  });

  it('moves it to the next batch of the same selection, or of a wider one', () => {
    expect(headlineBatch(all, 'b3')?.batchId).toBe('b3');
    expect(headlineBatch(all, 'b4')?.batchId).toBe('b4');
  });

  it('gives the first batch the headline, whatever it ran, and a follow-up the latest of its own selection', () => {
    expect(headlineBatch([followUp], 'b2')?.batchId).toBe('b2');
    const second = batch('b5', 5, ['c']);
    expect(latestOfSelection([...all, second], second).batchId).toBe('b5');
    expect(latestOfSelection([...all, second], followUp).batchId).toBe('b2');
  });

  it('names a selection\'s folder by its cases and arms, distinct for distinct selections', () => {
    expect(selectionFolder(followUp)).toMatch(/^c-[0-9a-f]{8}$/);
    expect(selectionFolder(full)).toMatch(/^a\+4-more@none\+with-[0-9a-f]{8}$/);
    expect(selectionFolder(batch('x', 1, ['c'], ['with']))).not.toBe(selectionFolder(followUp));
  });
});
