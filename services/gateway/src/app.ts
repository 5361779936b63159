import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Express, type RequestHandler, type Router } from 'express';
import type { authV1, catalogV1, rateEngineV1, rulesV1 } from '@ratesmith/contracts';
import { LANE_MIN_BYTES, type ClientOf, type Logger } from '@ratesmith/kit';
import { InstalledShops } from './auth/installed-shops';
import { refuseOtherShop, requireSession } from './auth/session';
import { SessionTokenVerifier } from './auth/session-token';
import { gatewayShopify } from './auth/shopify';
import type { GatewayConfig } from './config';
import { errorHandler, notFound, refuseNulInUrl } from './http/errors';
import { escapeHtml } from './http/html';
import { shedLoadPast } from './http/load-shedding';
import { compressedText, hashedAssets, sendRepresentation } from './http/static-files';
import { heavyCallsPerShop, PREVIEW_BUSY } from './http/heavy-calls';
import { rateLimitPerClient, rateLimitPerShop } from './http/rate-limit';
import { requestContext } from './http/request-context';
import { requireJsonBody, securityHeaders } from './http/security-headers';
import { apiJsonBody } from './http/json-body';
import { demoRouter } from './routes/demo/router';
import { globalRulesRouter } from './routes/global-rules/router';
import { installRouter } from './routes/install/router';
import { oauthRouter } from './routes/oauth/router';
import { webhooksRouter } from './routes/webhooks/router';
import { appLoad, ESCAPE_SCRIPT_PATH, escapeScript } from './routes/app-load/router';
import { productRulesRouter } from './routes/product-rules/router';
import { productTextsRouter } from './routes/product-texts/router';
import { ratePreviewRouter } from './routes/rate-preview/router';
import { testCheckoutRouter } from './routes/test-checkout/router';
import { configRouter } from './routes/config/router';
import { settingsRouter } from './routes/settings/router';
import { analyticsRouter } from './routes/analytics/router';
import { checkoutOutcomesRouter } from './routes/checkout-outcomes/router';
import { recentCheckoutsRouter } from './routes/recent-checkouts/router';
import { carrierServiceRouter } from './routes/carrier-service/router';
import { shopRouter } from './routes/shop/router';
import { shippingZonesRouter } from './routes/shipping-zones/router';
import { shadowRouter } from './routes/shadow/router';
import { shippingImportRouter } from './routes/shipping-import/router';
import { activityRouter } from './routes/activity/router';
import { vitalsRouter } from './routes/vitals/router';
import { createWebVitalsMetrics } from './routes/vitals/metrics';

/**
 * The middleware of a heavy route that hands it to the gateway's lane
 * (./lane/proxy.ts) when the lane is ready and the body has at least
 * `minBytes` (0: any; no length said: handed over), else `next()`.
 */
export type LaneProxy = (minBytes: number) => RequestHandler;

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  rules: ClientOf<typeof rulesV1.RulesService>;
  auth: ClientOf<typeof authV1.AuthService>;
  catalog: ClientOf<typeof catalogV1.CatalogService>;
  rateEngine: ClientOf<typeof rateEngineV1.RateEngineService>;
  /** The heavy calls handed to the gateway's lane (./lane/proxy.ts); none: all answered here. */
  lane?: LaneProxy;
}

/** The public HTTP entry: the admin's /api, install, OAuth, webhooks, the demo token endpoint, the frontend. */
export function createGateway(deps: GatewayDeps): Express {
  const { config, logger, auth, catalog } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.use(requestContext(logger));
  app.use(shedLoadPast(config.MAX_IN_FLIGHT));
  app.use(refuseNulInUrl);
  app.use(
    securityHeaders({
      https: config.APP_URL.startsWith('https://'),
      mediaOrigin: config.TRAINING_VIDEO_URL && new URL(config.TRAINING_VIDEO_URL).origin,
    }),
  );

  if (config.DEMO_MODE) {
    app.use(
      '/demo',
      demoRouter({
        shops: config.DEMO_SHOPS,
        apiKey: config.SHOPIFY_API_KEY,
        apiSecret: config.SHOPIFY_API_SECRET,
      }),
    );
  }

  const shopify = gatewayShopify({
    apiKey: config.SHOPIFY_API_KEY,
    apiSecret: config.SHOPIFY_API_SECRET,
    previousApiSecret: config.SHOPIFY_API_SECRET_PREVIOUS,
    appUrl: config.APP_URL,
  });
  // Outside the admin frame: HMAC- and shop-checked instead of session tokens,
  // and bounded per client address since anyone can call them.
  app.set('trust proxy', config.TRUST_PROXY_HOPS);
  const perClient =
    config.PUBLIC_RATE_LIMIT > 0
      ? rateLimitPerClient(config.PUBLIC_RATE_LIMIT)
      : (_req: unknown, _res: unknown, next: () => void) => next();
  app.use(['/auth', '/webhooks', '/api/install', '/api/verify', '/api/reinstall'], perClient);
  app.use('/auth', oauthRouter(auth, shopify, { demo: config.DEMO_MODE }));
  app.use('/webhooks', webhooksRouter({ auth, catalog, shopify }));
  app.use('/api', installRouter(auth, shopify));
  const installed = new InstalledShops(auth, config.INSTALLED_CACHE_MS);
  const verifier = new SessionTokenVerifier(shopify);
  // The App URL's document load: token exchange for a framed first open, OAuth only unframed.
  app.get(ESCAPE_SCRIPT_PATH, escapeScript);
  app.use(
    appLoad({
      auth,
      shopify,
      installed,
      verifier,
      appBridgeTags: appBridgeTags(config),
      demo: config.DEMO_MODE,
    }),
  );

  const api = express.Router();
  api.use((_req, res, next) => {
    res.setHeader('cache-control', 'no-store');
    next();
  });
  // Who is asking first: without a valid session nothing of the body is read.
  api.use(
    requireSession(verifier, installed, async (shop, requestId) => {
      const { url } = await auth.call('beginOAuth', { shop }, { requestId });
      return url;
    }),
  );
  if (config.API_RATE_LIMIT > 0) api.use(rateLimitPerShop(config.API_RATE_LIMIT));
  if (config.HEAVY_CALLS_PER_SHOP > 0) {
    // Before the body is read: a refused call costs nothing but its answer.
    const heavy = heavyCallsPerShop(config.HEAVY_CALLS_PER_SHOP);
    for (const [method, path] of HEAVY_ROUTES) api[method](path, heavy);
    // Previews (a draft of up to 100 x 50 against up to 1,000 lines) run on the engine that
    // answers checkout: their own slots, so a preview never waits for a save or a save for it.
    api.post(PREVIEW_ROUTE, heavyCallsPerShop(config.HEAVY_CALLS_PER_SHOP, PREVIEW_BUSY));
  }
  // The heavy calls' bodies and answers are read, checked and encoded on the lane's thread.
  if (deps.lane) {
    for (const [method, path, minBytes] of HEAVY_ROUTES) api[method](path, deps.lane(minBytes));
    api.post(PREVIEW_ROUTE, deps.lane(LANE_MIN_BYTES));
  }
  api.use(apiRoutes(deps));
  app.use('/api', api);

  serveFrontend(app, config);
  app.use(notFound);
  app.use(errorHandler);
  return app;
}

/**
 * The calls a shop's heavy-call slots bound (Save All, restores, imports, exports),
 * answered on the gateway's lane when it has one (./lane/proxy.ts).
 */
export const HEAVY_ROUTES = [
  // Method, path, and the smallest body the lane takes: a few filters are quicker here.
  ['post', '/global-rules/update/:id', LANE_MIN_BYTES],
  ['post', '/product-rules/update/:id', LANE_MIN_BYTES],
  ['post', '/global-rules/:id/versions/:number/restore', 0],
  ['post', '/product-rules/:id/versions/:number/restore', 0],
  ['post', '/config/import', LANE_MIN_BYTES],
  ['get', '/config/export', 0],
] as const;
/** A rate preview: slots of its own, on the lane too. */
const PREVIEW_ROUTE = '/rate-preview';

/**
 * The /api routes once who is asking is settled (the session, the limits): the
 * gateway's thread serves them, and its lane the heavy ones (./lane/worker.ts).
 */
export function apiRoutes(
  deps: Pick<GatewayDeps, 'config' | 'rules' | 'auth' | 'catalog' | 'rateEngine'>,
): Router {
  const { config, rules, auth, catalog, rateEngine } = deps;
  const api = express.Router();
  api.use(requireJsonBody);
  api.use(apiJsonBody(config.API_BODY_LIMIT));
  api.use(refuseOtherShop);
  api.use('/global-rules', globalRulesRouter(rules));
  api.use('/product-rules', productRulesRouter(rules, catalog, config.CATALOG_REQUEST_TIMEOUT_MS));
  api.use('/settings', settingsRouter(rules));
  api.use('/checkout-outcomes', checkoutOutcomesRouter(rules));
  api.use('/analytics', analyticsRouter(rules));
  api.use('/config', configRouter(rules, catalog, config.CATALOG_REQUEST_TIMEOUT_MS));
  api.use('/product-texts', productTextsRouter(catalog, config.CATALOG_REQUEST_TIMEOUT_MS));
  api.use('/recent-checkouts', recentCheckoutsRouter(rules));
  api.use('/carrier-service', carrierServiceRouter(auth));
  api.use('/shipping-zones', shippingZonesRouter(auth));
  api.use('/shipping-import', shippingImportRouter(auth, rules));
  api.use('/shadow', shadowRouter(auth, rules));
  api.use('/shop', shopRouter(auth));
  api.use('/activity', activityRouter(rules));
  api.use('/rate-preview', ratePreviewRouter(rateEngine));
  // Demo mode only, with the local Shopify double: a production gateway has no such route (404).
  if (config.DEMO_MODE && config.SHOPIFY_API_ORIGIN) {
    api.use(
      '/test-checkout',
      testCheckoutRouter({
        shopifyOrigin: config.SHOPIFY_API_ORIGIN,
        timeoutMs: config.DEMO_CHECKOUT_TIMEOUT_MS,
      }),
    );
  }
  api.use('/vitals', vitalsRouter(createWebVitalsMetrics()));
  api.use(notFound);
  return api;
}

function serveFrontend(app: Express, config: GatewayConfig): void {
  const dist = config.FRONTEND_DIST;
  if (dist && existsSync(join(dist, 'index.html'))) {
    const compress = config.FRONTEND_COMPRESSION;
    const rawHtml = readFileSync(join(dist, 'index.html'), 'utf8');
    // Templated once at startup, so compressed once too.
    const indexHtml = compressedText(frontendIndexHtml(rawHtml, config), HTML);
    const installHtml = compressedText(withHeadTags(rawHtml, trainingVideoTag(config)), HTML);
    // Content-hashed: cached for a year, precompressed by the build, 404 when unknown.
    app.use('/assets', hashedAssets(join(dist, 'assets'), { compress }));
    // The rest of dist (frontend/public: the training video and its captions) keeps
    // its names across builds, so it is cached for an hour only. index.html is only
    // served templated (below), never as the raw file. Range requests (a <video>
    // seeking in /training/*.webm) are answered with 206.
    const files = express.static(dist, { index: false, maxAge: '1h' });
    app.use((req, res, next) => (req.path === '/index.html' ? next() : files(req, res, next)));
    // Client-side routes (/global-rules, /settings, ...) all load the app shell; the
    // install page runs outside the admin, so App Bridge never tries to take it over.
    // A path that names a file (an extension) and was not found above is a 404: a
    // missing script must not get HTML back.
    app.get(/^\/(?!api\/|demo\/).*/, (req, res, next) => {
      if (req.path !== '/index.html' && /\.[a-z0-9]+$/i.test(req.path)) return next();
      // Never cached: the next deploy's index.html names the next build's assets.
      sendRepresentation(
        req,
        res,
        req.path === '/install' ? installHtml : indexHtml,
        'no-cache',
        compress,
      );
    });
    return;
  }
  app.get('/', (_req, res) => {
    res.type('html').send(statusPage(config));
  });
}

const HTML = 'text/html; charset=utf-8';

/**
 * Inside the Shopify admin the page needs App Bridge: the `shopify-api-key`
 * meta tag and Shopify's script, first in <head> (App Bridge requires it to
 * load before any other script). Demo mode runs outside the admin and loads
 * nothing from the internet, so it gets neither; the frontend then asks
 * /demo/session-token for its tokens.
 */
export function frontendIndexHtml(html: string, config: GatewayConfig): string {
  return withHeadTags(html, appBridgeTags(config) + trainingVideoTag(config));
}

function withHeadTags(html: string, tags: string): string {
  return tags ? html.replace(/<head>/i, (head) => `${head}${tags}`) : html;
}

/**
 * TRAINING_VIDEO_URL for the frontend's training video (install page and
 * Dashboard); none when unset, and the frontend plays the walkthrough served
 * from FRONTEND_DIST (/training/ratesmith-walkthrough.webm).
 */
export function trainingVideoTag(config: GatewayConfig): string {
  return config.TRAINING_VIDEO_URL
    ? `<meta name="ratesmith-training-video" content="${escapeHtml(config.TRAINING_VIDEO_URL)}" />`
    : '';
}

/** App Bridge's tags, first in <head>; none in demo mode. */
export function appBridgeTags(config: GatewayConfig): string {
  if (config.DEMO_MODE) return '';
  return (
    `<meta name="shopify-api-key" content="${escapeHtml(config.SHOPIFY_API_KEY)}" />` +
    '<script src="https://cdn.shopify.com/shopifycloud/app-bridge.js"></script>'
  );
}

/** Shown at / until the admin frontend is built into FRONTEND_DIST. */
function statusPage(config: GatewayConfig): string {
  const demo = config.DEMO_MODE
    ? `<p>Demo mode: get a session token for <code>${config.DEMO_SHOPS[0]}</code>, then call the API:</p>
<pre>TOKEN=$(curl -s ${config.APP_URL}/demo/session-token | sed 's/.*"token":"\\([^"]*\\)".*/\\1/')
curl -H "Authorization: Bearer $TOKEN" ${config.APP_URL}/api/global-rules</pre>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ratesmith</title></head>
<body><h1>Ratesmith gateway</h1><p>The API is running. The admin screens are not built into this server (FRONTEND_DIST is not set).</p>${demo}</body></html>`;
}
