import type { KV, KvEntry } from '@nats-io/kv';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { parseSnapshot } from '../engine';
import { openSnapshotBucket, type Logger, type NatsConnection } from '@ratesmith/kit';
import type { SnapshotSource, SnapshotStore } from './store';

/** A snapshot entry of the bucket, or undefined for a delete marker or bad JSON. */
function decode(entry: KvEntry, logger: Logger) {
  if (entry.operation !== 'PUT' || entry.length === 0) return undefined;
  try {
    return parseSnapshot(entry.json());
  } catch (err) {
    logger.error({ key: entry.key, err: (err as Error).message }, 'unreadable snapshot ignored');
    return undefined;
  }
}

/** A live change, applied in a span that continues the trace of the save that made it. */
function applyTraced(snapshot: ReturnType<typeof parseSnapshot>, apply: () => void): void {
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
 * Keeps the store in step with the NATS KV bucket: watches every key (the
 * last value of each first, then every change). The watch is started again
 * whenever the NATS connection comes back or the watch ends, so after an
 * outage it catches up on everything it missed; versions make the replay
 * harmless. While NATS is down the store keeps answering from memory.
 */
export class SnapshotWatcher {
  private kv: KV | undefined;
  private stopped = false;
  private current: { stop(): void } | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      nc: NatsConnection;
      bucket: string;
      /** JETSTREAM_REPLICAS: copies of the bucket if this creates it. */
      replicas?: number;
      store: SnapshotStore;
      logger: Logger;
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

  start(): void {
    this.loop = this.run();
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
    this.current?.stop();
    await this.loop;
  }

  private async open(): Promise<KV> {
    this.kv = await openSnapshotBucket(this.deps.nc, {
      bucket: this.deps.bucket,
      replicas: this.deps.replicas ?? 1,
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
        const watch = await kv.watch();
        this.current = watch;
        let initial = 0;
        if (expected === 0) store.synced = true;
        store.setLive(true);
        failures = 0;
        for await (const entry of watch) {
          const snapshot = decode(entry, logger);
          if (snapshot && entry.isUpdate) {
            applyTraced(snapshot, () => store.apply(snapshot, entry.created.getTime(), true));
          } else if (snapshot) {
            // During the initial load, compile only while the cache has room.
            store.apply(snapshot, entry.created.getTime(), store.cachedCount < store.capacity);
          } else if (entry.operation !== 'PUT') {
            store.forget(entry.key);
          }
          if (!store.synced && (entry.isUpdate || ++initial >= expected)) {
            store.synced = true;
            logger.info({ shops: store.knownCount }, 'snapshots loaded');
          }
        }
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
