import type { ActivitySlotInfo, CustomSlotSupplier, SlotPermit } from '@temporalio/worker';

/**
 * A host's run slots: how many runs it holds at once. A run holds a slot from the moment
 * this host claims it (the `claimSlot` activity on the slots queue) until its record is
 * written here. The slots queue's worker polls only while a slot is free and the host does
 * not drain (`supplier`), so a full or draining host never takes a run and the next run goes
 * to a host that polls: one that joins mid-batch takes its share of the next runs at once.
 */
export class RunSlots {
  /** Null: no limit (a CLI's own worker, bounded by its batch's parallelism). */
  readonly total: number | null;
  private readonly held = new Set<string>();
  /** Permits handed to the SDK's pollers that have not become a held run yet. */
  private reserved = 0;
  private draining = false;
  private readonly waiters = new Set<() => void>();

  constructor(total: number | null) {
    if (total !== null && (!Number.isInteger(total) || total < 1)) throw new RangeError(`slots must be a positive integer, got ${total}`);
    this.total = total;
  }

  /** The runs this host holds now. */
  get busy(): number {
    return this.held.size;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  /**
   * A run claimed here holds a slot until `release`; false when every slot is held or the
   * host drains. A run held already (its host come back to it) holds the same slot.
   */
  tryHold(runId: string): boolean {
    if (this.held.has(runId)) return true;
    if (this.draining || (this.total !== null && this.held.size >= this.total)) return false;
    this.held.add(runId);
    return true;
  }

  release(runId: string): void {
    if (this.held.delete(runId)) this.wake();
  }

  /** Takes no new run from now on; `idle` settles once the held ones are released. */
  drain(): void {
    this.draining = true;
    this.wake();
  }

  /** Settles when no run is held (at once if none is). */
  idle(): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.held.size > 0) return;
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
      check();
    });
  }

  private canReserve(): boolean {
    return !this.draining && (this.total === null || this.held.size + this.reserved < this.total);
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** The slot supplier of the slots queue's worker: one permit per free slot, none while draining. */
  supplier(): CustomSlotSupplier<ActivitySlotInfo> {
    const take = (): SlotPermit => {
      this.reserved += 1;
      return {};
    };
    return {
      type: 'custom',
      reserveSlot: (_ctx, abortSignal) =>
        new Promise<SlotPermit>((resolve, reject) => {
          const check = () => {
            if (abortSignal.aborted) {
              this.waiters.delete(check);
              reject(Object.assign(new Error('slot reservation aborted'), { name: 'AbortError' }));
            } else if (this.canReserve()) {
              this.waiters.delete(check);
              resolve(take());
            }
          };
          abortSignal.addEventListener('abort', check, { once: true });
          this.waiters.add(check);
          check();
        }),
      tryReserveSlot: () => (this.canReserve() ? take() : null),
      markSlotUsed: () => undefined,
      // The claim has turned the permit into a held run by now (or the poll came back empty).
      releaseSlot: () => {
        this.reserved -= 1;
        this.wake();
      },
    };
  }
}
