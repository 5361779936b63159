import type { RequestHandler } from 'express';
import { shopOf } from './context';

/**
 * A token bucket per shop: `perMinute` requests a minute, with bursts up to
 * the same number. Keyed by the verified shop (never by a client-supplied
 * header such as X-Forwarded-For), so one shop cannot starve the others.
 * Counts are per gateway replica.
 */
export class ShopRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
    private readonly maxShops = 10_000,
  ) {}

  /** 0 when the request may go ahead, else the seconds to wait. */
  take(shop: string): number {
    const now = this.now();
    const ratePerMs = this.perMinute / 60_000;
    const bucket = this.buckets.get(shop) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * ratePerMs);
    bucket.at = now;
    // Re-insert so the Map's order is least recently used first.
    this.buckets.delete(shop);
    this.buckets.set(shop, bucket);
    if (this.buckets.size > this.maxShops) this.buckets.delete(this.buckets.keys().next().value!);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / ratePerMs / 1000);
  }
}

export function rateLimitPerShop(limiter: ShopRateLimiter): RequestHandler {
  return (_req, res, next) => {
    const waitSeconds = limiter.take(shopOf(res));
    if (waitSeconds === 0) return next();
    res.setHeader('Retry-After', String(waitSeconds));
    res
      .status(429)
      .json({ status: false, message: 'Too many requests. Please wait a moment and try again.' });
  };
}
