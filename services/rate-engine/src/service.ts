import type { AddressInfo } from 'node:net';
import { eventSubject, rateEngineV1, rulesV1 } from '@ratesmith/contracts';
import {
  closeServer,
  natsReady,
  RpcClient,
  serveRpc,
  type Logger,
  type NatsConnection,
} from '@ratesmith/kit';
import { startCarrierServer } from './carrier/server';
import type { RateEngineConfig } from './config';
import { HotTier, Quoter } from './engine';
import { createEngineMetrics, type EngineMetrics } from './metrics';
import { RECENT_LIMITS, RecentSampler } from './outcomes/recent';
import { SHADOW_LIMITS } from './outcomes/shadow';
import { OutcomeRecorder } from './outcomes/recorder';
import { createPreviewHandlers } from './preview/handlers';
import { startPreviewLane } from './preview/lane';
import { SnapshotStore, type SnapshotSource } from './snapshots/store';
import { releaseLoadMemory } from './snapshots/release-memory';
import { SnapshotWatcher } from './snapshots/watcher';

export const SERVICE_VERSION = '1.0.0';
/** How long a batch of checkout outcomes may take the rules service to store. */
const OUTCOME_SEND_TIMEOUT_MS = 10_000;

/** Wires the rate engine onto an open NATS connection; main.ts and tests both use it. */
export async function startRateEngine(deps: {
  config: Pick<
    RateEngineConfig,
    | 'NATS_SUBJECT_PREFIX'
    | 'CARRIER_PORT'
    | 'SHOPIFY_API_SECRET'
    | 'CARRIER_HMAC_MODE'
    | 'CARRIER_BODY_LIMIT'
    | 'CARRIER_MAX_ITEMS'
    | 'SNAPSHOT_BUCKET'
    | 'SNAPSHOT_CACHE_SIZE'
    | 'SNAPSHOT_FETCH_TIMEOUT_MS'
  > &
    Partial<
      Pick<
        RateEngineConfig,
        | 'COMPILED_CACHE_SIZE'
        | 'COMPILE_AFTER_QUOTES'
        | 'COMPILES_PER_SECOND'
        | 'CARRIER_RATE_LIMIT'
        | 'CARRIER_UNSIGNED_RATE_LIMIT'
        | 'SHOPIFY_API_SECRET_PREVIOUS'
        | 'JETSTREAM_REPLICAS'
        | 'NATS_REQUEST_TIMEOUT_MS'
        | 'SHUTDOWN_DRAIN_MS'
        | 'OUTCOME_FLUSH_MS'
        | 'RECENT_SAMPLE_PER_SECOND'
        | 'SHADOW_SAMPLE_PER_SECOND'
        | 'FILTER_ANALYTICS'
      >
    >;
  logger: Logger;
  nc: NatsConnection;
  /** Where the callback listens; all interfaces unless given. */
  host?: string;
  /** The engine's metrics; made on the global meter provider unless given. */
  metrics?: EngineMetrics;
  /** The carrier callback's clock (delivery dates' request time); Date.now unless a test sets the time. */
  clock?: () => number;
  /**
   * Previews and large snapshots' decoding on the preview lane, a thread of
   * the lowest priority (./preview/lane.ts), off checkout's event loop:
   * main.ts says true; in-process stacks (tests) do both on this one.
   */
  previewLane?: boolean;
}) {
  const { config, logger, nc } = deps;
  // The engine's state lives here, one instance a started engine: no module holds any.
  const engineMetrics = deps.metrics ?? createEngineMetrics();
  const hotTier = new HotTier({
    size: config.COMPILED_CACHE_SIZE ?? 1000,
    busyQuotes: config.COMPILE_AFTER_QUOTES,
    compilesPerSecond: config.COMPILES_PER_SECOND,
  });
  // One quoter for the callback and the preview: quotes are synchronous, so they share its scratch space.
  const quoter = new Quoter(hotTier);
  // The store reads misses through the watcher, which feeds the store: built in two steps.
  const source = { read: undefined as SnapshotSource | undefined };
  const store = new SnapshotStore({
    capacity: config.SNAPSHOT_CACHE_SIZE,
    source: (shop) => source.read!(shop),
    fetchTimeoutMs: config.SNAPSHOT_FETCH_TIMEOUT_MS,
    logger: logger.child({ component: 'snapshots' }),
    metrics: engineMetrics,
  });
  engineMetrics.observeStore(store);
  engineMetrics.observeHotTier(hotTier);
  // The lane reads the bucket through the watcher (once started), which decodes through it.
  const lane = deps.previewLane
    ? startPreviewLane({ logger, readSnapshot: (shop) => watcher.rawEntry(shop) })
    : undefined;
  const watcher: SnapshotWatcher = new SnapshotWatcher({
    nc,
    bucket: config.SNAPSHOT_BUCKET,
    replicas: config.JETSTREAM_REPLICAS,
    timeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
    announcedOn: eventSubject(rulesV1.SnapshotPublishedSchema, config.NATS_SUBJECT_PREFIX),
    store,
    logger: logger.child({ component: 'snapshots' }),
    decodeLarge: lane?.decode,
    metrics: engineMetrics,
    // The load's garbage, freed as it goes (its peak) and at its end (the young
    // generation would otherwise stay at its largest).
    onLoadStep: () => releaseLoadMemory(),
    onLoaded: () => {
      const started = performance.now();
      const released = releaseLoadMemory();
      logger.info(
        { released, ms: Math.round(performance.now() - started) },
        'memory released after the snapshot load',
      );
    },
  });
  source.read = watcher.source;
  watcher.start();

  // Callbacks' outcomes go to the rules service in batches, never on a callback's time.
  const rules = new RpcClient(nc, rulesV1.RulesService, {
    // Off the checkout path: a large batch may take the rules service a while.
    timeoutMs: OUTCOME_SEND_TIMEOUT_MS,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
    displayName: 'rules',
  });
  const outcomes = new OutcomeRecorder({
    sink: (batch) => rules.call('recordCheckoutOutcomes', batch),
    logger: logger.child({ component: 'outcomes' }),
    flushMs: config.OUTCOME_FLUSH_MS ?? 5000,
  });
  outcomes.start();

  const rpc = await serveRpc({
    nc,
    service: rateEngineV1.RateEngineService,
    // Here when the lane cannot take a preview (or there is none).
    handlers: createPreviewHandlers({
      compiled: async (shop) => (await store.get(shop))?.compiled,
      source: watcher.source,
      quoter,
    }),
    offload: lane?.answer,
    logger,
    name: 'rate-engine',
    version: SERVICE_VERSION,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
    // A preview's cart and draft filters can pass 64 KB.
    compressedRequests: ['previewRates'],
  });
  const carrier = await startCarrierServer({
    store,
    secret: config.SHOPIFY_API_SECRET,
    previousSecret: config.SHOPIFY_API_SECRET_PREVIOUS,
    hmacMode: config.CARRIER_HMAC_MODE,
    // Tests that build the engine without it run unlimited.
    ratePerKey: config.CARRIER_RATE_LIMIT ?? 0,
    unsignedRatePerKey: config.CARRIER_UNSIGNED_RATE_LIMIT ?? 0,
    bodyLimit: config.CARRIER_BODY_LIMIT,
    maxItems: config.CARRIER_MAX_ITEMS,
    quoter,
    outcomes,
    filterAnalytics: config.FILTER_ANALYTICS ?? true,
    recent: new RecentSampler({
      perSecond: config.RECENT_SAMPLE_PER_SECOND ?? RECENT_LIMITS.perSecond,
      shops: RECENT_LIMITS.shops,
    }),
    shadow: new RecentSampler({
      perSecond: config.SHADOW_SAMPLE_PER_SECOND ?? SHADOW_LIMITS.perSecond,
      shops: SHADOW_LIMITS.shops,
    }),
    metrics: engineMetrics,
    logger: logger.child({ component: 'carrier' }),
    live: () => natsReady(nc),
    ...(deps.clock ? { clock: deps.clock } : {}),
    port: config.CARRIER_PORT,
    host: deps.host,
  });
  const port = (carrier.address() as AddressInfo).port;
  return {
    store,
    port,
    /** The engine's hot tier (generated code), for tests. */
    hotTier,
    /** The checkout outcomes waiting to be sent, for tests. */
    outcomes,
    /** Ready while the cache can answer: the bucket was read once, whatever NATS does since. */
    ready: () => store.synced,
    stop: async () => {
      await closeServer(carrier, config.SHUTDOWN_DRAIN_MS);
      await outcomes.stop();
      await rpc.stop();
      await lane?.stop();
      await watcher.stop();
    },
  };
}
