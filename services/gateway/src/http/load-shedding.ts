import type { RequestHandler } from 'express';
import { BUSY_MESSAGE } from '@ratesmith/kit';
import type { ErrorReply } from '@ratesmith/contracts';

/**
 * Past capacity, answer at once instead of queueing: at most `limit`
 * requests are in the gateway at a time (waiting on NATS, a service or
 * MongoDB); one more gets 503 with Retry-After, so a burst makes some
 * requests fail fast rather than every request slow (R13 in
 * docs/reliability.md). A request leaves the count when its response ends
 * or its connection closes. 0 turns the bound off.
 */
export function shedLoadPast(limit: number): RequestHandler {
  let inFlight = 0;
  return (_req, res, next) => {
    if (limit === 0) return next();
    if (inFlight >= limit) {
      res.setHeader('Retry-After', '1');
      res.status(503).json({
        status: false,
        message: BUSY_MESSAGE,
      } satisfies ErrorReply);
      return;
    }
    inFlight++;
    res.once('close', () => inFlight--);
    next();
  };
}
