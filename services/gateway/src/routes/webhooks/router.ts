import { SHOP_DOMAIN, type authV1 } from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import express, { Router } from 'express';
import { gatewayShopify } from '../../auth/shopify';
import { ctx, traced } from '../../http/context';

/**
 * POST /webhooks (and /webhooks/<anything>, as shopify.app.toml names
 * them): Shopify's library checks X-Shopify-Hmac-Sha256 over the raw body
 * with the app secret (401 and nothing done when it fails; 400 when headers
 * are missing). The auth service acts on the topic (fast: deletes, and an
 * event for the slow part), then Shopify gets its 200.
 */
export function webhooksRouter(options: {
  auth: ClientOf<typeof authV1.AuthService>;
  apiKey: string;
  apiSecret: string;
  appUrl: string;
}): Router {
  const shopify = gatewayShopify(options);
  const router = Router();
  router.post(/^\/(.*)?$/, express.text({ type: '*/*', limit: '512kb' }), async (req, res) => {
    const rawBody = typeof req.body === 'string' ? req.body : '';
    const check = await shopify.webhooks.validate({ rawBody, rawRequest: req, rawResponse: res });
    if (!check.valid) {
      const status = check.reason === 'invalid_hmac' ? 401 : 400;
      ctx(res).logger.warn({ reason: check.reason }, 'webhook refused');
      res.status(status).json({ status: false, message: 'Webhook could not be verified.' });
      return;
    }
    const shop = check.domain.toLowerCase();
    if (!SHOP_DOMAIN.test(shop)) {
      res.status(400).json({ status: false, message: 'Webhook names no valid shop.' });
      return;
    }
    // The library keeps the topic as APP_UNINSTALLED; the header has the original app/uninstalled.
    const header = req.headers['x-shopify-topic'] ?? req.headers['shopify-topic'];
    const topic = String(header ?? '').toLowerCase();
    await options.auth.call(
      'handleWebhook',
      { topic, shop, webhookId: check.webhookId },
      traced(res),
    );
    res.status(200).json({ status: true });
  });
  return router;
}
