import { AppError } from './errors';

/** What the admin shows when a shop's heavy call is refused (the gateway answers it 429, rules 409). */
export const HEAVY_CALL_BUSY =
  'Another save of this shop is still running. Please wait for it to finish and try again.';

/**
 * A shop's heavy calls (Save All, restores, imports, exports), at most `limit`
 * at a time in this process. Each costs the rules service and MongoDB tens to
 * hundreds of milliseconds at the filter language's limits, so a shop that sends many at
 * once would queue work every other shop waits behind; the merchant's own
 * editor never has more than one in flight. Kept by the gateway (per replica,
 * before a body is read) and by the rules service (per replica, whichever
 * gateways the calls came through).
 */
export class HeavyCallsPerShop {
  private readonly running = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** A function that gives the slot back (once; more calls do nothing), or undefined when none is free. */
  tryEnter(shop: string): (() => void) | undefined {
    const running = this.running.get(shop) ?? 0;
    if (running >= this.limit) return undefined;
    this.running.set(shop, running + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(shop) ?? 1) - 1;
      if (left > 0) this.running.set(shop, left);
      else this.running.delete(shop);
    };
  }

  /** Runs `fn` in one of the shop's slots; `conflict` with HEAVY_CALL_BUSY when none is free. */
  async run<T>(shop: string, fn: () => Promise<T>): Promise<T> {
    const release = this.tryEnter(shop);
    if (!release) throw new AppError('conflict', HEAVY_CALL_BUSY);
    try {
      return await fn();
    } finally {
      release();
    }
  }
}
