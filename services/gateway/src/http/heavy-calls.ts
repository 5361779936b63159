import { HEAVY_CALL_BUSY, HeavyCallsPerShop } from '@ratesmith/kit';
import type { RequestHandler } from 'express';
import { shopOf } from './context';

/** What the editor shows when a shop's preview is refused (429): its previous one still runs. */
export const PREVIEW_BUSY =
  'Another preview of this shop is still being worked out. Please wait a moment and try again.';

/**
 * A shop's heavy calls, at most `limit` at a time in this gateway
 * (HeavyCallsPerShop, services/kit/src/heavy-calls.ts): one past it is answered
 * 429 with `message` before its body is read. The slot is held until the answer
 * is sent or the client is gone; keyed by the verified shop only.
 */
export function heavyCallsPerShop(limit: number, message = HEAVY_CALL_BUSY): RequestHandler {
  const heavy = new HeavyCallsPerShop(limit);
  return (_req, res, next) => {
    const release = heavy.tryEnter(shopOf(res));
    if (!release) {
      res.setHeader('Retry-After', '1');
      res.status(429).json({ status: false, message });
      return;
    }
    res.once('finish', release);
    res.once('close', release);
    next();
  };
}
