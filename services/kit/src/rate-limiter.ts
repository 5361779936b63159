/**
 * Buckets kept by a limiter keyed by shop (or a shop's rate key): more than the
 * shops one deployment serves, so a shop's bucket is never dropped (and refilled)
 * because other shops were busy. About 100 bytes each: 10 MB at most.
 */
export const SHOP_BUCKETS_KEPT = 100_000;

/**
 * A token bucket per key (a shop, a client address, a rate key): `perMinute`
 * requests a minute, with bursts up to the same number. At most `maxKeys`
 * buckets are kept; the least recently seen key goes first, so the memory
 * is bounded however many keys a caller makes up. Counts are per process.
 */
export class KeyedRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 10_000,
  ) {}

  /** 0 when the request may go ahead, else the whole seconds to wait. */
  take(key: string): number {
    const now = this.now();
    const ratePerMs = this.perMinute / 60_000;
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * ratePerMs);
    bucket.at = now;
    // Re-insert so the Map's order is least recently used first.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / ratePerMs / 1000);
  }
}
