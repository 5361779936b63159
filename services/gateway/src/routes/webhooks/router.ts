import type { authV1, catalogV1 } from '@ratesmith/contracts';
import { SHOP_DOMAIN, type ClientOf } from '@ratesmith/kit';
import express, { Router, type Response } from 'express';
import { validateWebhook, type GatewayShopify } from '../../auth/shopify';
import { ctx, traced } from '../../http/context';
import {
  deliveryProblem,
  isProductTopic,
  isWebhookTopic,
  payloadFits,
  productIdOf,
} from './payload';

/**
 * Compliance payloads are a few hundred bytes; the shop resource a few KB; a
 * product's is cut to its id and updated_at by the subscription's
 * `include_fields` (shopify.app.toml).
 */
const WEBHOOK_BODY_LIMIT = '64kb';
/** Shopify waits 5 s for the answer; a refresh still running then is retried by Shopify. */
const PRODUCT_REFRESH_TIMEOUT_MS = 4000;

/**
 * POST /webhooks (and /webhooks/<anything>, as shopify.app.toml names
 * them). Refused, with nothing done: missing Shopify headers (400), a bad
 * X-Shopify-Hmac-Sha256 over the raw body (401), a topic Ratesmith does not
 * subscribe to (400), a body that is not a webhook payload naming the
 * header's shop (401: the same secret signs session tokens and admin links,
 * so their signatures must not pass for a webhook), a webhook id over 64
 * characters or an X-Shopify-Triggered-At older than 48 hours (400: no
 * retry of Shopify's is that old, so it is a replay). The auth service then
 * acts on the topic once per X-Shopify-Webhook-Id and Shopify gets its 200;
 * a product topic instead has the catalog read the product again (reading is
 * idempotent, so a repeated delivery needs no memory of ids).
 */
export function webhooksRouter(options: {
  auth: ClientOf<typeof authV1.AuthService>;
  catalog: ClientOf<typeof catalogV1.CatalogService>;
  shopify: GatewayShopify;
}): Router {
  const { shopify } = options;
  const router = Router();
  const refuse = (res: Response, status: number, reason: string) => {
    ctx(res).logger.warn({ reason }, 'webhook refused');
    res.status(status).json({ status: false, message: 'Webhook could not be verified.' });
  };
  router.post(
    /^\/(.*)?$/,
    express.text({ type: '*/*', limit: WEBHOOK_BODY_LIMIT }),
    async (req, res) => {
      const rawBody = typeof req.body === 'string' ? req.body : '';
      const check = await validateWebhook(shopify, { rawBody, rawRequest: req, rawResponse: res });
      if (!check.valid) {
        refuse(res, check.reason === 'invalid_hmac' ? 401 : 400, check.reason);
        return;
      }
      // The library keeps the topic as APP_UNINSTALLED; the header has the original app/uninstalled.
      const topic = String(req.headers['x-shopify-topic'] ?? '').toLowerCase();
      if (!isWebhookTopic(topic)) {
        refuse(res, 400, 'topic not subscribed');
        return;
      }
      const triggered = req.headers['x-shopify-triggered-at'];
      const problem = deliveryProblem(
        check.webhookId,
        typeof triggered === 'string' ? triggered : undefined,
      );
      if (problem) {
        refuse(res, 400, problem);
        return;
      }
      const shop = check.domain.toLowerCase();
      if (!SHOP_DOMAIN.test(shop) || !payloadFits(topic, rawBody, shop)) {
        refuse(res, 401, 'body does not name the header shop');
        return;
      }
      if (isProductTopic(topic)) {
        await options.catalog.call(
          'refreshProducts',
          { shop, productIds: [productIdOf(rawBody)!] },
          { ...traced(res), timeoutMs: PRODUCT_REFRESH_TIMEOUT_MS },
        );
      } else {
        await options.auth.call(
          'handleWebhook',
          { topic, shop, webhookId: check.webhookId },
          traced(res),
        );
      }
      res.status(200).json({ status: true });
    },
  );
  return router;
}
