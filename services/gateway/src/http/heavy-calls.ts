import type { RequestHandler } from 'express';
import { shopOf } from './context';

/** What the admin shows when a shop's heavy call is refused (429). */
export const HEAVY_CALL_BUSY =
  'Another save of this shop is still running. Please wait for it to finish and try again.';

/**
 * Save All, imports and exports of one shop, at most `limit` at a time in this
 * gateway. Each costs the rules service and MongoDB tens to hundreds of
 * milliseconds at the spec's limits, so a shop that sends many at once would
 * otherwise queue work every other shop waits behind; the merchant's own
 * editor never has more than one in flight. The slot is held until the
 * answer is sent or the client is gone; keyed by the verified shop only.
 */
export function heavyCallsPerShop(limit: number): RequestHandler {
  const inFlight = new Map<string, number>();
  return (_req, res, next) => {
    const shop = shopOf(res);
    const running = inFlight.get(shop) ?? 0;
    if (running >= limit) {
      res.setHeader('Retry-After', '1');
      res.status(429).json({ status: false, message: HEAVY_CALL_BUSY });
      return;
    }
    inFlight.set(shop, running + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (inFlight.get(shop) ?? 1) - 1;
      if (left > 0) inFlight.set(shop, left);
      else inFlight.delete(shop);
    };
    res.once('finish', release);
    res.once('close', release);
    next();
  };
}
