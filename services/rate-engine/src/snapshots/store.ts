import type { Snapshot } from '@ratesmith/contracts';
import type { Logger } from '@ratesmith/kit';
import { compileSnapshot, type CompiledSnapshot } from '../engine';
import type { EngineMetrics } from '../metrics';
import type { CompiledShadow } from '../outcomes/shadow';
import { Lru } from './lru';

/** A compiled snapshot and when the rules service wrote it. */
export interface CachedSnapshot {
  compiled: CompiledSnapshot;
  writtenAt: number;
  /** The shop's shadow (docs/shopify.md, "Shadow mode"); null: none. */
  shadow: CompiledShadow | null;
}

/**
 * A snapshot made ready for the cache: its compiled forms and what names it. Plain
 * data (typed arrays, maps, sets), so the preview lane can make it from a large
 * snapshot and hand it over by structured clone: 47 KB for a 100 × 50 ruleset,
 * read in well under a millisecond, where the snapshot itself took about 7 ms to
 * hand over and 3 to 13 ms more to compile on the checkout's thread.
 */
export interface PreparedSnapshot extends Pick<
  Snapshot,
  'shop' | 'version' | 'rateKey' | 'traceparent'
> {
  compiled: CompiledSnapshot;
  shadow: CompiledShadow | null;
}

/** Compiles a snapshot (and its shadow): throws when it cannot be compiled. */
export function prepareSnapshot(snapshot: Snapshot): PreparedSnapshot {
  const { shop, version, rateKey, traceparent } = snapshot;
  return {
    shop,
    version,
    rateKey,
    traceparent,
    compiled: compileSnapshot(snapshot),
    shadow: shadowOf(snapshot),
  };
}

/** Reads one shop's snapshot from the bucket: undefined when it has none. */
export type SnapshotSource = (
  shop: string,
) => Promise<{ snapshot: Snapshot; writtenAt: number } | undefined>;

interface Known {
  version: number;
  rateKey: string | null;
}

/**
 * Every replica's view of the snapshots: a small index of every shop's
 * latest version and rate key (so a callback maps its key to a shop without
 * trusting anything the caller says), and the compiled snapshots in an LRU of
 * bounded size. A missing compiled snapshot is read from the bucket.
 *
 * Versions only go forward: a snapshot older than the one known is ignored,
 * whichever path (watch or read-on-miss) brings it. A newer one replaces the
 * compiled form in one assignment, so a quote sees the old or the new
 * version, never a mix.
 */
export class SnapshotStore {
  private readonly known = new Map<string, Known>();
  private readonly shopByKey = new Map<string, string>();
  private readonly cache: Lru<string, CachedSnapshot>;
  private readonly inFlight = new Map<string, Promise<CachedSnapshot | undefined>>();
  /** True once the bucket's content was read in full: from then on an unknown key is unknown. */
  synced = false;
  /** Since when the watch has not been live (undefined while it is). */
  private staleSince: number | undefined = Date.now();

  constructor(
    private readonly deps: {
      capacity: number;
      source: SnapshotSource;
      fetchTimeoutMs: number;
      logger: Logger;
      metrics: EngineMetrics;
    },
  ) {
    this.cache = new Lru(deps.capacity);
  }

  get capacity(): number {
    return this.cache.capacity;
  }

  get cachedCount(): number {
    return this.cache.size;
  }

  get knownCount(): number {
    return this.known.size;
  }

  /** The watch is live (true) or lost (false). */
  setLive(live: boolean): void {
    if (live) this.staleSince = undefined;
    else this.staleSince ??= Date.now();
  }

  /** Seconds the cache may have been out of date: 0 while the watch is live. */
  staleSeconds(): number {
    return this.staleSince === undefined ? 0 : (Date.now() - this.staleSince) / 1000;
  }

  shopForKey(rateKey: string): string | undefined {
    return this.shopByKey.get(rateKey);
  }

  /**
   * Takes a snapshot from the watch or a read. `compile: false` only records
   * the version and key (the initial load of more shops than the cache holds).
   * Returns what is cached for the shop afterwards.
   */
  apply(snapshot: Snapshot, writtenAt: number, compile = true): CachedSnapshot | undefined {
    const { shop, version } = snapshot;
    const cached = this.cache.peek(shop);
    if (!this.admit(snapshot, cached)) return cached;
    if (!compile && !cached) return undefined;
    try {
      return this.keep(prepareSnapshot(snapshot), writtenAt);
    } catch (err) {
      // The rules service validates before it publishes, so this is a defect;
      // the previous version (if any) keeps answering.
      this.deps.logger.error(
        { shop, version, err: (err as Error).message },
        'snapshot could not be compiled; keeping the previous version',
      );
      return cached;
    }
  }

  /** apply, for a snapshot already compiled (on the preview lane). */
  applyPrepared(
    prepared: PreparedSnapshot,
    writtenAt: number,
    compile = true,
  ): CachedSnapshot | undefined {
    const cached = this.cache.peek(prepared.shop);
    if (!this.admit(prepared, cached)) return cached;
    if (!compile && !cached) return undefined;
    return this.keep(prepared, writtenAt);
  }

  /** Whether a version goes forward (then it is remembered): versions never go back. */
  private admit(
    { shop, version, rateKey }: Pick<Snapshot, 'shop' | 'version' | 'rateKey'>,
    cached: CachedSnapshot | undefined,
  ): boolean {
    const known = this.known.get(shop);
    if (known && known.version > version) return false;
    if (cached && cached.compiled.version >= version) return false;
    this.remember(shop, version, rateKey);
    return true;
  }

  private keep({ shop, compiled, shadow }: PreparedSnapshot, writtenAt: number): CachedSnapshot {
    const entry = { compiled, writtenAt, shadow };
    this.cache.set(shop, entry);
    return entry;
  }

  /** The shop's snapshot was deleted (shop redacted or uninstalled). */
  forget(shop: string): void {
    const known = this.known.get(shop);
    if (known?.rateKey && this.shopByKey.get(known.rateKey) === shop) {
      this.shopByKey.delete(known.rateKey);
    }
    this.known.delete(shop);
    this.cache.delete(shop);
  }

  /** The compiled snapshot if cached (counts a hit), without waiting. */
  cached(shop: string): CachedSnapshot | undefined {
    const entry = this.cache.get(shop);
    if (entry) this.deps.metrics.cacheLookup(true);
    return entry;
  }

  /**
   * The shop's compiled snapshot: from the cache, else read from the bucket
   * within the fetch timeout. Undefined when the shop has no snapshot; throws
   * when the bucket cannot be read in time.
   */
  async get(shop: string): Promise<CachedSnapshot | undefined> {
    const hit = this.cached(shop);
    if (hit) return hit;
    this.deps.metrics.cacheLookup(false);
    let pending = this.inFlight.get(shop);
    if (!pending) {
      pending = this.read(shop).finally(() => this.inFlight.delete(shop));
      this.inFlight.set(shop, pending);
    }
    return pending;
  }

  private async read(shop: string): Promise<CachedSnapshot | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('reading the snapshot timed out')),
        this.deps.fetchTimeoutMs,
      );
    });
    try {
      // A read can return an older version than the watch already announced
      // (a lagging replica of the stream); read once more in that case.
      for (let attempt = 0; attempt < 2; attempt++) {
        const found = await Promise.race([this.deps.source(shop), timeout]);
        if (!found) return undefined;
        const entry = this.apply(found.snapshot, found.writtenAt);
        if (entry) return entry;
      }
      throw new Error('the bucket returned an older snapshot than the one announced');
    } finally {
      clearTimeout(timer);
    }
  }

  private remember(shop: string, version: number, rateKey: string | null): void {
    const previous = this.known.get(shop);
    if (previous?.rateKey && previous.rateKey !== rateKey) {
      if (this.shopByKey.get(previous.rateKey) === shop) this.shopByKey.delete(previous.rateKey);
    }
    if (rateKey) this.shopByKey.set(rateKey, shop);
    this.known.set(shop, { version, rateKey });
  }
}

/** The shadow ruleset compiled as the snapshot's regular rules, beside the native rates. */
function shadowOf(snapshot: Snapshot): CompiledShadow | null {
  if (!snapshot.shadow) return null;
  const { ruleset, native } = snapshot.shadow;
  return {
    compiled: compileSnapshot({ ...snapshot, globalRuleset: ruleset, shadow: null }),
    native,
  };
}
