import type { RequestHandler } from 'express';
import { AppError } from '@ratesmith/kit';
import { ctx, shopOf } from '../http/context';
import type { InstalledShops } from './installed-shops';
import type { SessionTokenVerifier } from './session-token';

const INVALID_SESSION = 'Your session is not valid. Please reload the app from your Shopify admin.';

/** Shopify's headers for "take the merchant out of the frame to authorize again". */
export const REAUTHORIZE_HEADER = 'X-Shopify-API-Request-Failure-Reauthorize';
export const REAUTHORIZE_URL_HEADER = 'X-Shopify-API-Request-Failure-Reauthorize-Url';

/**
 * Every /api call: a valid App Bridge session token of an installed shop (a
 * shop without a usable token is installed on the spot by token exchange).
 * The shop comes from the token only. It runs before the body is read, so
 * a caller without a session costs no parsing. All token failures look the
 * same (one body), but a valid session whose shop Shopify refuses to
 * exchange (grant revoked, scopes changed) also gets the shop's authorize
 * URL in Shopify's re-authorize headers, so the admin takes the merchant
 * there instead of leaving them on an error.
 */
export function requireSession(
  verifier: SessionTokenVerifier,
  installed: InstalledShops,
  authorizeUrl: (shop: string, requestId: string) => Promise<string>,
): RequestHandler {
  return async (req, res, next) => {
    try {
      const header = req.headers.authorization ?? '';
      const token = /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header)?.[1];
      const session = token ? await verifier.sessionOf(token) : undefined;
      const shop = session?.shop;
      const { requestId } = ctx(res);
      const usable =
        !!shop &&
        ((await installed.isInstalled(shop, requestId)) ||
          (await installed.installWithSessionToken(shop, token!, requestId)));
      if (!shop || !usable) {
        res.setHeader('X-Shopify-Retry-Invalid-Session-Request', '1');
        if (shop) {
          res.setHeader(REAUTHORIZE_HEADER, '1');
          res.setHeader(REAUTHORIZE_URL_HEADER, await authorizeUrl(shop, requestId));
        }
        throw new AppError('unauthorized', INVALID_SESSION);
      }
      ctx(res).shop = shop;
      ctx(res).user = session?.user;
      ctx(res).logger = ctx(res).logger.child({ shop });
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** After the body is parsed: a `shop` in the query or body naming another shop is refused, never used. */
export const refuseOtherShop: RequestHandler = (req, res, next) => {
  const shop = shopOf(res);
  for (const claimed of [req.query.shop, (req.body as { shop?: unknown } | undefined)?.shop]) {
    // Anything but the session's shop as text (another shop, a list, an object) is refused.
    if (
      claimed !== undefined &&
      (typeof claimed !== 'string' || claimed.trim().toLowerCase() !== shop)
    ) {
      next(new AppError('forbidden', 'This request names a different shop than your session.'));
      return;
    }
  }
  next();
};
