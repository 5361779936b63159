import type { KV } from '@nats-io/kv';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { parseSnapshot } from '../engine';
import {
  BucketFeed,
  decodeSnapshot,
  openSnapshotBucket,
  type FeedEntry,
  type Logger,
  type NatsConnection,
} from '@ratesmith/kit';
import type { Snapshot } from '@ratesmith/contracts';
import type { EngineMetrics } from '../metrics';
import type { PreparedSnapshot, SnapshotSource, SnapshotStore } from './store';

type Entry = Pick<FeedEntry, 'operation' | 'length' | 'value' | 'key'>;

/** A snapshot entry of the bucket, or undefined for a delete marker or bad JSON. */
function decode(entry: Entry, logger: Logger) {
  if (entry.operation !== 'PUT' || entry.length === 0) return undefined;
  try {
    return parseSnapshot(decodeSnapshot(entry.value));
  } catch (err) {
    logger.error({ key: entry.key, err: (err as Error).message }, 'unreadable snapshot ignored');
    return undefined;
  }
}

/**
 * Decodes and compiles a large snapshot elsewhere (the preview lane): the
 * snapshot made ready for the cache, or undefined when it could not be asked in
 * time. Throws when it could not be read or compiled there.
 */
export type LargeSnapshotDecoder = (value: Uint8Array) => Promise<PreparedSnapshot | undefined>;

/** Whether kit's packJson gzipped the value, as it does past 64 KB: gzip's magic bytes. */
const isLarge = (value: Uint8Array) => value.length > 2 && value[0] === 0x1f && value[1] === 0x8b;

/** A snapshot of the watch: decoded here, or decoded and compiled on the lane. */
type Decoded = { snapshot: Snapshot } | { prepared: PreparedSnapshot };

/**
 * decode, with a large snapshot's unpacking, checks and compiling (about 25 ms
 * and 3 to 13 ms of one core for a 100 × 50 ruleset) done by `offload` when
 * there is one: off the thread that answers checkout. What the lane did not do
 * in time, or could not do, is done here, as without a lane (with its errors).
 */
async function decodeFromWatch(
  entry: Entry,
  logger: Logger,
  offload: LargeSnapshotDecoder | undefined,
  metrics: Pick<EngineMetrics, 'snapshotDecoded'> | undefined,
): Promise<Decoded | undefined> {
  if (offload && entry.operation === 'PUT' && isLarge(entry.value)) {
    const prepared = await offload(entry.value).catch(() => undefined);
    metrics?.snapshotDecoded(prepared ? 'lane' : 'inline');
    if (prepared) return { prepared };
  }
  const snapshot = decode(entry, logger);
  return snapshot && { snapshot };
}

/** A live change, applied in a span that continues the trace of the save that made it. */
function applyTraced(
  snapshot: Pick<Snapshot, 'shop' | 'version' | 'traceparent'>,
  apply: () => void,
): void {
  const parent = snapshot.traceparent
    ? propagation.extract(context.active(), { traceparent: snapshot.traceparent })
    : context.active();
  const attributes = { 'ratesmith.shop': snapshot.shop, 'ratesmith.version': snapshot.version };
  trace
    .getTracer('ratesmith-rate-engine')
    .startActiveSpan('snapshot apply', { kind: SpanKind.CONSUMER, attributes }, parent, (span) => {
      try {
        apply();
      } finally {
        span.end();
      }
    });
}

/**
 * Shops of the first read between two `onLoadStep` calls. The service frees the
 * load's garbage there: without it, 10,000 large snapshots parsed and compiled
 * in one go peaked at 514 to 548 MB resident before V8 collected; every 1,000
 * shops, 332 MB, for 1.3 s more load (docs/performance.md, 4a).
 */
export const LOAD_STEP = 1000;

/**
 * Keeps the store in step with the NATS KV bucket: reads every entry, then
 * every change (BucketFeed, services/kit/src/bucket-feed.ts: direct gets by
 * sequence, no consumer, so the engine's bus user needs no grant to create
 * one). The watch is started again whenever the NATS connection comes back or
 * the feed ends, so after an outage it catches up on everything it missed;
 * versions make the replay harmless. While NATS is down the store keeps
 * answering from memory.
 *
 * The watch is also started again when it is behind the bucket's last
 * revision and delivers nothing for a whole check period: a feed whose
 * requests hang (a NATS cluster node gone mid-call) starts over elsewhere.
 */
export class SnapshotWatcher {
  private kv: KV | undefined;
  private stopped = false;
  private current: { stop(): void } | undefined;
  private loop: Promise<void> | undefined;
  private checker: NodeJS.Timeout | undefined;
  /** What the current watch delivered: entries, the highest revision, and whether its first load is done. */
  private delivered = { count: 0, revision: 0, loaded: false };
  /** The previous check, when the watch was behind the bucket: its count, and the bucket's last revision. */
  private behind: { count: number; last: number } | undefined;
  private checking = false;

  constructor(
    private readonly deps: {
      nc: NatsConnection;
      bucket: string;
      /** JETSTREAM_REPLICAS: copies of the bucket if this creates it. */
      replicas?: number;
      store: SnapshotStore;
      logger: Logger;
      /** How often the watch is compared with the bucket; 2 s unless told. */
      stallCheckMs?: number;
      /** How often the feed asks for changes while none come; 250 ms unless told. */
      pollMs?: number;
      /** The subject rules announces each snapshot on (SnapshotPublished): the feed looks at once. */
      announcedOn?: string;
      /** Where large snapshots of the watch are decoded (the preview lane); here unless given. */
      decodeLarge?: LargeSnapshotDecoder;
      /** Counts where large snapshots were decoded (with decodeLarge). */
      metrics?: Pick<EngineMetrics, 'snapshotDecoded'>;
      /**
       * Bound on each JetStream call (NATS_REQUEST_TIMEOUT_MS): a watch placed on a node
       * that just died fails this fast and is made again elsewhere.
       */
      timeoutMs?: number;
      /** Called once, when the bucket was read in full for the first time. */
      onLoaded?: () => void;
      /** Called after every `loadStep` shops (LOAD_STEP unless told) of that first read, but the last. */
      onLoadStep?: () => void;
      loadStep?: number;
    },
  ) {}

  /** Reads one shop's snapshot from the bucket (the store's read on a cache miss). */
  readonly source: SnapshotSource = async (shop) => {
    const kv = this.kv ?? (await this.open());
    const entry = await kv.get(shop);
    if (!entry) return undefined;
    const snapshot = decode(entry, this.deps.logger);
    return snapshot ? { snapshot, writtenAt: entry.created.getTime() } : undefined;
  };

  /** One shop's entry as the bucket holds it, not decoded (the preview lane decodes it). */
  readonly rawEntry = async (
    shop: string,
  ): Promise<{ value: Uint8Array; writtenAt: number } | undefined> => {
    const entry = await (this.kv ?? (await this.open())).get(shop);
    if (!entry || entry.operation !== 'PUT' || entry.length === 0) return undefined;
    return { value: entry.value, writtenAt: entry.created.getTime() };
  };

  start(): void {
    this.loop = this.run();
    this.checker = setInterval(() => void this.checkNotStalled(), this.deps.stallCheckMs ?? 2000);
    this.checker.unref();
    void (async () => {
      for await (const status of this.deps.nc.status()) {
        if (status.type === 'disconnect') this.deps.store.setLive(false);
        if (status.type === 'reconnect') {
          this.deps.logger.info('NATS is back; watching the snapshots again to catch up');
          this.current?.stop();
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.checker);
    this.current?.stop();
    await this.loop;
  }

  /**
   * Starts the watch again when it was behind the bucket's last revision at
   * two checks in a row and either delivered nothing in between or, past its
   * first load (which may take a while), still lacks what the bucket held at
   * the first of them.
   */
  private async checkNotStalled(): Promise<void> {
    const kv = this.kv;
    if (!kv || !this.current || this.stopped || this.checking) return;
    let last: number;
    this.checking = true;
    try {
      last = (await kv.status()).streamInfo.state.last_seq;
    } catch {
      // NATS or the bucket's leader is away: the reconnect and the watch's own retry handle that.
      return;
    } finally {
      this.checking = false;
    }
    const { count, revision, loaded } = this.delivered;
    const previous = this.behind;
    this.behind = last > revision ? { count, last } : undefined;
    if (!previous || !this.behind) return;
    if (count === previous.count || (loaded && revision < previous.last)) {
      this.deps.logger.warn(
        { delivered: revision, bucket: last },
        'snapshot watch stalled behind the bucket; watching again',
      );
      this.behind = undefined;
      this.current.stop();
    }
  }

  private async open(): Promise<KV> {
    this.kv = await openSnapshotBucket(this.deps.nc, {
      bucket: this.deps.bucket,
      replicas: this.deps.replicas ?? 1,
      timeoutMs: this.deps.timeoutMs,
    });
    return this.kv;
  }

  private async run(): Promise<void> {
    const { store, logger } = this.deps;
    let failures = 0;
    while (!this.stopped) {
      try {
        const kv = await this.open();
        const expected = (await kv.status()).values;
        const watch = new BucketFeed({
          nc: this.deps.nc,
          bucket: this.deps.bucket,
          pollMs: this.deps.pollMs ?? 250,
          timeoutMs: this.deps.timeoutMs,
          wakeOn: this.deps.announcedOn,
        });
        this.current = watch;
        this.delivered = { count: 0, revision: 0, loaded: expected === 0 };
        this.behind = undefined;
        let initial = 0;
        let seen = 0;
        if (expected === 0) store.synced = true;
        store.setLive(true);
        failures = 0;
        for await (const entry of watch) {
          const decoded = await decodeFromWatch(
            entry,
            logger,
            this.deps.decodeLarge,
            this.deps.metrics,
          );
          // During the initial load, compile only while the cache has room.
          const compile = entry.isUpdate || store.cachedCount < store.capacity;
          const apply = (d: Decoded) =>
            'prepared' in d
              ? store.applyPrepared(d.prepared, entry.created.getTime(), compile)
              : store.apply(d.snapshot, entry.created.getTime(), compile);
          if (decoded && entry.isUpdate) {
            applyTraced('prepared' in decoded ? decoded.prepared : decoded.snapshot, () =>
              apply(decoded),
            );
          } else if (decoded) {
            apply(decoded);
          } else if (entry.operation !== 'PUT') {
            store.forget(entry.key);
          }
          if (!store.synced) {
            if (entry.isUpdate || ++initial >= expected) {
              // Before the replica is ready, so the collection's pause meets no callback.
              this.deps.onLoaded?.();
              store.synced = true;
              logger.info({ shops: store.knownCount }, 'snapshots loaded');
            } else if (initial % (this.deps.loadStep ?? LOAD_STEP) === 0) this.deps.onLoadStep?.();
          }
          this.delivered.count++;
          this.delivered.revision = Math.max(this.delivered.revision, entry.revision);
          if (entry.isUpdate || ++seen >= expected) this.delivered.loaded = true;
        }
        this.current = undefined;
      } catch (err) {
        failures++;
        store.setLive(false);
        if (!this.stopped)
          logger.warn({ err: (err as Error).message }, 'snapshot watch failed; retrying');
      }
      if (!this.stopped)
        await new Promise((r) => setTimeout(r, Math.min(200 * 2 ** failures, 5000)));
    }
  }
}
