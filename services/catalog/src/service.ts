import { authV1, catalogV1, rulesV1 } from '@ratesmith/contracts';
import { RpcClient, serveRpc, type Logger, type NatsConnection } from '@ratesmith/kit';
import { authAdminQueries } from './auth-admin';
import type { CatalogConfig } from './config';
import { ProductExports, type ExportLimits } from './domain/product-export';
import { CatalogApp } from './domain/catalog-app';
import { createCatalogHandlers } from './handlers';

export const SERVICE_VERSION = '1.2.0';

/** What the service reads from its configuration (tests build it with loadConfig). */
export type CatalogServiceConfig = Pick<
  CatalogConfig,
  | 'NATS_SUBJECT_PREFIX'
  | 'NATS_REQUEST_TIMEOUT_MS'
  | 'CATALOG_DEADLINE_MS'
  | 'PRODUCT_EXPORT_FILE_ORIGINS'
>;

/** Wires the catalog service onto an open NATS connection; main.ts and tests both use it. */
export async function startCatalogService(deps: {
  config: CatalogServiceConfig;
  logger: Logger;
  nc: NatsConnection;
  /** The bulk export's polling and limits (tests poll faster). */
  exportLimits?: ExportLimits;
}) {
  const { config, logger, nc } = deps;
  const clientOptions = {
    timeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
  };
  const admin = authAdminQueries(
    new RpcClient(nc, authV1.AuthService, { ...clientOptions, displayName: 'auth' }),
  );
  const rules = new RpcClient(nc, rulesV1.RulesService, { ...clientOptions, displayName: 'rules' });
  const productExports = new ProductExports({
    admin,
    rules,
    logger: logger.child({ component: 'product-export' }),
    fileOrigins: config.PRODUCT_EXPORT_FILE_ORIGINS,
    limits: deps.exportLimits,
  });
  const app = new CatalogApp({
    admin,
    rules,
    deadlineMs: config.CATALOG_DEADLINE_MS,
    exports: productExports,
  });
  const rpc = await serveRpc({
    nc,
    service: catalogV1.CatalogService,
    handlers: createCatalogHandlers(app),
    logger,
    name: 'catalog',
    version: SERVICE_VERSION,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
  });
  return { app, stop: () => rpc.stop() };
}
