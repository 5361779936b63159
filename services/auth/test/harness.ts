import { authV1 } from '@ratesmith/contracts';
import { startTestServers, type TestServers } from '@ratesmith/devstack';
import {
  connectMongo,
  createLogger,
  RpcClient,
  type ClientOf,
  type Connection,
  type NatsConnection,
} from '@ratesmith/kit';
import { startShopifyDouble, type ShopifyDouble } from '@ratesmith/shopify-double';
import { mintSessionToken } from '../../gateway/src/auth/session-token';
import { loadConfig } from '../src/config';
import { buildIndexes, startAuthService } from '../src/service';

export const API_KEY = 'auth-test-key';
export const API_SECRET = 'auth-test-secret';
export const TOKEN_KEYS = `k1:${Buffer.alloc(32, 1).toString('base64')}`;

/** The auth service alone on real NATS and FerretDB, talking to the Shopify double. */
export interface AuthStack {
  servers: TestServers;
  shopify: ShopifyDouble;
  /** The test's own connection (the unrestricted `admin` user). */
  nc: NatsConnection;
  /** The auth service's connection, as its own NATS user. */
  authBus: NatsConnection;
  conn: Connection;
  auth: ClientOf<typeof authV1.AuthService>;
  service: Awaited<ReturnType<typeof startAuthService>>;
  sessionToken(shop: string): string;
  stop(): Promise<void>;
}

export async function startAuthStack(
  env: Record<string, string> = {},
  doubleOptions: { accessTokenTtlSeconds?: number } = {},
): Promise<AuthStack> {
  const servers = await startTestServers();
  const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const shopify = await startShopifyDouble({
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    ...doubleOptions,
  });
  const nc = await servers.connectAs('admin', logger);
  const authBus = await servers.connectAs('auth', logger);
  const conn = await connectMongo({
    uri: servers.mongoUri,
    dbName: `${servers.dbName}_auth`,
    logger,
    timeoutMs: 5000,
  });
  await buildIndexes(conn);
  const config = loadConfig({
    NODE_ENV: 'test',
    NATS_URL: servers.natsUrl,
    NATS_SUBJECT_PREFIX: servers.subjectPrefix,
    MONGODB_URI: servers.mongoUri,
    SHOPIFY_API_KEY: API_KEY,
    SHOPIFY_API_SECRET: API_SECRET,
    SHOPIFY_API_ORIGIN: shopify.url,
    SHOPIFY_TIMEOUT_MS: '3000',
    APP_URL: 'http://127.0.0.1:3999',
    RATE_ENGINE_URL: 'http://127.0.0.1:3998',
    TOKEN_ENCRYPTION_KEYS: TOKEN_KEYS,
    ...env,
  });
  const service = await startAuthService({ config, logger, nc: authBus, conn });
  const auth = new RpcClient(nc, authV1.AuthService, {
    timeoutMs: 5000,
    subjectPrefix: servers.subjectPrefix,
    displayName: 'auth',
  });
  return {
    servers,
    shopify,
    nc,
    authBus,
    conn,
    auth,
    service,
    sessionToken: (shop) => mintSessionToken({ shop, apiKey: API_KEY, apiSecret: API_SECRET }),
    stop: async () => {
      await service.stop();
      await Promise.all([nc.close(), authBus.close()]);
      await conn.close();
      await shopify.stop();
      await servers.stop();
      expect(servers.permissionViolations()).toEqual([]);
    },
  };
}
