import { describe, expect, it } from 'vitest';
import { RunSlots } from '../../src/temporal/runSlots.js';

const context = { slotType: 'activity', taskQueue: 'evalflow.slots', workerIdentity: 'w', workerBuildId: '', isSticky: false } as const;

describe('RunSlots', () => {
  it('holds at most its total, a run held twice once, and frees a slot on release', () => {
    const slots = new RunSlots(2);
    expect([slots.tryHold('r1'), slots.tryHold('r1'), slots.tryHold('r2'), slots.tryHold('r3')]).toEqual([true, true, true, false]);
    expect(slots.busy).toBe(2);
    slots.release('r1');
    expect(slots.tryHold('r3')).toBe(true);
  });

  it('hands the slots queue a permit only while a slot is free, and none while it drains', async () => {
    const slots = new RunSlots(1);
    const supplier = slots.supplier();
    expect(supplier.tryReserveSlot(context)).not.toBeNull();
    // The permit counts until released: no second one for a one-slot host.
    expect(supplier.tryReserveSlot(context)).toBeNull();
    supplier.releaseSlot({ permit: {} } as never);
    slots.tryHold('r1');
    let granted = false;
    const waiting = supplier.reserveSlot(context, new AbortController().signal).then(() => (granted = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(granted).toBe(false);
    slots.release('r1');
    await waiting;
    expect(granted).toBe(true);
    supplier.releaseSlot({ permit: {} } as never);
    slots.drain();
    expect(supplier.tryReserveSlot(context)).toBeNull();
    expect(slots.tryHold('r2')).toBe(false);
    const abort = new AbortController();
    const refused = supplier.reserveSlot(context, abort.signal);
    abort.abort();
    await expect(refused).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('settles idle once the held runs are released, and has no limit without a total', async () => {
    const slots = new RunSlots(1);
    slots.tryHold('r1');
    let idle = false;
    const done = slots.idle().then(() => (idle = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(idle).toBe(false);
    slots.release('r1');
    await done;
    const unlimited = new RunSlots(null);
    expect(Array.from({ length: 50 }, (_, i) => unlimited.tryHold(`r${i}`)).every(Boolean)).toBe(true);
    expect(() => new RunSlots(0)).toThrow(/positive integer/);
  });
});
