import type { authV1 } from '@ratesmith/contracts';
import { SHOP_DOMAIN, type ClientOf } from '@ratesmith/kit';
import type { Request, RequestHandler, Response } from 'express';
import { adminQuerySigned, type GatewayShopify } from '../../auth/shopify';
import type { InstalledShops } from '../../auth/installed-shops';
import type { SessionTokenVerifier } from '../../auth/session-token';
import { ctx, traced } from '../../http/context';
import { escapeHtml } from '../../http/html';

/** The script that takes a framed page to the top window (no inline script: the CSP forbids it). */
export const ESCAPE_SCRIPT_PATH = '/escape-frame.js';
const ESCAPE_SCRIPT = `(function () {
  var meta = document.querySelector('meta[name="ratesmith-redirect"]');
  if (meta) window.open(meta.getAttribute('content'), '_top');
})();
`;

/** Longest query read on a document load (Shopify's, id_token included, is about 1 KB). */
const MAX_QUERY_LENGTH = 4096;
/** Longest `id_token` verified (an App Bridge token is well under 1 KB). */
export const MAX_ID_TOKEN_LENGTH = 2048;

/** The query of a document load, one value per name; undefined when a name repeats or it is too long. */
function loadParams(req: Request): Record<string, string> | undefined {
  const raw = req.originalUrl.split('?')[1] ?? '';
  if (raw.length > MAX_QUERY_LENGTH) return undefined;
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    if (key in params) return undefined;
    params[key] = value;
  }
  return params;
}

/**
 * Inside the admin's frame: Shopify's own load says so with `embedded=1` and
 * an `id_token`; the browser says so with `Sec-Fetch-Dest: iframe`.
 */
function isFramed(req: Request, params: Record<string, string>): boolean {
  return (
    params.embedded === '1' ||
    params.id_token !== undefined ||
    req.headers['sec-fetch-dest'] === 'iframe'
  );
}

export interface AppLoadDeps {
  auth: ClientOf<typeof authV1.AuthService>;
  shopify: GatewayShopify;
  installed: InstalledShops;
  verifier: SessionTokenVerifier;
  appBridgeTags: string;
  /** Demo mode runs outside any admin: an unframed open without a shop gets the app as before. */
  demo: boolean;
}

/**
 * GET /, the App URL, before the app shell is served:
 *
 * - Framed (the admin opens the app; docs/shopify.md "Which path serves
 *   which install"): a shop without a usable token trades the load's
 *   `id_token` for one here (verified as /api verifies session tokens, and
 *   naming the load's shop), then the shell is served. Managed install
 *   promises no redirects, so a framed load is never sent to OAuth, not even
 *   when it carries no usable `id_token` (the shell's first /api call brings
 *   a fresh session token, and the exchange happens there). One exception,
 *   today's behaviour kept: when Shopify refuses the exchange of a genuine
 *   `id_token` on a load whose query it signed, the shop has no grant
 *   (an app still on the legacy install flow, where a grant comes only from
 *   the code flow), so the top window goes to the shop's authorize page.
 * - Unframed with Shopify's signed parameters, for a shop that has not
 *   installed the app (a legacy install, a link from the Partner
 *   dashboard): a redirect to the shop's authorize page.
 * - Unframed without a shop (someone opened the App URL, the App Store's
 *   listing links to it): a page saying how to open Ratesmith from the admin.
 * - Anything else (an installed shop, a link that does not verify) gets the
 *   app shell, which authenticates itself with session tokens.
 */
export function appLoad(deps: AppLoadDeps): RequestHandler {
  return async (req, res, next) => {
    try {
      if (req.method !== 'GET' || req.path !== '/') return next();
      const params = loadParams(req);
      if (!params) return next();
      const shop = params.shop ?? '';
      const framed = isFramed(req, params);
      if (!shop && !framed && !deps.demo) return openFromAdminPage(res);
      if (!SHOP_DOMAIN.test(shop)) return next();
      if (framed) {
        const refused = (await installFromIdToken(deps, res, shop, params.id_token)) === 'refused';
        if (refused && (await adminQuerySigned(deps.shopify, params)))
          return await toAuthorizePage(deps, res, shop, true);
        return next();
      }
      if (params.hmac === undefined || !(await adminQuerySigned(deps.shopify, params)))
        return next();
      if (await deps.installed.isInstalled(shop, ctx(res).requestId)) return next();
      await toAuthorizePage(deps, res, shop, false);
    } catch (err) {
      next(err);
    }
  };
}

/**
 * A framed load's shop gets a token from the load's `id_token` when it has
 * none ('ready' then, or already), 'refused' when Shopify refused a genuine
 * one, 'skipped' when there was nothing usable to exchange or the exchange
 * could not be made now (the shell's /api calls try again).
 */
async function installFromIdToken(
  deps: AppLoadDeps,
  res: Response,
  shop: string,
  idToken: string | undefined,
): Promise<'ready' | 'refused' | 'skipped'> {
  // Cheap checks first: nothing reaches NATS for a token that does not verify.
  if (!idToken || idToken.length > MAX_ID_TOKEN_LENGTH) return 'skipped';
  const session = await deps.verifier.sessionOf(idToken);
  if (session?.shop !== shop) return 'skipped';
  const { requestId, logger } = ctx(res);
  try {
    if (await deps.installed.isInstalled(shop, requestId)) return 'ready';
    if (await deps.installed.installWithSessionToken(shop, idToken, requestId)) {
      logger.info({ shop }, 'installed from the load id_token (token exchange)');
      return 'ready';
    }
    logger.warn({ shop }, 'Shopify refused to exchange the load id_token');
    return 'refused';
  } catch (err) {
    // Auth or Shopify unavailable: the shell still loads, and its /api calls retry the exchange.
    logger.warn({ shop, err: (err as Error).message }, 'token exchange on load failed');
    return 'skipped';
  }
}

/** The shop's authorize page: a redirect, or from inside the frame a page that opens it on top. */
async function toAuthorizePage(
  deps: AppLoadDeps,
  res: Response,
  shop: string,
  framed: boolean,
): Promise<void> {
  const { url } = await deps.auth.call('beginOAuth', { shop }, traced(res));
  res.setHeader('cache-control', 'no-store');
  if (!framed) {
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
}

/**
 * The App URL opened outside the admin with no shop: Ratesmith runs inside
 * the Shopify admin, so say how to get there. Installs from the App Store
 * never come here (Shopify installs and opens the app in the admin); the
 * install page is only for a direct install by link. No script at all.
 */
export const OPEN_FROM_ADMIN_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<title>Ratesmith</title></head><body>' +
  '<main style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5">' +
  '<h1>Ratesmith runs inside your Shopify admin</h1>' +
  '<p>To open it, sign in to your Shopify admin and choose <strong>Apps</strong>, then <strong>Ratesmith</strong>.</p>' +
  '<p>Not installed yet? Install Ratesmith from the Shopify App Store, or, if you were given a direct install link, ' +
  '<a href="/install">install it with your shop address</a>.</p>' +
  '</main></body></html>';

function openFromAdminPage(res: Response): void {
  res.setHeader('cache-control', 'no-cache');
  res.type('html').send(OPEN_FROM_ADMIN_HTML);
}

export const escapeScript: RequestHandler = (_req, res) => {
  res.setHeader('cache-control', 'no-cache');
  res.type('application/javascript').send(ESCAPE_SCRIPT);
};
