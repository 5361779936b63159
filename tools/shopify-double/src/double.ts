import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CarrierServicesDouble } from './carrier-services';
import { runCheckout, type CheckoutRates } from './checkout';
import { handleControl, CONTROL_PREFIX, type StoreSettings, type WeightUnit } from './controls';
import { DeliveryProfilesDouble } from './delivery-profiles';
import { GraphqlDispatcher } from './graphql';
import { signBody, signQuery } from './hmac';
import { readBody, SHOP_DOMAIN_HEADER, sendJson } from './http';
import { OAuthDouble } from './oauth';
import { BULK_FILES_PATH, BulkOperationsDouble } from './bulk-operations';
import { PRODUCT_TEXT_FIELDS, ProductsDouble, productTextPage } from './products';

const SHOP = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;
const GRAPHQL_PATH = /^\/admin\/api\/(\d{4}-\d{2}|unstable)\/graphql\.json$/;

export interface ShopifyDoubleOptions {
  apiKey: string;
  apiSecret: string;
  /** 0 or unset: a free port. */
  port?: number;
  host?: string;
  /** Lifetime of expiring offline access tokens; Shopify's is 3600 s. */
  accessTokenTtlSeconds?: number;
  /** Scopes token exchange grants (Shopify: those of the app's configuration). */
  scopes?: string;
}

/**
 * Shopify's default money formats of a few currencies (Settings > General >
 * Store currency); another code gets "{{amount}} CODE".
 */
const MONEY_FORMATS: Record<string, string> = {
  USD: '${{amount}}',
  CAD: '${{amount}}',
  EUR: '€{{amount_with_comma_separator}}',
  GBP: '£{{amount}}',
  JPY: '¥{{amount_no_decimals}}',
};

export interface ShopCurrency {
  currencyCode: string;
  moneyFormat: string;
}

/** A shop's currency in the double: USD unless a test or SHOPIFY_DOUBLE_SHOP_CURRENCIES says otherwise. */
export function shopCurrency(code = 'USD'): ShopCurrency {
  return { currencyCode: code, moneyFormat: MONEY_FORMATS[code] ?? `{{amount}} ${code}` };
}

/** A stable numeric id per shop domain, as Shopify's shop ids are. */
export function shopNumber(shop: string): number {
  let n = 7;
  for (const c of shop) n = (n * 31 + c.charCodeAt(0)) % 2_147_483_647;
  return n;
}

/**
 * The body Shopify sends for a topic: the shop resource for app/uninstalled,
 * `shop_id` and `shop_domain` (plus the customer) for the compliance topics.
 */
export function webhookPayload(topic: string, shop: string): Record<string, unknown> {
  const id = shopNumber(shop);
  switch (topic) {
    case 'app/uninstalled':
      return {
        id,
        name: shop.replace(/\.myshopify\.com$/, ''),
        email: `owner@${shop}`,
        domain: shop,
        myshopify_domain: shop,
        currency: 'USD',
        plan_name: 'basic',
      };
    case 'app/scopes_update':
      return {
        id,
        previous: ['read_products'],
        current: ['read_products', 'write_shipping'],
        updated_at: new Date().toISOString(),
      };
    case 'customers/data_request':
      return {
        shop_id: id,
        shop_domain: shop,
        orders_requested: [],
        customer: { id: 1, email: 'buyer@example.com', phone: null },
        data_request: { id: 1 },
      };
    case 'customers/redact':
      return {
        shop_id: id,
        shop_domain: shop,
        customer: { id: 1, email: 'buyer@example.com', phone: null },
        orders_to_redact: [],
      };
    default:
      return { shop_id: id, shop_domain: shop };
  }
}

/**
 * A checkout's rate request as Shopify sends it to a carrier service: one
 * line of a 1 kg product at 25.00 to Ottawa, unless `rate` says otherwise.
 */
export function carrierRateRequest(rate: Record<string, unknown> = {}): { rate: unknown } {
  return {
    rate: {
      origin: { country: 'CA', postal_code: 'K2P1L4', province: 'ON', city: 'Ottawa' },
      destination: { country: 'CA', postal_code: 'K1M1M4', province: 'ON', city: 'Ottawa' },
      items: [
        {
          name: 'Short Sleeve T-Shirt',
          sku: '',
          quantity: 1,
          grams: 1000,
          price: 2500,
          vendor: 'Ratesmith Demo',
          requires_shipping: true,
          taxable: true,
          fulfillment_service: 'manual',
          product_id: 48447225880,
          variant_id: 258644705304,
        },
      ],
      currency: 'USD',
      locale: 'en',
      ...rate,
    },
  };
}

export type ShopifyDouble = Awaited<ReturnType<typeof startShopifyDouble>>;

/**
 * One local HTTP server standing in for every shop's
 * `https://<shop>.myshopify.com`. The app's transport sends the shop in the
 * `x-shopify-shop-domain` header; a browser (the authorize page) sends it as
 * the `shop` query parameter. Module files register their Admin GraphQL
 * operations with `graphql.register` below.
 */
/** The double's store time zone until a test sets another (setStore's `timezone`). */
export const DEFAULT_TIMEZONE = 'UTC';

export async function startShopifyDouble(options: ShopifyDoubleOptions) {
  const oauth = new OAuthDouble({
    apiKey: options.apiKey,
    apiSecret: options.apiSecret,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 3600,
    defaultScope: options.scopes ?? 'read_products,write_shipping',
  });
  const graphql = new GraphqlDispatcher();
  const carrierServices = new CarrierServicesDouble(graphql);
  const products = new ProductsDouble();
  graphql.register('products', (variables, ctx) => products.respond('products', variables, ctx));
  graphql.register('nodes', (variables, ctx) => products.respond('nodes', variables, ctx));
  graphql.register('product', (variables, ctx) => products.respond('product', variables, ctx));
  for (const field of Object.keys(PRODUCT_TEXT_FIELDS) as (keyof typeof PRODUCT_TEXT_FIELDS)[])
    graphql.register(field, (_v, { shop, args = {} }) => ({
      data: { [field]: productTextPage(products.catalogOf(shop), field, args) },
    }));
  let baseUrl = '';
  const bulkOperations = new BulkOperationsDouble(
    graphql,
    (shop) => products.catalogOf(shop),
    () => baseUrl,
  );
  const currencies = new Map<string, ShopCurrency>();
  const deliveryProfiles = new DeliveryProfilesDouble(
    graphql,
    carrierServices,
    (shop) => currencies.get(shop)?.currencyCode ?? 'USD',
  );
  // The shop's default weight unit (KILOGRAMS unless a test sets one).
  const weightUnits = new Map<string, WeightUnit>();
  // The store's time zone (Shopify: Settings > General), UTC unless a test sets one.
  const timezones = new Map<string, string>();
  /** The store's settings a merchant would change in Shopify's admin (PUT /__double/shops/<shop>/store). */
  const setStore = (shop: string, settings: StoreSettings): void => {
    if (settings.currency !== undefined) currencies.set(shop, shopCurrency(settings.currency));
    if (settings.weightUnit !== undefined) weightUnits.set(shop, settings.weightUnit);
    if (settings.timezone !== undefined) timezones.set(shop, settings.timezone);
    if (settings.carrierCalculatedShipping !== undefined)
      carrierServices.setCarrierCalculatedShipping(shop, settings.carrierCalculatedShipping);
  };
  // How long every Admin call (token grants, GraphQL) waits before its answer: a real
  // store's round trip is hundreds of milliseconds, the double's a few.
  let latencyMs = 0;
  // `shop { id }` is the cheapest query an app can send (the auth service asks
  // whether its token still works with it); the dispatcher keeps only the
  // fields selected, as Shopify does.
  graphql.register('shop', (_variables, ctx) => {
    const currency = currencies.get(ctx.shop) ?? shopCurrency();
    return {
      data: {
        shop: {
          id: `gid://shopify/Shop/${shopNumber(ctx.shop)}`,
          name: ctx.shop.replace(/\.myshopify\.com$/, ''),
          myshopifyDomain: ctx.shop,
          currencyCode: currency.currencyCode,
          currencyFormats: {
            moneyFormat: currency.moneyFormat,
            moneyInEmailsFormat: currency.moneyFormat,
            moneyWithCurrencyFormat: `${currency.moneyFormat} ${currency.currencyCode}`,
            moneyWithCurrencyInEmailsFormat: `${currency.moneyFormat} ${currency.currencyCode}`,
          },
          weightUnit: weightUnits.get(ctx.shop) ?? 'KILOGRAMS',
          ianaTimezone: timezones.get(ctx.shop) ?? DEFAULT_TIMEZONE,
        },
      },
    };
  });

  /** A simulated checkout: the zone, its own rates for the cart and each carrier service's answer. */
  const checkoutRates = (
    shop: string,
    body: unknown = carrierRateRequest(),
    how: { signed?: boolean } = {},
  ): Promise<CheckoutRates> =>
    runCheckout({
      shop,
      body,
      signed: how.signed !== false,
      apiSecret: options.apiSecret,
      carrierServices,
      deliveryProfiles,
    });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://double.local');
    if (url.pathname === '/healthz') return sendJson(res, 200, { ok: true });
    // A bulk operation's file: its unguessable path is the only key, as a signed URL's.
    if (req.method === 'GET' && url.pathname.startsWith(BULK_FILES_PATH)) {
      const file = bulkOperations.file(
        url.pathname.slice(BULK_FILES_PATH.length, -'.jsonl'.length),
      );
      if (file === undefined) return sendJson(res, 404, { errors: 'Not Found' });
      res.writeHead(200, { 'content-type': 'application/jsonl' });
      return void res.end(file);
    }
    if (url.pathname.startsWith(CONTROL_PREFIX))
      return handleControl(req, res, url, { deliveryProfiles, checkoutRates, setStore });
    const header = req.headers[SHOP_DOMAIN_HEADER];
    const shop = (
      typeof header === 'string' ? header : (url.searchParams.get('shop') ?? '')
    ).toLowerCase();
    if (!SHOP.test(shop)) return sendJson(res, 404, { errors: 'Not Found' });
    if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));

    if (req.method === 'GET' && url.pathname === '/admin/oauth/authorize')
      return oauth.authorize(shop, url, res);
    if (req.method === 'POST' && url.pathname === '/admin/oauth/access_token')
      return oauth.accessToken(shop, req, res);
    if (req.method === 'POST' && GRAPHQL_PATH.test(url.pathname)) {
      // Read first so a failure can be for one document; a body too large is refused below.
      const text = await readBody(req).catch(() => null);
      const failure = graphql.takeFailure(shop, text ?? '');
      if (failure) return sendJson(res, failure.status, failure.body, failure.headers);
      const token = req.headers['x-shopify-access-token'];
      const grant = typeof token === 'string' ? oauth.grantOfAccessToken(token) : undefined;
      if (grant?.shop !== shop)
        return sendJson(res, 401, {
          errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
        });
      let body: { query?: unknown; variables?: unknown };
      try {
        if (text === null) throw new Error('body too large');
        body = JSON.parse(text) as typeof body;
      } catch {
        return sendJson(res, 400, { errors: [{ message: 'The request body is not valid JSON' }] });
      }
      const scopes = grant.scope.split(',').map((x) => x.trim());
      const reply = await graphql.dispatch(shop, body ?? {}, scopes);
      return sendJson(res, reply.status, reply.body, reply.headers);
    }
    sendJson(res, 404, { errors: 'Not Found' });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) sendJson(res, 500, { errors: `double failed: ${err.message}` });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${options.host ?? '127.0.0.1'}:${port}`;
  const url = baseUrl;

  return {
    url,
    port,
    oauth,
    graphql,
    carrierServices,
    /** Each shop's delivery profiles and zones; `addCarrierToZones` is the merchant's step 2026-10 needs. */
    deliveryProfiles,
    /** The store catalogs (the demo catalog unless a test sets one) and their throttle/fail controls. */
    products,
    /** Bulk query operations (the products export) and their controls. */
    bulkOperations,
    /** The shop's store currency (Shopify: Settings > General), USD until set. */
    setCurrency(shop: string, currency: ShopCurrency): void {
      currencies.set(shop, currency);
    },
    /** Sets a shop's default weight unit, as the merchant would in Shopify's settings. */
    setWeightUnit(shop: string, unit: WeightUnit): void {
      weightUnits.set(shop, unit);
    },
    /** Currency, weight unit and carrier plan of a shop at once: what the HTTP control `PUT .../store` does. */
    setStore,
    /** Every later Admin call (token grants, GraphQL) answers `ms` later; 0 for at once. */
    setLatency(ms: number): void {
      latencyMs = ms;
    },
    /** The merchant uninstalls: tokens stop working, the app's carrier services (and their place in zones) go. */
    uninstall(shop: string): void {
      oauth.revoke(shop);
      carrierServices.clear(shop);
    },
    /**
     * A checkout of the shop, as Shopify runs it from Admin API 2026-10 on:
     * the destination's zone in the General profile decides, and only the
     * active carrier services with an active participant method definition
     * there are asked (the rate request POSTed to the callback URL with the
     * shop's domain and, unless `signed` is false, the body's HMAC). Every
     * other service is not called: an empty answer. `checkoutRates` also
     * returns the zone and its own rates.
     */
    async checkout(
      shop: string,
      body: unknown = carrierRateRequest(),
      how: { signed?: boolean } = {},
    ): Promise<{ service: string; status: number; body: unknown }[]> {
      return (await checkoutRates(shop, body, how)).carrierRates;
    },
    checkoutRates,
    /** Query parameters of an admin link into the app (install, reinstall), signed like Shopify's. */
    signedQuery(params: Record<string, string>): Record<string, string> {
      return { ...params, hmac: signQuery(params, options.apiSecret) };
    },
    /**
     * Delivers a webhook to the app as Shopify would (headers, body HMAC);
     * the body is the topic's usual payload unless one is given. `hmac`
     * overrides the signature (tests of tampering).
     */
    async sendWebhook(
      address: string,
      topic: string,
      shop: string,
      payload: unknown = webhookPayload(topic, shop),
      extra: { hmac?: string; webhookId?: string } = {},
    ): Promise<Response> {
      const body = JSON.stringify(payload);
      return fetch(address, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shopify-topic': topic,
          'x-shopify-shop-domain': shop,
          'x-shopify-api-version': '2026-10',
          'x-shopify-webhook-id': extra.webhookId ?? crypto.randomUUID(),
          'x-shopify-triggered-at': new Date().toISOString(),
          'x-shopify-hmac-sha256': extra.hmac ?? signBody(body, options.apiSecret),
        },
        body,
        signal: AbortSignal.timeout(5000),
      });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
