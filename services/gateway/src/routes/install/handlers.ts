import { INSTALL_MESSAGES, type authV1 } from '@ratesmith/contracts';
import { AppError, KeyedRateLimiter, type ClientOf } from '@ratesmith/kit';
import type { RequestHandler, Response } from 'express';
import { adminQuerySigned, type GatewayShopify } from '../../auth/shopify';
import { traced } from '../../http/context';
import { installBody, parseInstallInput, reinstallBody, verifyQuery } from './schemas';

const INSTALL_CALLS_PER_MINUTE = 20;

/** The install page's calls: outside the admin frame, so no session token; the shop is checked instead. */
export function installHandlers(
  auth: ClientOf<typeof authV1.AuthService>,
  shopify: GatewayShopify,
) {
  // Each call stores an OAuth state; a shop needs a handful a minute at most.
  const limiter = new KeyedRateLimiter(INSTALL_CALLS_PER_MINUTE);
  /** False (and a 429 sent) when the shop made too many attempts. */
  const allowed = (shop: string, res: Response) => {
    const wait = limiter.take(shop);
    if (wait === 0) return true;
    res.setHeader('Retry-After', String(wait));
    res.status(429).json({
      status: false,
      message: 'Too many attempts for this shop. Please wait a minute and try again.',
    });
    return false;
  };

  const install: RequestHandler = async (req, res) => {
    const { shop, email } = parseInstallInput(installBody, req.body);
    if (!allowed(shop, res)) return;
    const { url } = await auth.call('beginInstall', { shop, email }, traced(res));
    res.json({ url });
  };

  const verify: RequestHandler = async (req, res) => {
    const { shop } = parseInstallInput(verifyQuery, req.query);
    if (!allowed(shop, res)) return;
    const { url } = await auth.call('beginOAuth', { shop }, traced(res));
    res.json({ auth_url: url });
  };

  const reinstall: RequestHandler = async (req, res) => {
    let params: Record<string, string>;
    try {
      params = parseInstallInput(reinstallBody, req.body);
    } catch (err) {
      // A bad shop says so; anything else is the generic failure.
      const message = (err as Error).message;
      throw new AppError(
        'invalid_data',
        message === INSTALL_MESSAGES.shopInvalid || message === INSTALL_MESSAGES.shopRequired
          ? message
          : INSTALL_MESSAGES.reinstallFailed,
      );
    }
    if (!(await adminQuerySigned(shopify, params)))
      throw new AppError(
        'unauthorized',
        'This link from Shopify is not valid or has expired. Please open the app from your Shopify admin again.',
      );
    if (!allowed(params.shop!, res)) return;
    const { url } = await auth.call('beginOAuth', { shop: params.shop! }, traced(res));
    res.json({ status: true, data: { url } });
  };

  return { install, verify, reinstall };
}
