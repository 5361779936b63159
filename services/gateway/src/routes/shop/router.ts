import { SHOPIFY_WEIGHT_UNITS, type authV1, type ShopReply } from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import { Router, type RequestHandler } from 'express';
import { shopOf, traced } from '../../http/context';

/**
 * GET /api/shop: the shop of the session token with its store currency, money
 * format, weight unit and time zone (read from Shopify once by the auth
 * service, then kept), so the admin shows amounts in the shop's currency and
 * delivery dates count in the store's time zone. No input: the shop is the token's.
 */
export function shopRouter(auth: ClientOf<typeof authV1.AuthService>): Router {
  const get: RequestHandler = async (_req, res) => {
    const shop = shopOf(res);
    const reply = await auth.call('getShopCurrency', { shop }, traced(res));
    res.json({
      status: true,
      shop: {
        shop,
        currency_code: reply.currencyCode,
        money_format: reply.moneyFormat,
        // Shopify's enum; an unknown one (never sent today) leaves the editor's default.
        weight_unit: SHOPIFY_WEIGHT_UNITS[reply.weightUnit] ?? 'kg',
        timezone: reply.ianaTimezone,
      },
    } satisfies ShopReply);
  };
  const router = Router();
  router.get('/', get);
  return router;
}
