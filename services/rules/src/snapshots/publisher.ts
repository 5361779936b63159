import { create, toBinary } from '@bufbuild/protobuf';
import type { KV } from '@nats-io/kv';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import {
  eventSubject,
  namedProductTexts,
  nativeLocationGroupSchema,
  rulesV1,
  type NamedProductTexts,
  type Snapshot,
  type SnapshotFilter,
  type SnapshotSettings,
} from '@ratesmith/contracts';
import {
  decodeSnapshot,
  encodeSnapshot,
  maxBody,
  megabytes,
  withDeadline,
  type Logger,
  type NatsConnection,
} from '@ratesmith/kit';
import type { ProductFactsRepository } from '../data/product-facts.repository';
import type { ProductRuleRecord, ProductRulesRepository } from '../data/product-rules.repository';
import type { RulesetsRepository } from '../data/rulesets.repository';
import type { SettingsRepository } from '../data/settings.repository';
import type { SnapshotVersionsRepository } from '../data/snapshot-versions.repository';
import { createSnapshotMetrics, type SnapshotMetrics } from './metrics';

/**
 * Writes each shop's snapshot (docs/rates.md) to the NATS KV
 * bucket. MongoDB is the system of record; the bucket is a cache rebuilt from
 * it. Versions come from a per-shop counter in MongoDB, and a write never
 * replaces a newer snapshot (compare-and-set on the KV revision), so
 * concurrent changes on several replicas cannot make the bucket go backwards.
 * A write that fails (NATS down) leaves the shop marked dirty and is retried.
 */
/**
 * What a change did to its shop's snapshot, applied to the bucket's snapshot of
 * the version just before the change's; undefined when the change cannot say
 * (the snapshot is then built from MongoDB). See `putBuilt`.
 */
export type SnapshotPatch = (previous: Snapshot) => Snapshot | undefined;

/**
 * What a change knows that spares its build reads: the active ruleset it expects
 * (read beside the settings, see build) and its patch (see putBuilt).
 */
interface BuildHints {
  activeId?: string;
  patch?: SnapshotPatch;
  /** The shop's product facts changed: read the index again even when the rules name the same. */
  productsChanged?: boolean;
}

/** Times a publish whose version the bucket already had is tried again under a new one. */
const MAX_SUPERSEDED = 2;
/** Shops whose active ruleset id a replica remembers for its next build's guess. */
const REMEMBERED_SHOPS = 10_000;

export class SnapshotPublisher {
  private retryTimer: NodeJS.Timeout | undefined;
  /** The last publish queued per shop: publishes of one shop run one after another. */
  private readonly queue = new Map<string, Promise<void>>();
  /** Shops with a change being written in this replica: it publishes them itself. */
  private readonly changing = new Map<string, number>();
  /** Marks being cleared after a publish, per shop (see markPublishedLater). */
  private readonly clearing = new Map<string, Promise<void>>();
  /**
   * Shops this replica changed or unmarked since the retry loop's pass began: the
   * pass's list of marked shops may predate that, so it leaves them to the next pass.
   */
  private readonly touchedDuringPass = new Set<string>();
  /** The active ruleset id each shop's last build read (see build). */
  private readonly lastActive = new Map<string, string>();
  private readonly metrics: SnapshotMetrics;

  constructor(
    private readonly deps: {
      kv: KV;
      nc: NatsConnection;
      settings: SettingsRepository;
      versions: SnapshotVersionsRepository;
      rulesets: RulesetsRepository;
      productRules: ProductRulesRepository;
      productFacts: ProductFactsRepository;
      /** Told of each snapshot whose conditions name a type or a tag (the first export). */
      onProductIndexUsed?: (shop: string) => Promise<void>;
      logger: Logger;
      subjectPrefix: string;
      /** Made on the global meter provider unless given. */
      metrics?: SnapshotMetrics;
    },
  ) {
    this.metrics = deps.metrics ?? createSnapshotMetrics();
  }

  /**
   * After a change: a new version, built from the database, written to the
   * bucket. Never throws: the change itself is already saved, so a failure
   * here is logged and repaired by the retry loop or the next rebuild.
   * `version`: one `change` took before its write (none: a new one is taken).
   */
  publish(shop: string, version?: number, hints: BuildHints = {}): Promise<void> {
    // In one replica, a shop's publishes run in order, so the last one starts after the
    // last change and reads it. Across replicas the MongoDB counter orders them
    // (FerretDB, used locally, does not make $inc atomic under concurrency; this covers it).
    const previous = this.queue.get(shop) ?? Promise.resolve();
    const next = previous.then(() => this.publishNow(shop, version, hints));
    this.queue.set(shop, next);
    void next.finally(() => {
      if (this.queue.get(shop) === next) this.queue.delete(shop);
    });
    return next;
  }

  /**
   * After the shop's product facts changed (the catalog's refresh): a new
   * snapshot with its index read again, only when the published one's
   * conditions name a type or a tag (no other shop's snapshot changes).
   */
  async publishProductChange(shop: string): Promise<void> {
    const entry = await this.deps.kv.get(shop);
    if (!entry || entry.operation !== 'PUT' || entry.length === 0) return;
    const named = namedTextsOf(decodeSnapshot(entry.value) as Snapshot);
    if (named.types.size === 0 && named.tags.size === 0) return;
    await this.publish(shop, undefined, { patch: (previous) => previous, productsChanged: true });
  }

  private async publishNow(
    shop: string,
    taken: number | undefined,
    hints: BuildHints,
  ): Promise<void> {
    let version: number;
    try {
      version = taken ?? (await this.deps.versions.next(shop));
    } catch (err) {
      this.deps.logger.error(
        { err: (err as Error).message, shop },
        'snapshot version not taken; rebuild will repair',
      );
      return;
    }
    await this.write(shop, version, hints);
  }

  /**
   * The shop's snapshot as MongoDB holds it now. Its three reads go together: the
   * active ruleset is read by the id the caller expects (a Save All of it), else by
   * the one this replica last saw active, beside the settings that name it; only
   * when the settings name another is it read again, after them.
   */
  async build(shop: string, version: number, activeGuess?: string): Promise<Snapshot> {
    const { settings, rulesets, productRules } = this.deps;
    const guess = activeGuess ?? this.lastActive.get(shop);
    const [state, guessed, products] = await Promise.all([
      settings.get(shop),
      guess ? rulesets.get(shop, guess) : undefined,
      productRules.list(shop),
    ]);
    const activeId = state.globalRuleId;
    const active = !activeId
      ? undefined
      : guessed?.id === activeId
        ? guessed
        : await rulesets.get(shop, activeId);
    this.rememberActive(shop, activeId);
    const shadow = state.shadow && (await rulesets.get(shop, state.shadow.ruleset_id));
    const built: Snapshot = {
      shop,
      version,
      rateKey: state.rateKey,
      settings: state.settings,
      globalRuleset: active ? { id: active.id, name: active.name, filters: active.filters } : null,
      productRules: products.map(snapshotProductRule),
      products: {},
      shadow:
        state.shadow && shadow
          ? {
              ruleset: { id: shadow.id, name: shadow.name, filters: shadow.filters },
              native: nativeLocationGroupSchema.parse(JSON.parse(state.shadow.native_json)),
              startedAt: state.shadow.started_at.toISOString(),
            }
          : null,
    };
    return this.withProductIndex(built);
  }

  /**
   * The snapshot with its product index read for what its conditions name, unless
   * `previous` names the same (then its index is kept: the catalog's changes publish
   * on their own). A shop that names no type or tag reads nothing.
   */
  private async withProductIndex(snapshot: Snapshot, previous?: Snapshot): Promise<Snapshot> {
    const named = namedTextsOf(snapshot);
    if (named.types.size || named.tags.size) void this.deps.onProductIndexUsed?.(snapshot.shop);
    if (previous && sameNamedTexts(named, namedTextsOf(previous)))
      return { ...snapshot, products: previous.products ?? {} };
    const products = await this.deps.productFacts.indexFor(snapshot.shop, named);
    return { ...snapshot, products };
  }

  /** The shop's active ruleset id as last read, for the next build's guess (bounded). */
  private rememberActive(shop: string, activeId: string | null): void {
    this.lastActive.delete(shop);
    if (!activeId) return;
    if (this.lastActive.size >= REMEMBERED_SHOPS) {
      const oldest = this.lastActive.keys().next().value;
      if (oldest !== undefined) this.lastActive.delete(oldest);
    }
    this.lastActive.set(shop, activeId);
  }

  /**
   * Republishes shops whose snapshot is missing, older, or ahead of the database in the
   * bucket, or all given.
   */
  async rebuild(onlyShop?: string): Promise<number> {
    const shops = onlyShop
      ? [{ shop: onlyShop, version: Number.MAX_SAFE_INTEGER }]
      : await this.deps.versions.all();
    let published = 0;
    for (const { shop, version } of shops) {
      const current = await this.bucketVersion(shop);
      if (current === version) continue;
      // Every version comes from the counter, so only a restore puts the bucket ahead.
      if (current !== undefined && current > version) await this.overtake(shop, current);
      await this.publish(shop);
      published++;
    }
    return published;
  }

  /**
   * The bucket holds a version the counter never reached: MongoDB was restored from a
   * backup. Checkout must follow the restored rules, so the counter moves past it.
   */
  private async overtake(shop: string, bucketVersion: number): Promise<void> {
    this.deps.logger.warn(
      { shop, bucket_version: bucketVersion },
      'snapshot bucket is ahead of the database (restored from a backup?): republishing past it',
    );
    await this.deps.versions.advanceTo(shop, bucketVersion);
  }

  /** Retries shops whose last write did not reach the bucket. */
  async retryDirty(): Promise<void> {
    this.touchedDuringPass.clear();
    const dirty = await this.deps.versions.dirtyShops();
    this.metrics.unpublished(dirty.length);
    // A new version each time: a shop marked before its change was written may have no
    // version of that change yet, and the bucket refuses a version it already holds.
    // A change in flight here publishes itself; a second version of it would be noise.
    for (const shop of dirty) {
      if (
        !this.changing.has(shop) &&
        !this.queue.has(shop) &&
        !this.clearing.has(shop) &&
        !this.touchedDuringPass.has(shop)
      )
        await this.publish(shop);
    }
  }

  /**
   * Before a change of what the shop's snapshot holds is written: marks the shop
   * unpublished and takes the change's snapshot version, in one command
   * (`SnapshotVersionsRepository.next`). Call `release` once the change was
   * written and published, or failed.
   */
  async willChange(shop: string): Promise<{ release: () => void; version: number }> {
    this.touchedDuringPass.add(shop);
    this.changing.set(shop, (this.changing.get(shop) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (this.changing.get(shop) ?? 1) - 1;
      if (left > 0) this.changing.set(shop, left);
      else this.changing.delete(shop);
    };
    try {
      return { release, version: await this.deps.versions.next(shop) };
    } catch (err) {
      release();
      throw err;
    }
  }

  /**
   * The one way to change what a shop's snapshot holds: marked before the
   * write, so a crash between the write and the publish still reaches
   * checkout (the retry loop finds the mark); published after it, even when
   * the write changed nothing (the mark cannot be taken back safely: another
   * replica may have set it too); unmarked for this replica's retry loop.
   *
   * The mark takes the snapshot's version too, so the version precedes the
   * write: the build still reads MongoDB after the write, and a publish whose
   * version the bucket already passed (a concurrent change's, built before
   * this write) is published again under a new version (writeTraced), so the
   * bucket still ends with every change. `activeId`: the active ruleset the
   * change expects, read beside the settings (see build). `patch`: what the
   * written result changes in the snapshot, so the build need not read the
   * shop's other parts (see putBuilt).
   */
  async change<T>(
    shop: string,
    write: () => Promise<T>,
    options: { activeId?: string; patch?: (result: T) => SnapshotPatch } = {},
  ): Promise<T> {
    const { release, version } = await this.willChange(shop);
    try {
      const result = await write();
      await this.publish(shop, version, {
        activeId: options.activeId,
        patch: options.patch?.(result),
      });
      return result;
    } finally {
      release();
    }
  }

  startRetryLoop(intervalMs: number): void {
    const tick = () => {
      this.retryDirty()
        .catch((err) =>
          this.deps.logger.warn({ err: (err as Error).message }, 'snapshot retry failed'),
        )
        .finally(() => {
          if (this.retryTimer) this.retryTimer = setTimeout(tick, intervalMs);
        });
    };
    this.retryTimer = setTimeout(tick, intervalMs);
  }

  stopRetryLoop(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private async write(shop: string, version: number, hints: BuildHints): Promise<void> {
    const tracer = trace.getTracer('ratesmith-rules');
    await tracer.startActiveSpan(
      'snapshot publish',
      {
        kind: SpanKind.PRODUCER,
        attributes: { 'ratesmith.shop': shop, 'ratesmith.version': version },
      },
      async (span) => {
        try {
          await this.writeTraced(shop, version, hints);
        } finally {
          span.end();
        }
      },
    );
  }

  private async writeTraced(
    shop: string,
    version: number,
    hints: BuildHints,
    attempt = 0,
  ): Promise<void> {
    const { logger, versions } = this.deps;
    try {
      if (!(await this.putBuilt(shop, version, hints))) {
        const ahead = await this.bucketVersion(shop);
        if (ahead !== undefined && ahead > (await versions.current(shop)))
          await this.overtake(shop, ahead);
        // The bucket holds this version or a later one. With MongoDB's atomic $inc that one
        // was built after this build's reads; FerretDB's $inc is not atomic across replicas,
        // so two builds can share a version and the bucket's may predate this change. So
        // publish again under a version past it rather than trust it; past the attempts,
        // the shop stays marked and the retry loop publishes it.
        this.metrics.published('superseded');
        if (attempt < MAX_SUPERSEDED)
          // The patch was for the version just taken: the next one is built from MongoDB.
          return await this.writeTraced(
            shop,
            await versions.next(shop),
            { activeId: hints.activeId },
            attempt + 1,
          );
        logger.warn(
          { shop, version },
          'snapshot superseded repeatedly; the retry loop will publish it',
        );
        return;
      }
      this.metrics.published('published');
      this.announce(shop, version);
      logger.debug({ shop, version }, 'snapshot published');
      this.markPublishedLater(shop, version);
    } catch (err) {
      // The change itself is saved; the retry loop brings the bucket up to date.
      this.metrics.published('failed');
      logger.error(
        { err: (err as Error).message, shop, version },
        'snapshot not published; will retry',
      );
    }
  }

  /**
   * Clears the shop's mark after the answer: the snapshot is in the bucket, so
   * nothing of the change is left to lose. A crash before this write leaves the
   * mark, and the retry loop publishes the same rules once more under a new
   * version; a change taken since keeps its own mark (the write matches this
   * version only). The retry loop skips a shop until its mark is cleared.
   * After the answer: the caller's deadline does not stop it.
   */
  private markPublishedLater(shop: string, version: number): void {
    const done = withDeadline(undefined, () =>
      this.deps.versions.markPublished(shop, version),
    ).catch((err: unknown) =>
      this.deps.logger.warn(
        { err: (err as Error).message, shop, version },
        'snapshot mark not cleared; the retry loop will publish it again',
      ),
    );
    this.clearing.set(shop, done);
    void done.finally(() => {
      if (this.clearing.get(shop) === done) this.clearing.delete(shop);
    });
  }

  /** Waits for the marks still being cleared (before MongoDB closes at shutdown). */
  async drain(): Promise<void> {
    await Promise.all(this.clearing.values());
  }

  private async bucketVersion(shop: string): Promise<number | undefined> {
    const entry = await this.deps.kv.get(shop);
    if (!entry || entry.operation !== 'PUT' || entry.length === 0) return undefined;
    return (decodeSnapshot(entry.value) as Snapshot).version;
  }

  /**
   * Builds the shop's snapshot of `version` and puts it in the bucket; false when
   * the bucket already holds this version or a later one. The bucket's entry is
   * read before the build and the put compares its revision: a publish that
   * landed in between may hold a change this build's reads missed, so then the
   * entry is read and the snapshot built again. When the entry holds the version
   * just before this one, every change before this one is in it (each version is
   * taken before its write and published after it), so `patch` builds this one
   * from it without reading the shop's other parts; otherwise (a publish failed
   * or is still running, no patch, or it does not apply) MongoDB is read.
   */
  private async putBuilt(
    shop: string,
    version: number,
    { activeId, patch, productsChanged }: BuildHints,
  ): Promise<boolean> {
    const { kv, nc } = this.deps;
    for (let attempt = 0; ; attempt++) {
      const entry = await kv.get(shop);
      const previous =
        entry && entry.operation === 'PUT' && entry.length > 0
          ? (decodeSnapshot(entry.value) as Snapshot)
          : undefined;
      if (previous && previous.version >= version) return false;
      const patched = patch && previous?.version === version - 1 ? patch(previous) : undefined;
      this.metrics.built(patched ? 'previous' : 'database');
      const snapshot: Snapshot = patched
        ? {
            ...(await this.withProductIndex(patched, productsChanged ? undefined : previous)),
            version,
            traceparent: undefined,
          }
        : await this.build(shop, version, activeId);
      // The engine continues this trace when it picks the snapshot up.
      const carrier: { traceparent?: string } = {};
      propagation.inject(context.active(), carrier);
      if (carrier.traceparent) snapshot.traceparent = carrier.traceparent;
      const data = encodeSnapshot(snapshot);
      // Past NATS's limit the put fails on every retry: say why, once per publish.
      if (data.length > maxBody(nc))
        throw new Error(
          `snapshot too large for the bus: ${megabytes(data.length)} compressed, at most ${megabytes(maxBody(nc))}`,
        );
      try {
        if (entry) await kv.update(shop, data, entry.revision);
        else await kv.create(shop, data);
        return true;
      } catch (err) {
        // Another publish landed since the read: read again, build again.
        if (attempt === 4) throw err;
      }
    }
  }

  private announce(shop: string, version: number): void {
    const event = create(rulesV1.SnapshotPublishedSchema, { shop, version: BigInt(version) });
    this.deps.nc.publish(
      eventSubject(rulesV1.SnapshotPublishedSchema, this.deps.subjectPrefix),
      toBinary(rulesV1.SnapshotPublishedSchema, event),
    );
  }
}

/** The product types and tags a snapshot's conditions name (active lists only). */
function namedTextsOf(snapshot: Snapshot): NamedProductTexts {
  return namedProductTexts([
    snapshot.globalRuleset?.filters ?? [],
    snapshot.shadow?.ruleset.filters ?? [],
    ...snapshot.productRules.filter((rule) => rule.active).map((rule) => rule.filters),
  ]);
}

function sameNamedTexts(a: NamedProductTexts, b: NamedProductTexts): boolean {
  const same = (x: Set<string>, y: Set<string>) =>
    x.size === y.size && [...x].every((text) => y.has(text));
  return same(a.types, b.types) && same(a.tags, b.tags);
}

/** A product rule as the snapshot holds it. */
export function snapshotProductRule(rule: ProductRuleRecord): Snapshot['productRules'][number] {
  return {
    id: rule.id,
    productId: rule.productId,
    variantIds: rule.variantIds,
    active: rule.active,
    filters: rule.filters,
  };
}

/** A change of the active ruleset's name or filters (a Save All of it). */
export function patchActiveRuleset(ruleset: {
  id: string;
  name: string;
  filters: SnapshotFilter[];
}): SnapshotPatch {
  return (previous) =>
    previous.globalRuleset?.id === ruleset.id
      ? {
          ...previous,
          globalRuleset: { id: ruleset.id, name: ruleset.name, filters: ruleset.filters },
        }
      : undefined;
}

/** A change of one product rule the previous snapshot holds (its filters, its state). */
export function patchProductRule(
  id: string,
  change: (rule: Snapshot['productRules'][number]) => Snapshot['productRules'][number],
): SnapshotPatch {
  return (previous) => {
    const at = previous.productRules.findIndex((rule) => rule.id === id);
    if (at < 0) return undefined;
    const productRules = [...previous.productRules];
    productRules[at] = change(productRules[at]!);
    return { ...previous, productRules };
  };
}

/** The shop's settings as saved, every field. */
export function patchSettings(settings: SnapshotSettings): SnapshotPatch {
  return (previous) => ({ ...previous, settings });
}
