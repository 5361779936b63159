import { catalogV1, rulesV1 } from '@ratesmith/contracts';
import {
  HeavyCallsPerShop,
  LANE_START_WAIT_MS,
  openSnapshotBucket,
  retryStartup,
  RpcClient,
  serveRpc,
  type Connection,
  type Logger,
  type NatsConnection,
  type HandlersOf,
} from '@ratesmith/kit';
import type { RulesConfig } from './config';
import type { KV } from '@nats-io/kv';
import { createRepositories, type Repositories } from './data/repositories';
import { ConfigTransfer } from './domain/config-transfer';
import { createRulesApps, type RulesApps } from './domain/apps';
import { ProductExportTrigger } from './domain/product-export-trigger';
import { consumeShopRedacted } from './events/shop-redacted';
import { configHandlers, createRulesHandlers } from './handlers';
import { analyticsHandlers } from './shop-data/analytics';
import { checkoutOutcomeHandlers } from './shop-data/checkout-outcomes';
import { shadowHandlers } from './shop-data/shadow';
import { recentCheckoutHandlers } from './shop-data/recent-checkouts';
import { rateKeyHandlers } from './shop-data/rate-key';
import { SnapshotPublisher } from './snapshots/publisher';
import { startRulesLane } from './lane';

export const SERVICE_VERSION = '1.0.0';

/** Builds the indexes the domain relies on (unique product rule per product). */
export async function buildIndexes(conn: Connection): Promise<void> {
  const repos = createRepositories(conn);
  await Promise.all(Object.values(repos).map((repo) => repo.buildIndexes()));
}

type RulesDeps = {
  config: Pick<
    RulesConfig,
    'NATS_SUBJECT_PREFIX' | 'SNAPSHOT_BUCKET' | 'SNAPSHOT_RETRY_MS' | 'VERSION_PRUNE_QUIET_MS'
  > &
    Partial<Pick<RulesConfig, 'JETSTREAM_REPLICAS' | 'HEAVY_CALLS_PER_SHOP'>>;
  logger: Logger;
  nc: NatsConnection;
  conn: Connection;
};

export interface WiredRules {
  repos: Repositories;
  kv: KV;
  replicas: number;
  publisher: SnapshotPublisher;
  app: RulesApps;
  handlers: HandlersOf<typeof rulesV1.RulesService>;
  /** Versions and publish marks are written after the answers: lets them land before MongoDB closes. */
  drain(): Promise<void>;
}

/**
 * The rules service's parts on open connections: the repositories, the
 * snapshot bucket and its publisher, the domain, the handlers of every method.
 * The service's thread and its lane (./lane-worker.ts) each build their own,
 * as two replicas would.
 */
export async function wireRules(deps: RulesDeps): Promise<WiredRules> {
  const { config, logger, nc, conn } = deps;
  const repos = createRepositories(conn);
  const replicas = config.JETSTREAM_REPLICAS ?? 1;
  // The writer raises an older bucket's copies: the engine's user may only read it.
  const kv = await retryStartup(
    'opening the snapshot bucket',
    () => openSnapshotBucket(nc, { bucket: config.SNAPSHOT_BUCKET, replicas, raise: { logger } }),
    logger,
  );
  const exportTrigger = new ProductExportTrigger({
    productFacts: repos.productFacts,
    catalog: new RpcClient(nc, catalogV1.CatalogService, {
      timeoutMs: 5000,
      subjectPrefix: config.NATS_SUBJECT_PREFIX,
      displayName: 'catalog',
    }),
    logger: logger.child({ component: 'product-export' }),
  });
  const publisher = new SnapshotPublisher({
    ...repos,
    kv,
    nc,
    logger: logger.child({ component: 'snapshots' }),
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
    onProductIndexUsed: (shop) => exportTrigger.ensureExported(shop),
  });
  const app = createRulesApps({
    ...repos,
    publisher,
    exportTrigger,
    logger,
    pruneWhenQuietMs: config.VERSION_PRUNE_QUIET_MS,
  });
  const heavy = new HeavyCallsPerShop(config.HEAVY_CALLS_PER_SHOP ?? 2);
  const handlers = {
    ...createRulesHandlers(app, publisher, heavy),
    ...rateKeyHandlers({ settings: repos.settings, publisher }),
    ...checkoutOutcomeHandlers(repos),
    ...analyticsHandlers(repos),
    ...configHandlers(new ConfigTransfer({ ...repos, publisher }), heavy),
    ...recentCheckoutHandlers(repos),
    ...shadowHandlers({ ...repos, publisher, versions: app.versions }),
  } satisfies HandlersOf<typeof rulesV1.RulesService>;
  return {
    repos,
    kv,
    replicas,
    publisher,
    app,
    handlers,
    drain: () => Promise.all([app.versions.drain(), publisher.drain()]).then(() => undefined),
  };
}

/** Wires the rules service onto open connections; main.ts and tests both use it. */
export async function startRulesService(
  deps: RulesDeps & {
    /**
     * The heavy calls (LANE_METHODS) on a lane, a thread of lower priority with
     * connections of its own (./lane.ts): main.ts says true; in-process stacks
     * (tests) answer everything on this thread.
     */
    lane?: boolean;
  },
) {
  const { config, logger, nc } = deps;
  const { repos, kv, replicas, publisher, app, handlers, drain } = await wireRules(deps);
  const lane = deps.lane ? startRulesLane({ logger, versions: app.versions }) : undefined;
  // Ready with its lane (or without it, after LANE_START_WAIT_MS: then this thread does its work).
  if (lane && !(await lane.whenReady(LANE_START_WAIT_MS)))
    logger.warn('rules lane not ready: its calls are answered here until it is');
  const rpc = await serveRpc({
    nc,
    service: rulesV1.RulesService,
    handlers,
    offload: lane?.answer,
    logger,
    name: 'rules',
    version: SERVICE_VERSION,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
    // Filter lists, configuration files and outcome batches (one recent checkout of
    // 1,000 lines with its trace can pass a batch's 32 KB): the requests that can pass 64 KB.
    compressedRequests: [
      'saveRulesetFilters',
      'saveProductRuleFilters',
      'addProductRules',
      'importConfig',
      'recordCheckoutOutcomes',
    ],
  });
  const redactions = await retryStartup(
    'consuming shop redactions',
    () =>
      consumeShopRedacted({
        nc,
        kv,
        repos,
        logger: logger.child({ component: 'redaction' }),
        subjectPrefix: config.NATS_SUBJECT_PREFIX,
        replicas,
        settle: (shop) => app.versions.written(shop),
      }),
    logger,
  );
  publisher.startRetryLoop(config.SNAPSHOT_RETRY_MS);
  // The bucket is a cache: bring it up to date with MongoDB on every start.
  const rebuilt = await retryStartup('checking the snapshots', () => publisher.rebuild(), logger);
  logger.info({ rebuilt }, 'snapshots checked');
  return {
    app,
    publisher,
    kv,
    stop: async () => {
      publisher.stopRetryLoop();
      await redactions.stop();
      await rpc.stop();
      await lane?.stop();
      await drain();
    },
  };
}
