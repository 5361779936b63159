import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { ErrorReply } from '@ratesmith/contracts';
import { ctx } from '../http/context';

/**
 * How the gateway's thread tells its lane who is asking: the session it
 * verified, as headers of the request it hands over on loopback, with the
 * lane's secret (made anew for each gateway process) so nothing else in the
 * pod can speak for a shop.
 */
export const LANE_HEADERS = {
  secret: 'x-ratesmith-lane-secret',
  shop: 'x-ratesmith-lane-shop',
  user: 'x-ratesmith-lane-user',
} as const;

/** The lane's first middleware: the secret checked, the session taken from the headers. */
export function laneIdentity(secret: string): RequestHandler {
  const expected = Buffer.from(secret);
  return (req, res, next) => {
    const given = Buffer.from(String(req.headers[LANE_HEADERS.secret] ?? ''));
    const shop = req.headers[LANE_HEADERS.shop];
    if (
      given.length !== expected.length ||
      !timingSafeEqual(given, expected) ||
      typeof shop !== 'string' ||
      !shop
    ) {
      res.status(403).json({ status: false, message: 'Forbidden.' } satisfies ErrorReply);
      return;
    }
    const context = ctx(res);
    context.shop = shop;
    const user = req.headers[LANE_HEADERS.user];
    context.user = typeof user === 'string' && user ? user : undefined;
    context.logger = context.logger.child({ shop });
    next();
  };
}
