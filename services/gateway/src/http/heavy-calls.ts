import { HEAVY_CALL_BUSY, HeavyCallsPerShop } from '@ratesmith/kit';
import type { RequestHandler } from 'express';
import { shopOf } from './context';

/**
 * A shop's heavy calls, at most `limit` at a time in this gateway
 * (HeavyCallsPerShop, services/kit/src/heavy-calls.ts): one past it is answered
 * 429 before its body is read. The slot is held until the answer is sent or
 * the client is gone; keyed by the verified shop only.
 */
export function heavyCallsPerShop(limit: number): RequestHandler {
  const heavy = new HeavyCallsPerShop(limit);
  return (_req, res, next) => {
    const release = heavy.tryEnter(shopOf(res));
    if (!release) {
      res.setHeader('Retry-After', '1');
      res.status(429).json({ status: false, message: HEAVY_CALL_BUSY });
      return;
    }
    res.once('finish', release);
    res.once('close', release);
    next();
  };
}
