import { authV1, SHOP_DOMAIN } from '@ratesmith/contracts';
import {
  AppError,
  serveRpc,
  type Connection,
  type Logger,
  type NatsConnection,
} from '@ratesmith/kit';
import type { AuthConfig } from './config';
import { ShopsRepository } from './data/shops.repository';
import { TokensRepository } from './data/tokens.repository';
import { createShopify } from './shopify/client';
import { TokenCipher } from './tokens/encryption';
import { TokenService } from './tokens/token-service';

export const SERVICE_VERSION = '1.1.0';

export async function buildIndexes(conn: Connection): Promise<void> {
  await new ShopsRepository(conn).model.createIndexes();
  await new TokensRepository(conn).buildIndexes();
}

/** What the service reads from its configuration (tests build it with loadConfig). */
export type AuthServiceConfig = Pick<
  AuthConfig,
  | 'NATS_SUBJECT_PREFIX'
  | 'NATS_REQUEST_TIMEOUT_MS'
  | 'DEMO_MODE'
  | 'DEMO_SHOPS'
  | 'SHOPIFY_API_KEY'
  | 'SHOPIFY_API_SECRET'
  | 'SHOPIFY_SCOPES'
  | 'SHOPIFY_API_ORIGIN'
  | 'SHOPIFY_TIMEOUT_MS'
  | 'APP_URL'
  | 'RATE_ENGINE_URL'
  | 'TOKEN_ENCRYPTION_KEYS'
  | 'OAUTH_STATE_TTL_MS'
  | 'TOKEN_REFRESH_MARGIN_MS'
>;

function requireShop(shop: string): string {
  if (!SHOP_DOMAIN.test(shop))
    throw new AppError('invalid_data', 'That is not a valid shop domain.');
  return shop;
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
  if (config.DEMO_MODE) {
    for (const shop of config.DEMO_SHOPS) await shops.markInstalled(shop);
    logger.warn({ shops: config.DEMO_SHOPS }, 'demo mode: demo shops are installed');
  }
  const shopify = createShopify({
    apiKey: config.SHOPIFY_API_KEY,
    apiSecret: config.SHOPIFY_API_SECRET,
    scopes: config.SHOPIFY_SCOPES,
    appUrl: config.APP_URL,
    apiOrigin: config.SHOPIFY_API_ORIGIN,
    timeoutMs: config.SHOPIFY_TIMEOUT_MS,
    logger,
  });
  const tokens = new TokenService({
    repo: new TokensRepository(conn),
    cipher: new TokenCipher(config.TOKEN_ENCRYPTION_KEYS),
    shopify,
    logger,
    refreshMarginMs: config.TOKEN_REFRESH_MARGIN_MS,
  });
  const rpc = await serveRpc({
    nc,
    service: authV1.AuthService,
    logger,
    name: 'auth',
    version: SERVICE_VERSION,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
    handlers: {
      getShop: async ({ shop }) => {
        requireShop(shop);
        return { shop, installed: await shops.isInstalled(shop) };
      },
      getAccessToken: async ({ shop }) => {
        requireShop(shop);
        if (!(await shops.isInstalled(shop)))
          throw new AppError('not_found', 'This shop has not installed the app.');
        const { accessToken, scope } = await tokens.getAccessToken(shop);
        return { accessToken, scope };
      },
    },
  });
  return { shops, tokens, shopify, stop: () => rpc.stop() };
}
