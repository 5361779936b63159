import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Kvm, type KV } from '@nats-io/kv';
import { startTestServers, type TestServers } from '@ratesmith/devstack';
import { startShopifyDouble, type ShopifyDouble } from '@ratesmith/shopify-double';
import {
  BUS_SERVICES,
  connectMongo,
  DEMO_API_KEY,
  DEMO_API_SECRET,
  createLogger,
  type BusService,
  type Connection,
  type NatsConnection,
} from '@ratesmith/kit';
import { loadConfig as loadAuthConfig } from '../../auth/src/config';
import { buildIndexes as buildAuthIndexes, startAuthService } from '../../auth/src/service';
import { loadConfig as loadCatalogConfig } from '../../catalog/src/config';
import { startCatalogService } from '../../catalog/src/service';
import { buildIndexes as buildRulesIndexes, startRulesService } from '../../rules/src/service';
import { startRateEngine } from '../../rate-engine/src/service';
import { createGateway } from '../src/app';
import { gatewayClients } from '../src/clients';
import { mintSessionToken } from '../src/auth/session-token';
import { loadConfig } from '../src/config';

export const API_KEY = 'test-api-key';
export const API_SECRET = 'test-api-secret';
export const SHOP_A = 'shop-a.myshopify.com';
export const SHOP_B = 'shop-b.myshopify.com';
/** Installed, and left untouched by every test but the one that needs a brand-new shop. */
export const SHOP_C = 'shop-c.myshopify.com';
export const NOT_INSTALLED = 'shop-x.myshopify.com';
/** A fixed test key for tokens at rest (32 bytes, base64). */
export const TOKEN_KEYS = `test:${Buffer.alloc(32, 7).toString('base64')}`;

/**
 * The whole request path of one test file: its own NATS and FerretDB, the
 * auth and rules services wired as their main.ts wires them, and the gateway
 * listening on a free port, with the Shopify double. Any shop but
 * NOT_INSTALLED installs itself on its first /api call (token exchange).
 */
export interface Stack {
  servers: TestServers;
  /** The local Shopify the auth and catalog services talk to. */
  shopify: ShopifyDouble;
  /** The auth and rules databases (tests look for leftovers of a shop). */
  dbs: { auth: Connection; rules: Connection };
  baseUrl: string;
  /** The test's own connection (the unrestricted `admin` user). */
  nc: NatsConnection;
  /** Each service's connection, as its own NATS user. */
  buses: Record<BusService, NatsConnection>;
  kv: KV;
  token(shop?: string, overrides?: Record<string, unknown>): string;
  /** A fetch to the gateway with shop A's session unless `token` says otherwise. */
  api(
    path: string,
    init?: RequestInit & { token?: string | null; json?: unknown },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  stopRules(): Promise<void>;
  startRules(): Promise<void>;
  /** The rate engine's carrier callback, e.g. `${carrierUrl}/carrier/rates/<key>`. */
  carrierUrl: string;
  stopRateEngine(): Promise<void>;
  stop(): Promise<void>;
}

/** Where the stack's services log (every service shares one logger). */
export interface StackLogOptions {
  /** pino level; default TEST_LOG_LEVEL, else silent. */
  level?: string;
  /** e.g. an in-memory stream a test reads back; default stdout. */
  destination?: Parameters<typeof createLogger>[2];
}

/**
 * Stack['api'] for a gateway at `baseUrl`: JSON in and out, with `token()`'s session
 * unless the call names another (or null, none).
 */
export function apiClient(baseUrl: string, token: () => string): Stack['api'] {
  return async (path, init = {}) => {
    const { token: given, json, ...rest } = init;
    const headers = new Headers(rest.headers);
    const bearer = given === undefined ? token() : given;
    if (bearer) headers.set('authorization', `Bearer ${bearer}`);
    if (json !== undefined) headers.set('content-type', 'application/json');
    const res = await fetch(`${baseUrl}${path}`, {
      ...rest,
      headers,
      body: json !== undefined ? JSON.stringify(json) : rest.body,
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body, headers: res.headers };
  };
}

/**
 * `gatewayEnv` overrides the gateway's environment (e.g. a low API_RATE_LIMIT);
 * with DEMO_MODE 'true' the whole stack runs with the demo credentials and the
 * gateway knows the double (SHOPIFY_API_ORIGIN).
 */
export async function startStack(
  gatewayEnv: Record<string, string> = {},
  authEnv: Record<string, string> = {},
  catalogEnv: Record<string, string> = {},
  log: StackLogOptions = {},
  /** Overrides of the rate engine's config (e.g. a carrier rate limit), merged over the defaults. */
  rateEngineConfig: Record<string, unknown> = {},
  /** Each query's time limit: megabyte documents on FerretDB need more on a shared machine. */
  mongoTimeoutMs = 5000,
): Promise<Stack> {
  // Demo mode runs only with the demo credentials (services/kit/src/config.ts): the whole stack uses them.
  const demo = gatewayEnv.DEMO_MODE === 'true';
  const apiKey = demo ? DEMO_API_KEY : API_KEY;
  const apiSecret = demo ? DEMO_API_SECRET : API_SECRET;
  const servers = await startTestServers();
  const logger = createLogger(
    'test',
    log.level ?? process.env.TEST_LOG_LEVEL ?? 'silent',
    log.destination,
  );
  const prefix = servers.subjectPrefix;
  const nc = await servers.connectAs('admin', logger);
  // Every service on its own connection as its own user: the bus's grants are in force.
  const buses = Object.fromEntries(
    await Promise.all(
      BUS_SERVICES.map(async (service) => [service, await servers.connectAs(service, logger)]),
    ),
  ) as Record<BusService, NatsConnection>;
  const connections: Connection[] = [];
  const mongo = async (db: string) => {
    const conn = await connectMongo({
      uri: servers.mongoUri,
      dbName: `${servers.dbName}_${db}`,
      logger,
      timeoutMs: mongoTimeoutMs,
    });
    connections.push(conn);
    return conn;
  };
  const authConn = await mongo('auth');
  const rulesConn = await mongo('rules');
  await buildAuthIndexes(authConn);
  await buildRulesIndexes(rulesConn);
  const bucket = servers.snapshotBucket;
  const rulesConfig = {
    NATS_SUBJECT_PREFIX: prefix,
    SNAPSHOT_BUCKET: bucket,
    SNAPSHOT_RETRY_MS: 500,
    VERSION_PRUNE_QUIET_MS: 1000,
    // One knob for both ends of a shop's heavy calls: a test that lifts the gateway's lifts rules'.
    HEAVY_CALLS_PER_SHOP: Number(gatewayEnv.HEAVY_CALLS_PER_SHOP ?? 2),
  };
  let rules: Awaited<ReturnType<typeof startRulesService>> | undefined = await startRulesService({
    config: rulesConfig,
    logger,
    nc: buses.rules,
    conn: rulesConn,
  });

  let rateEngine: Awaited<ReturnType<typeof startRateEngine>> | undefined = await startRateEngine({
    config: {
      NATS_SUBJECT_PREFIX: prefix,
      CARRIER_PORT: 0,
      SHOPIFY_API_SECRET: apiSecret,
      CARRIER_HMAC_MODE: 'enforce',
      CARRIER_BODY_LIMIT: 256 * 1024,
      CARRIER_MAX_ITEMS: 1000,
      SNAPSHOT_BUCKET: bucket,
      SNAPSHOT_CACHE_SIZE: 1000,
      SNAPSHOT_FETCH_TIMEOUT_MS: 1000,
      ...(rateEngineConfig as object),
    },
    logger,
    nc: buses['rate-engine'],
    host: '127.0.0.1',
  });
  const carrierUrl = `http://127.0.0.1:${rateEngine.port}`;

  // Before the gateway: in demo mode it calls the double's checkout (SHOPIFY_API_ORIGIN).
  const shopify = await startShopifyDouble({ apiKey, apiSecret });
  shopify.oauth.setApproval((shop) => shop !== NOT_INSTALLED);
  const config = loadConfig({
    NODE_ENV: 'test',
    NATS_URL: servers.natsUrl,
    NATS_SUBJECT_PREFIX: prefix,
    NATS_REQUEST_TIMEOUT_MS: '2000',
    SHOPIFY_API_KEY: apiKey,
    SHOPIFY_API_SECRET: apiSecret,
    ...(demo ? { SHOPIFY_API_ORIGIN: shopify.url } : {}),
    INSTALLED_CACHE_MS: '0',
    API_BODY_LIMIT: '100kb',
    API_RATE_LIMIT: '0',
    PUBLIC_RATE_LIMIT: '0',
    ...gatewayEnv,
  });
  const app = createGateway({ config, logger, ...gatewayClients(buses.gateway, config) });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const authConfig = loadAuthConfig({
    NODE_ENV: 'test',
    NATS_URL: servers.natsUrl,
    NATS_SUBJECT_PREFIX: prefix,
    MONGODB_URI: servers.mongoUri,
    SHOPIFY_API_KEY: apiKey,
    SHOPIFY_API_SECRET: apiSecret,
    SHOPIFY_API_ORIGIN: shopify.url,
    APP_URL: baseUrl,
    RATE_ENGINE_URL: carrierUrl,
    TOKEN_ENCRYPTION_KEYS: TOKEN_KEYS,
    ...authEnv,
  });
  const auth = await startAuthService({
    config: authConfig,
    logger,
    nc: buses.auth,
    conn: authConn,
  });
  const catalog = await startCatalogService({
    config: loadCatalogConfig({
      NODE_ENV: 'test',
      NATS_URL: servers.natsUrl,
      NATS_SUBJECT_PREFIX: prefix,
      SHOPIFY_API_KEY: apiKey,
      SHOPIFY_API_ORIGIN: shopify.url,
      PRODUCT_EXPORT_FILE_ORIGINS: shopify.url,
      ...catalogEnv,
    }),
    logger,
    nc: buses.catalog,
    // Bulk exports are polled every 2 s in production; the double's finish at once.
    exportLimits: { pollMs: 20, totalMs: 60_000, maxFileBytes: 16 * 1024 * 1024 },
  });
  const kv = await new Kvm(nc).open(bucket);

  const token = (shop = SHOP_A, overrides?: Record<string, unknown>) =>
    mintSessionToken({ shop, apiKey, apiSecret, overrides });

  return {
    servers,
    shopify,
    dbs: { auth: authConn, rules: rulesConn },
    baseUrl,
    nc,
    buses,
    kv,
    token,
    api: apiClient(baseUrl, () => token()),
    stopRules: async () => {
      await rules?.stop();
      rules = undefined;
    },
    startRules: async () => {
      rules ??= await startRulesService({
        config: rulesConfig,
        logger,
        nc: buses.rules,
        conn: rulesConn,
      });
    },
    carrierUrl,
    stopRateEngine: async () => {
      await rateEngine?.stop();
      rateEngine = undefined;
    },
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await catalog.stop();
      await rateEngine?.stop();
      await rules?.stop();
      await auth.stop();
      await shopify.stop();
      await Promise.all([nc, ...Object.values(buses)].map((c) => c.close()));
      await Promise.all(connections.map((c) => c.close()));
      await servers.stop();
      // Every test file runs on the locked-down bus: a grant too narrow fails it here.
      expect(servers.permissionViolations()).toEqual([]);
    },
  };
}

/**
 * The merchant's step since Admin API 2026-10, where registering a carrier
 * service adds it to no shipping zone: Ratesmith takes part in every zone of
 * the shop, so the double's checkout asks it. Idempotent; nothing while the
 * shop has no Ratesmith service (not installed, or refused).
 */
export function ratesmithInEveryZone(stack: Stack, shop: string): void {
  if (stack.shopify.carrierServices.list(shop).some((s) => s.name === 'Ratesmith'))
    stack.shopify.deliveryProfiles.addCarrierToZones(shop, 'Ratesmith', 'all');
}

/** Polls `read` every 100 ms until `ok` holds (a barrier on something observable); fails after `ms`. */
export async function until<T>(
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  what: string,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
