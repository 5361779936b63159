import type { Request, RequestHandler, Response } from 'express';
import { KeyedRateLimiter } from '@ratesmith/kit';
import { shopOf } from './context';

function limited(
  keyOf: (req: Request, res: Response) => string,
  perMinute: number,
  message: string,
): RequestHandler {
  const limiter = new KeyedRateLimiter(perMinute);
  return (req, res, next) => {
    const waitSeconds = limiter.take(keyOf(req, res));
    if (waitSeconds === 0) return next();
    res.setHeader('Retry-After', String(waitSeconds));
    res.status(429).json({ status: false, message });
  };
}

/**
 * /api: keyed by the verified shop (never by a client-supplied header), so
 * one shop cannot starve the others.
 */
export function rateLimitPerShop(perMinute: number): RequestHandler {
  return limited(
    (_req, res) => shopOf(res),
    perMinute,
    'Too many requests. Please wait a moment and try again.',
  );
}

/**
 * The routes that carry no session (install, verify, reinstall, the OAuth
 * callback, webhooks): keyed by the client address. `req.ip` honours
 * X-Forwarded-For only for the proxy hops TRUST_PROXY_HOPS names, so a
 * forged header buys nothing.
 */
export function rateLimitPerClient(perMinute: number): RequestHandler {
  return limited(
    (req) => req.ip ?? req.socket.remoteAddress ?? 'unknown',
    perMinute,
    'Too many requests from this address. Please wait a minute and try again.',
  );
}
