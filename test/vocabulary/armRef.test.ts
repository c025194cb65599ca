import { describe, expect, it } from 'vitest';
import { parseArmRef } from '../../src/vocabulary/armRef.js';

describe('parseArmRef', () => {
  it('splits batch:arm at the last colon, and takes the batch apart when given', () => {
    expect(parseArmRef('batch-20261204-1:A')).toEqual({ batch: 'batch-20261204-1', arm: 'A' });
    expect(parseArmRef('batch-20261204-1')).toEqual({ batch: 'batch-20261204-1' });
    expect(parseArmRef('B', 'batch-1')).toEqual({ batch: 'batch-1', arm: 'B' });
  });
});
