import type { authV1 } from '@ratesmith/contracts';
import { AppError, SHOP_DOMAIN, type ClientOf } from '@ratesmith/kit';
import { Router } from 'express';
import { traced } from '../../http/context';
import { adminQuerySigned, embeddedAppUrl, type GatewayShopify } from '../../auth/shopify';
import { SHOPIFY_BACKED_TIMEOUT_MS } from '../../shopify-backed-calls';

const NOT_VERIFIED =
  'The request from Shopify could not be verified. Please start the installation again.';

/**
 * GET /auth/callback: Shopify's OAuth redirect. The HMAC, the timestamp and
 * the shop are checked here, and only here (the library's check, with every
 * configured secret; cheap, before any NATS call and before the single-use
 * state is spent); the auth service then consumes the state and exchanges
 * the code (`services/auth/src/shopify/oauth-callback.ts`). On success the
 * merchant lands in the app inside the Shopify admin.
 */
export function oauthRouter(
  auth: ClientOf<typeof authV1.AuthService>,
  shopify: GatewayShopify,
  options: { demo: boolean },
): Router {
  const router = Router();
  router.get('/callback', async (req, res) => {
    const raw = req.originalUrl.split('?')[1] ?? '';
    if (raw.length > 4096) throw new AppError('invalid_data', NOT_VERIFIED);
    const params: Record<string, string> = {};
    for (const [key, value] of new URLSearchParams(raw)) {
      // A repeated parameter is never part of a genuine callback.
      if (key in params) throw new AppError('invalid_data', NOT_VERIFIED);
      params[key] = value;
    }
    if (!SHOP_DOMAIN.test(params.shop ?? '') || !params.code || !params.state)
      throw new AppError('invalid_data', NOT_VERIFIED);
    if (!(await adminQuerySigned(shopify, params)))
      throw new AppError('unauthorized', NOT_VERIFIED);
    // The code's exchange, then the carrier service's set-up: several Shopify calls.
    const { shop, host } = await auth.call(
      'completeOAuth',
      { query: raw },
      { ...traced(res), timeoutMs: SHOPIFY_BACKED_TIMEOUT_MS },
    );
    res.setHeader('cache-control', 'no-store');
    res.redirect(302, intoTheAdmin(shopify, shop, host, options.demo));
  });
  return router;
}

/**
 * Where the merchant goes once installed: the app inside their Shopify admin
 * (the library builds it from the signed `host`). Demo mode has no admin to
 * go to, so the app's own page opens with `shop` and `host`.
 */
function intoTheAdmin(shopify: GatewayShopify, shop: string, host: string, demo: boolean): string {
  if (demo) return `/?${new URLSearchParams({ shop, host }).toString()}`;
  try {
    return embeddedAppUrl(shopify, host);
  } catch {
    throw new AppError('invalid_data', NOT_VERIFIED);
  }
}
