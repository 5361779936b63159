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

export const SERVICE_VERSION = '1.0.0';

export async function buildIndexes(conn: Connection): Promise<void> {
  await new ShopsRepository(conn).model.createIndexes();
}

/** Wires the auth service onto open connections; main.ts and tests both use it. */
export async function startAuthService(deps: {
  config: Pick<AuthConfig, 'NATS_SUBJECT_PREFIX' | 'DEMO_MODE' | 'DEMO_SHOPS'>;
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
  const rpc = await serveRpc({
    nc,
    service: authV1.AuthService,
    logger,
    name: 'auth',
    version: SERVICE_VERSION,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
    handlers: {
      getShop: async ({ shop }) => {
        if (!SHOP_DOMAIN.test(shop))
          throw new AppError('invalid_data', 'That is not a valid shop domain.');
        return { shop, installed: await shops.isInstalled(shop) };
      },
    },
  });
  return { shops, stop: () => rpc.stop() };
}
