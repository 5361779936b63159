import { Router } from 'express';
import { z } from 'zod';
import { parseInput } from '../../http/validate';
import { mintSessionToken } from '../../auth/session-token';

/**
 * Demo mode only (the gateway refuses DEMO_MODE in production, with any but
 * the demo credentials or off loopback, and mounts this router only when it is on): hands out session tokens for the demo shops, as
 * the Shopify admin would, so the app can run on a laptop without Shopify.
 */
export function demoRouter(options: {
  shops: string[];
  apiKey: string;
  apiSecret: string;
}): Router {
  const router = Router();
  const query = z.object({
    shop: z
      .string()
      .trim()
      .toLowerCase()
      .refine((s) => options.shops.includes(s), 'is not a demo shop')
      .default(options.shops[0] ?? ''),
  });
  router.get('/session-token', (req, res) => {
    // Loopback only, even behind a proxy that would forward other clients here.
    const from = req.socket.remoteAddress ?? '';
    if (!(from === '::1' || from.startsWith('127.') || from.startsWith('::ffff:127.'))) {
      res.status(403).json({ status: false, message: 'Demo tokens are for this machine only.' });
      return;
    }
    const { shop } = parseInput(query, req.query);
    const token = mintSessionToken({ shop, apiKey: options.apiKey, apiSecret: options.apiSecret });
    res.setHeader('cache-control', 'no-store');
    res.json({ shop, token, expires_in: 60 });
  });
  return router;
}
