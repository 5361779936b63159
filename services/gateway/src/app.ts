import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Express } from 'express';
import type { authV1, catalogV1, rulesV1 } from '@ratesmith/contracts';
import { AppError, type ClientOf, type Logger } from '@ratesmith/kit';
import { InstalledShops } from './auth/installed-shops';
import { requireSession } from './auth/session';
import { SessionTokenVerifier } from './auth/session-token';
import type { GatewayConfig } from './config';
import { errorHandler, notFound } from './http/errors';
import { rateLimitPerShop, ShopRateLimiter } from './http/rate-limit';
import { requestContext } from './http/request-context';
import { requireJsonBody, securityHeaders } from './http/security-headers';
import { jsonDepthExceeds } from './http/validate';
import { demoRouter } from './routes/demo/router';
import { globalRulesRouter } from './routes/global-rules/router';
import { installRouter } from './routes/install/router';
import { oauthRouter } from './routes/oauth/router';
import { webhooksRouter } from './routes/webhooks/router';
import { productRulesRouter } from './routes/product-rules/router';
import { settingsRouter } from './routes/settings/router';

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  rules: ClientOf<typeof rulesV1.RulesService>;
  auth: ClientOf<typeof authV1.AuthService>;
  catalog: ClientOf<typeof catalogV1.CatalogService>;
}

/** The public HTTP entry: the admin's /api, the demo token endpoint, the frontend. */
export function createGateway({ config, logger, rules, auth, catalog }: GatewayDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestContext(logger));
  app.use(securityHeaders({ https: config.APP_URL.startsWith('https://') }));

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

  // Outside the admin frame: HMAC- and shop-checked instead of session tokens.
  app.use('/auth', oauthRouter(auth, config.SHOPIFY_API_SECRET));
  app.use(
    '/webhooks',
    webhooksRouter({
      auth,
      apiKey: config.SHOPIFY_API_KEY,
      apiSecret: config.SHOPIFY_API_SECRET,
      appUrl: config.APP_URL,
    }),
  );
  app.use('/api', installRouter(auth, config.SHOPIFY_API_SECRET));

  const verifier = new SessionTokenVerifier({
    apiKey: config.SHOPIFY_API_KEY,
    apiSecret: config.SHOPIFY_API_SECRET,
    appUrl: config.APP_URL,
  });
  const installed = new InstalledShops(auth, config.INSTALLED_CACHE_MS);
  const api = express.Router();
  api.use((_req, res, next) => {
    res.setHeader('cache-control', 'no-store');
    next();
  });
  api.use(requireJsonBody);
  api.use(express.json({ limit: config.API_BODY_LIMIT, strict: true }));
  api.use((req, _res, next) => {
    next(
      jsonDepthExceeds(req.body)
        ? new AppError('invalid_data', 'The request body is nested too deeply.')
        : undefined,
    );
  });
  api.use(requireSession(verifier, installed));
  if (config.API_RATE_LIMIT > 0)
    api.use(rateLimitPerShop(new ShopRateLimiter(config.API_RATE_LIMIT)));
  api.use('/global-rules', globalRulesRouter(rules));
  api.use('/product-rules', productRulesRouter(rules, catalog, config.CATALOG_REQUEST_TIMEOUT_MS));
  api.use('/settings', settingsRouter(rules));
  api.use(notFound);
  app.use('/api', api);

  serveFrontend(app, config);
  app.use(notFound);
  app.use(errorHandler);
  return app;
}

function serveFrontend(app: Express, config: GatewayConfig): void {
  const dist = config.FRONTEND_DIST;
  if (dist && existsSync(join(dist, 'index.html'))) {
    const indexHtml = frontendIndexHtml(readFileSync(join(dist, 'index.html'), 'utf8'), config);
    // index.html is only served templated (below), never as the raw file.
    const files = express.static(dist, { index: false, maxAge: '1h' });
    app.use((req, res, next) => (req.path === '/index.html' ? next() : files(req, res, next)));
    // Client-side routes (/global-rules, /settings, ...) all load the app shell.
    app.get(/^\/(?!api\/|demo\/).*/, (_req, res) => {
      res.setHeader('cache-control', 'no-cache');
      res.type('html').send(indexHtml);
    });
    return;
  }
  app.get('/', (_req, res) => {
    res.type('html').send(statusPage(config));
  });
}

/**
 * Inside the Shopify admin the page needs App Bridge: the `shopify-api-key`
 * meta tag and Shopify's script, first in <head> (App Bridge requires it to
 * load before any other script). Demo mode runs outside the admin and loads
 * nothing from the internet, so it gets neither; the frontend then asks
 * /demo/session-token for its tokens.
 */
export function frontendIndexHtml(html: string, config: GatewayConfig): string {
  if (config.DEMO_MODE) return html;
  const tags =
    `<meta name="shopify-api-key" content="${escapeHtml(config.SHOPIFY_API_KEY)}" />` +
    '<script src="https://cdn.shopify.com/shopifycloud/app-bridge.js"></script>';
  return html.replace(/<head>/i, (head) => `${head}${tags}`);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
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
