import { authV1, rulesV1 } from '@ratesmith/contracts';
import {
  AppError,
  ensureEventsStream,
  retryStartup,
  requireShopDomain,
  RpcClient,
  serveRpc,
  type Connection,
  type Logger,
  type NatsConnection,
} from '@ratesmith/kit';
import { shopifyLibrary } from '@ratesmith/kit/shopify';
import type { AuthConfig } from './config';
import { OAuthStatesRepository } from './data/oauth-states.repository';
import { ShopsRepository } from './data/shops.repository';
import { TokensRepository } from './data/tokens.repository';
import { WebhookDeliveriesRepository } from './data/webhook-deliveries.repository';
import { CarrierKeeper, type CarrierStatus } from './install/carrier-keeper';
import { InstallFlow } from './install/install-flow';
import { ShippingZones, type ShippingZonesView } from './install/shipping-zones';
import { ShopifyAdmin } from './shopify/admin-client';
import { shopCurrencyData } from './shopify/admin-queries';
import { asksRatesmith } from './shopify/delivery-profiles';
import { adminQueryRunner } from './shopify/run-admin-query';
import { TokenCipher } from './tokens/encryption';
import { TokenService } from './tokens/token-service';
import { createWebhookHandler } from './webhooks/webhook-handler';

export const SERVICE_VERSION = '1.2.0';

/** The currency is read while an admin page waits for it: a short limit. */
const SHOP_CURRENCY_TIME_LIMIT_MS = 5_000;

export async function buildIndexes(conn: Connection): Promise<void> {
  await new ShopsRepository(conn).buildIndexes();
  await new OAuthStatesRepository(conn).buildIndexes();
  await new TokensRepository(conn).buildIndexes();
  await new WebhookDeliveriesRepository(conn).buildIndexes();
}

/** What the service reads from its configuration (tests build it with loadConfig). */
export type AuthServiceConfig = Pick<
  AuthConfig,
  | 'NATS_SUBJECT_PREFIX'
  | 'NATS_REQUEST_TIMEOUT_MS'
  | 'SHOPIFY_API_KEY'
  | 'SHOPIFY_API_SECRET'
  | 'SHOPIFY_SCOPES'
  | 'SHOPIFY_API_ORIGIN'
  | 'SHOPIFY_TIMEOUT_MS'
  | 'SHOPIFY_THROTTLE_RETRIES'
  | 'APP_URL'
  | 'RATE_ENGINE_URL'
  | 'TOKEN_ENCRYPTION_KEYS'
  | 'OAUTH_STATE_TTL_MS'
  | 'TOKEN_REFRESH_MARGIN_MS'
  | 'CARRIER_CHECK_INTERVAL_MS'
  | 'CARRIER_LOAD_CHECK_INTERVAL_MS'
> &
  Partial<Pick<AuthConfig, 'JETSTREAM_REPLICAS'>>;

const CARRIER_STATE: Record<CarrierStatus['state'], authV1.CarrierState> = {
  unknown: authV1.CarrierState.UNSPECIFIED,
  active: authV1.CarrierState.ACTIVE,
  inactive: authV1.CarrierState.INACTIVE,
  needs_plan: authV1.CarrierState.NEEDS_PLAN,
  error: authV1.CarrierState.ERROR,
};

function carrierStatusMessage(status: CarrierStatus) {
  return {
    state: CARRIER_STATE[status.state],
    detail: status.detail,
    checkedAt: status.checkedAt?.toISOString() ?? '',
    ...(status.zones ? { zones: status.zones } : {}),
  };
}

function shippingZonesMessage(view: ShippingZonesView) {
  return {
    confirmed: view.confirmed,
    profiles: view.profiles.map((p) => ({
      id: p.id,
      name: p.name,
      isDefault: p.isDefault,
      zones: p.zones.map((z) => ({
        id: z.id,
        name: z.name,
        countries: z.countries,
        ratesmith: asksRatesmith(z),
      })),
    })),
  };
}

/** Wires the auth service onto open connections; main.ts and tests both use it. */
export async function startAuthService(deps: {
  config: AuthServiceConfig;
  logger: Logger;
  nc: NatsConnection;
  conn: Connection;
}) {
  const { config, logger, nc, conn } = deps;
  const shops = new ShopsRepository(conn);
  const states = new OAuthStatesRepository(conn);
  // Its HTTP goes through the kit's transport: to the real shops, or to the
  // local double (SHOPIFY_API_ORIGIN); every call has a time limit either way.
  const shopify = shopifyLibrary({
    apiKey: config.SHOPIFY_API_KEY,
    apiSecret: config.SHOPIFY_API_SECRET,
    scopes: config.SHOPIFY_SCOPES,
    appUrl: config.APP_URL,
    logger,
    transport: { origin: config.SHOPIFY_API_ORIGIN, timeoutMs: config.SHOPIFY_TIMEOUT_MS },
  });
  const tokens = new TokenService({
    repo: new TokensRepository(conn),
    cipher: new TokenCipher(config.TOKEN_ENCRYPTION_KEYS),
    shopify,
    logger: logger.child({ component: 'tokens' }),
    refreshMarginMs: config.TOKEN_REFRESH_MARGIN_MS,
  });
  const rules = new RpcClient(nc, rulesV1.RulesService, {
    timeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
    displayName: 'rules',
  });
  const admin = new ShopifyAdmin({
    shopify,
    requestTimeoutMs: config.SHOPIFY_TIMEOUT_MS,
    throttleRetries: config.SHOPIFY_THROTTLE_RETRIES,
    logger: logger.child({ component: 'admin-query' }),
  });
  const zones = new ShippingZones({
    shops,
    tokens,
    admin,
    logger: logger.child({ component: 'shipping-zones' }),
  });
  const carrier = new CarrierKeeper({
    shops,
    tokens,
    shopify,
    rules,
    zones,
    logger: logger.child({ component: 'carrier' }),
    config: {
      rateEngineUrl: config.RATE_ENGINE_URL,
      checkIntervalMs: config.CARRIER_CHECK_INTERVAL_MS,
      loadCheckIntervalMs: config.CARRIER_LOAD_CHECK_INTERVAL_MS,
    },
  });
  const install = new InstallFlow({
    shops,
    states,
    tokens,
    shopify,
    carrier,
    logger: logger.child({ component: 'install' }),
    config: {
      apiKey: config.SHOPIFY_API_KEY,
      scopes: config.SHOPIFY_SCOPES,
      appUrl: config.APP_URL,
      apiOrigin: config.SHOPIFY_API_ORIGIN,
      stateTtlMs: config.OAUTH_STATE_TTL_MS,
    },
  });
  await retryStartup(
    'creating the events stream',
    () =>
      ensureEventsStream(
        nc,
        [authV1.ShopRedactedSchema],
        config.NATS_SUBJECT_PREFIX,
        config.JETSTREAM_REPLICAS,
      ),
    logger,
  );
  const handleWebhook = createWebhookHandler({
    shops,
    states,
    tokens,
    deliveries: new WebhookDeliveriesRepository(conn),
    shopify,
    rules,
    nc,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
    logger: logger.child({ component: 'webhooks' }),
  });

  const runAdminQuery = adminQueryRunner({
    shops,
    tokens,
    admin,
    logger: logger.child({ component: 'admin-query' }),
  });

  /** Installed means: not uninstalled, no scope change pending, and a token that works or can be refreshed. */
  const isInstalled = async (shop: string) =>
    (await shops.isReady(shop)) && (await tokens.hasUsableToken(shop));

  const rpc = await serveRpc({
    nc,
    service: authV1.AuthService,
    logger,
    name: 'auth',
    version: SERVICE_VERSION,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
    handlers: {
      getShop: async ({ shop }) => {
        const installed = await isInstalled(requireShopDomain(shop));
        if (installed) carrier.checkOnLoad(shop);
        return { shop, installed };
      },
      // Retired: no token leaves this service (the bus grants it to nobody as well).
      getAccessToken: async () => {
        throw new AppError('forbidden', 'Access tokens are not handed out; use RunAdminQuery.');
      },
      runAdminQuery,
      getShopCurrency: async ({ shop }) => {
        const kept = await shops.getCurrency(requireShopDomain(shop));
        if (kept) return kept;
        // Read once through the allow-listed query, then kept with the shop.
        const { dataJson } = await runAdminQuery({
          shop,
          query: authV1.AdminQuery.SHOP_CURRENCY,
          variablesJson: '{}',
          timeLimitMs: SHOP_CURRENCY_TIME_LIMIT_MS,
        });
        const parsed = shopCurrencyData.safeParse(JSON.parse(dataJson));
        if (!parsed.success)
          throw new AppError('unavailable', "Shopify did not say the shop's currency.");
        const formats = {
          currencyCode: parsed.data.shop.currencyCode,
          moneyFormat: parsed.data.shop.currencyFormats.moneyFormat,
          weightUnit: parsed.data.shop.weightUnit,
          ianaTimezone: parsed.data.shop.ianaTimezone,
        };
        await shops.setCurrency(shop, formats);
        return formats;
      },
      beginInstall: async ({ shop, email }) => ({ url: await install.beginInstall(shop, email) }),
      beginOAuth: async ({ shop }) => ({ url: await install.beginOAuth(shop) }),
      completeOAuth: async ({ query }) => install.completeOAuth(query),
      exchangeSessionToken: async ({ shop, sessionToken }) => {
        await install.exchangeSessionToken(shop, sessionToken);
        return { installed: true };
      },
      handleWebhook: async ({ topic, shop, webhookId }) => {
        await handleWebhook(topic, requireShopDomain(shop), webhookId);
        return {};
      },
      getCarrierStatus: async ({ shop }) => ({
        status: carrierStatusMessage(await carrier.status(requireShopDomain(shop))),
      }),
      checkCarrierService: async ({ shop }) => {
        if (!(await shops.isInstalled(requireShopDomain(shop))))
          throw new AppError('not_found', 'This shop has not installed the app.');
        return { status: carrierStatusMessage(await carrier.repair(shop, { awaitZones: true })) };
      },
      getShippingZones: async ({ shop }) =>
        shippingZonesMessage(await zones.read(requireShopDomain(shop))),
      setShippingZones: async ({ shop, zoneIds, ratesmith }) =>
        shippingZonesMessage(await zones.set(requireShopDomain(shop), zoneIds, ratesmith)),
      getShippingRates: async ({ shop }) => ({
        profilesJson: JSON.stringify(await zones.readRates(requireShopDomain(shop))),
      }),
      setNativeRatesActive: async ({ shop, methodDefinitionIds, active }) => {
        const done = await zones.setRatesActive(
          requireShopDomain(shop),
          methodDefinitionIds,
          active,
        );
        return { changedIds: done.changed, profilesJson: JSON.stringify(done.profiles) };
      },
    },
  });
  const stopSweep = carrier.startSweep();
  return {
    shops,
    tokens,
    install,
    carrier,
    zones,
    shopify,
    stop: async () => {
      stopSweep();
      await rpc.stop();
    },
  };
}
