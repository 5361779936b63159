import type { Request, RequestHandler, Response } from 'express';
import { isIPv4, isIPv6 } from 'node:net';
import { KeyedRateLimiter, SHOP_BUCKETS_KEPT } from '@ratesmith/kit';
import { shopOf } from './context';

function limited(
  keyOf: (req: Request, res: Response) => string,
  perMinute: number,
  message: string,
  maxKeys?: number,
): RequestHandler {
  const limiter = new KeyedRateLimiter(perMinute, Date.now, maxKeys);
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
    SHOP_BUCKETS_KEPT,
  );
}

/**
 * The key a client address is counted under: an IPv4 address itself (also when
 * written IPv4-mapped, `::ffff:192.0.2.1`), an IPv6 address by its /64, the
 * smallest network a host is given, so one host cannot take a fresh budget
 * (and push others' buckets out) with every address of its network.
 */
export function clientAddressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}

/**
 * The routes that carry no session (install, verify, reinstall, the OAuth
 * callback, webhooks): keyed by the client address. `req.ip` honours
 * X-Forwarded-For only for the proxy hops TRUST_PROXY_HOPS names, so a
 * forged header buys nothing.
 */
export function rateLimitPerClient(perMinute: number): RequestHandler {
  return limited(
    (req) => clientAddressKey(req.ip ?? req.socket.remoteAddress ?? 'unknown'),
    perMinute,
    'Too many requests from this address. Please wait a minute and try again.',
  );
}
