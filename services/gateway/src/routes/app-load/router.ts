import type { authV1 } from '@ratesmith/contracts';
import { SHOP_DOMAIN, type ClientOf } from '@ratesmith/kit';
import type { Request, RequestHandler } from 'express';
import { adminQuerySigned, type GatewayShopify } from '../../auth/shopify';
import type { InstalledShops } from '../../auth/installed-shops';
import { ctx, traced } from '../../http/context';
import { escapeHtml } from '../../http/html';

/** The script that takes a framed page to the top window (no inline script: the CSP forbids it). */
export const ESCAPE_SCRIPT_PATH = '/escape-frame.js';
const ESCAPE_SCRIPT = `(function () {
  var meta = document.querySelector('meta[name="ratesmith-redirect"]');
  if (meta) window.open(meta.getAttribute('content'), '_top');
})();
`;

/** The query of a signed admin link, one value per name; undefined when a name repeats. */
function signedParams(req: Request): Record<string, string> | undefined {
  const raw = req.originalUrl.split('?')[1] ?? '';
  if (raw.length > 4096) return undefined;
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    if (key in params) return undefined;
    params[key] = value;
  }
  return params;
}

/**
 * GET / with Shopify's signed parameters (`shop`, `hmac`, `timestamp`,
 * `host`) for a shop that has not installed the app: the merchant is sent
 * to the shop's authorize page. Top-level, a redirect; inside the admin's
 * frame (`embedded=1`), a page whose script asks App Bridge to open the
 * URL in the top window (Shopify's authorize page refuses to be framed).
 * Anything else (an installed shop, a link that does not verify) falls
 * through to the app shell, which authenticates itself with session tokens.
 */
export function signedInstallRequest(deps: {
  auth: ClientOf<typeof authV1.AuthService>;
  shopify: GatewayShopify;
  installed: InstalledShops;
  appBridgeTags: string;
}): RequestHandler {
  return async (req, res, next) => {
    try {
      if (req.method !== 'GET' || req.path !== '/' || req.query.hmac === undefined) return next();
      const params = signedParams(req);
      const shop = params?.shop ?? '';
      if (!params || !SHOP_DOMAIN.test(shop) || !(await adminQuerySigned(deps.shopify, params)))
        return next();
      if (await deps.installed.isInstalled(shop, ctx(res).requestId)) return next();
      const { url } = await deps.auth.call('beginOAuth', { shop }, traced(res));
      res.setHeader('cache-control', 'no-store');
      if (params.embedded !== '1') {
        res.redirect(302, url);
        return;
      }
      res
        .type('html')
        .send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8">${deps.appBridgeTags}` +
            `<meta name="ratesmith-redirect" content="${escapeHtml(url)}">` +
            `<title>Ratesmith</title><script src="${ESCAPE_SCRIPT_PATH}"></script></head>` +
            `<body><p>Taking you to Shopify to install Ratesmith…</p></body></html>`,
        );
    } catch (err) {
      next(err);
    }
  };
}

export const escapeScript: RequestHandler = (_req, res) => {
  res.setHeader('cache-control', 'no-cache');
  res.type('application/javascript').send(ESCAPE_SCRIPT);
};
