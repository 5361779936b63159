import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { FEE_BUCKETS, feeBucketOf, rulesV1 } from '@ratesmith/contracts';
import type { Logger } from '@ratesmith/kit';
import type { CompiledSnapshot, FilterHits, Rate, RateRequest } from '../engine';
import { splitBatch } from './batches';
import {
  keptLines,
  KEPT_LINES,
  type Batch,
  type DayDetail,
  type OutcomeCount,
  type RecentCheckout,
  type SampleCart,
  type ShadowCheckout,
} from './entries';
import { FilterTally } from './filter-tally';

/**
 * Checkout outcomes and per-filter analytics, off the checkout path
 * (docs/architecture.md): a callback only adds to in-memory tallies (and,
 * for the first carts of a window that got the fallback or no rate, copies a
 * few figures of the cart); a timer sends the tallies to the rules service
 * every few seconds, in batches kept well under NATS's message limit. No
 * callback ever waits for that.
 *
 * What a callback counts, per shop per UTC day: `standard` when its answer had
 * the standard rate, `bump` when it also had the bump rate (so bump is a part
 * of standard), `fallback` when it had only the fallback rate, `noRate` when
 * it had none; the standard rate's total in one of FEE_BUCKETS; and per filter
 * its quote matched: matched, stopped (ended its list) and the fee change.
 *
 * Memory is bounded: shop-days, filter counters and sample carts a window are
 * capped, and batches the rules service could not take (it or NATS is down)
 * wait in a backlog of `backlogBatches`, the oldest dropped first.
 */

/** The outcomes sample carts are kept of (the Dashboard opens them in the preview). */
type SampledOutcome = 'fallback' | 'no_rate';

const BATCH = rulesV1.RecordCheckoutOutcomesRequestSchema;

/** Where batches go: the rules service's RecordCheckoutOutcomes. */
export type OutcomeSink = (batch: rulesV1.RecordCheckoutOutcomesRequest) => Promise<unknown>;

export const OUTCOME_LIMITS = {
  /** Distinct shop-day tallies a window; callbacks of further shops in that window are not counted. */
  keys: 10_000,
  /**
   * Filter counters a window (24 bytes each): 10,000 shops of 20 filters.
   * Beyond, a callback's rate is counted but not its filters.
   */
  filterCounters: 200_000,
  /**
   * Estimated bytes of one batch, far under NATS's 1 MB message limit: what the
   * rules service stores in well under its 10 s answer time on FerretDB (about
   * 350 filter counts, 0.15 to 0.9 s measured; 8 shop-days of 100 filters took 23 s).
   */
  batchBytes: 32 * 1024,
  samplesPerShop: 2,
  samplesPerWindow: 200,
  /** Traced recent checkouts a window (the sampler's 20 a second fill it in 5 s at most). */
  recentPerWindow: 100,
  /** Shadow carts a window (the shadow sampler's 50 a second fill it in 5 s). */
  shadowPerWindow: 250,
  /** Lines kept of a sample cart. */
  lines: KEPT_LINES,
  /** Batches waiting for the rules service (at most about 19 MB). */
  backlogBatches: 600,
};

const OUTCOME_CODE: Record<SampledOutcome, rulesV1.CheckoutOutcome> = {
  fallback: rulesV1.CheckoutOutcome.FALLBACK,
  no_rate: rulesV1.CheckoutOutcome.NO_RATE,
};
const DAY_MS = 86_400_000;

interface Tally {
  shop: string;
  /** Days since 1970, UTC. */
  day: number;
  standard: number;
  bump: number;
  fallback: number;
  noRate: number;
  /** Of noRate, the callbacks a Block Shipping filter answered. */
  blocked: number;
  /** Callbacks a FEE_BUCKETS entry. */
  fees: Int32Array;
  filters: FilterTally;
  samples: number;
}

export class OutcomeRecorder {
  /** By `${day} ${shop}`. */
  private tallies = new Map<string, Tally>();
  /** Each shop's tally of the latest day it was counted on (the same objects). */
  private latest = new Map<string, Tally>();
  private carts: SampleCart[] = [];
  private recent: RecentCheckout[] = [];
  private shadow: ShadowCheckout[] = [];
  /**
   * Batches waiting, encoded: as bytes a batch takes a fraction of what its
   * objects would, which matters while the rules service is down for minutes.
   */
  private readonly backlog: Uint8Array[] = [];
  private sending = false;
  private timer: NodeJS.Timeout | undefined;
  private failing = false;
  /** Batches dropped from a full backlog, and callbacks not counted for want of room. */
  private dropped = { batches: 0, callbacks: 0, recent: 0, shadow: 0, filterCounts: 0 };
  private filterCounters = 0;
  private sent = 0;
  private readonly roomForFilters = (filters: number) => {
    if (this.filterCounters + filters > OUTCOME_LIMITS.filterCounters) return false;
    this.filterCounters += filters;
    return true;
  };

  constructor(
    private readonly deps: {
      sink: OutcomeSink;
      logger: Logger;
      /** How often the window is sent (OUTCOME_FLUSH_MS). */
      flushMs: number;
      now?: () => number;
    },
  ) {}

  /**
   * Counts one callback: what it answered and, when it was quoted against a
   * snapshot, the filters the quote matched (`hits`, filled by Quoter.quote).
   * Synchronous and cheap: it runs on the checkout path.
   */
  record(
    shop: string,
    rates: readonly Rate[],
    request: RateRequest,
    compiled: CompiledSnapshot | null = null,
    hits: FilterHits | null = null,
    /** A Block Shipping filter answered: no rate on purpose, so no cart is kept to look at. */
    blocked = false,
  ): void {
    const now = (this.deps.now ?? Date.now)();
    const day = Math.floor(now / DAY_MS);
    // The shop's tally of its latest day, found without making a key (the checkout path).
    let tally = this.latest.get(shop);
    if (tally === undefined || tally.day !== day) tally = this.tallyOf(shop, day);
    if (tally === undefined) {
      this.dropped.callbacks++;
      return;
    }
    const first = rates[0];
    if (first === undefined) {
      tally.noRate++;
      if (blocked) tally.blocked++;
    } else if (first.service_code === 'RATESMITH_FALLBACK') tally.fallback++;
    else {
      tally.standard++;
      if (rates.length > 1) tally.bump++;
      tally.fees[feeBucketOf(Number(first.total_price))]!++;
    }
    if (
      compiled !== null &&
      hits !== null &&
      hits.count > 0 &&
      !tally.filters.add(compiled, hits, this.roomForFilters)
    )
      this.dropped.filterCounts++;
    const outcome: SampledOutcome | null =
      first === undefined
        ? blocked
          ? null
          : 'no_rate'
        : first.service_code === 'RATESMITH_FALLBACK'
          ? 'fallback'
          : null;
    if (
      outcome !== null &&
      tally.samples < OUTCOME_LIMITS.samplesPerShop &&
      this.carts.length < OUTCOME_LIMITS.samplesPerWindow
    ) {
      tally.samples++;
      this.carts.push(sampleOf(shop, outcome, request, now));
    }
  }

  /** The shop-day's tally, made when there is room for one more (else undefined). */
  private tallyOf(shop: string, day: number): Tally | undefined {
    const key = `${day} ${shop}`;
    let tally = this.tallies.get(key);
    if (tally === undefined) {
      if (this.tallies.size >= OUTCOME_LIMITS.keys) return undefined;
      tally = {
        shop,
        day,
        standard: 0,
        bump: 0,
        fallback: 0,
        noRate: 0,
        blocked: 0,
        fees: new Int32Array(FEE_BUCKETS.length),
        filters: new FilterTally(),
        samples: 0,
      };
      this.tallies.set(key, tally);
    }
    if (day >= (this.latest.get(shop)?.day ?? -1)) this.latest.set(shop, tally);
    return tally;
  }

  /** Keeps a traced callback for the next batch (after its answer was sent). */
  addRecent(checkout: RecentCheckout): void {
    if (this.recent.length < OUTCOME_LIMITS.recentPerWindow) this.recent.push(checkout);
    else this.dropped.recent++;
  }

  /** Keeps a shadow cart's comparison for the next batch (after its answer was sent). */
  addShadow(checkout: ShadowCheckout): void {
    if (this.shadow.length < OUTCOME_LIMITS.shadowPerWindow) this.shadow.push(checkout);
    else this.dropped.shadow++;
  }

  /** Sends every `flushMs`; the timer never keeps the process alive. */
  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.deps.flushMs);
    this.timer.unref();
  }

  /** Stops the timer and makes one last attempt to send what is left. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Closes the window into batches and sends the backlog, oldest first, until one fails. */
  async flush(): Promise<void> {
    if (this.tallies.size > 0 || this.recent.length > 0 || this.shadow.length > 0) {
      const fresh = splitBatch(this.closeWindow(), OUTCOME_LIMITS.batchBytes).map((batch) =>
        toBinary(BATCH, create(BATCH, batch)),
      );
      this.backlog.push(...fresh);
      // Older windows' batches make room; a window never drops its own (it is bounded itself).
      const excess = this.backlog.length - OUTCOME_LIMITS.backlogBatches;
      const drop = Math.min(Math.max(excess, 0), this.backlog.length - fresh.length);
      this.backlog.splice(0, drop);
      this.dropped.batches += drop;
    }
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.backlog.length > 0) {
        try {
          await this.deps.sink(fromBinary(BATCH, this.backlog[0]!));
        } catch (err) {
          if (!this.failing)
            this.deps.logger.warn(
              { err: (err as Error).message, waiting: this.backlog.length },
              'checkout outcomes not sent; kept for the next try',
            );
          this.failing = true;
          return;
        }
        this.backlog.shift();
        this.sent++;
        this.failing = false;
      }
    } finally {
      this.sending = false;
    }
  }

  /** For tests and logs: what waits, what went, what was dropped. */
  stats() {
    return {
      pendingKeys: this.tallies.size,
      pendingRecent: this.recent.length,
      pendingShadow: this.shadow.length,
      backlog: this.backlog.length,
      sent: this.sent,
      droppedBatches: this.dropped.batches,
      droppedCallbacks: this.dropped.callbacks,
      droppedRecent: this.dropped.recent,
      droppedShadow: this.dropped.shadow,
      /** Callbacks whose filters were not counted: the window's filter counters were full. */
      droppedFilterCounts: this.dropped.filterCounts,
      filterCounters: this.filterCounters,
    };
  }

  private closeWindow(): Batch {
    const counts: OutcomeCount[] = [];
    const details: DayDetail[] = [];
    const { STANDARD, BUMP, FALLBACK, NO_RATE, BLOCKED } = rulesV1.CheckoutOutcome;
    for (const t of this.tallies.values()) {
      const day = new Date(t.day * DAY_MS).toISOString().slice(0, 10);
      const count = (outcome: rulesV1.CheckoutOutcome, n: number) => {
        if (n) counts.push({ shop: t.shop, day, outcome, count: n });
      };
      count(STANDARD, t.standard);
      count(BUMP, t.bump);
      count(FALLBACK, t.fallback);
      count(NO_RATE, t.noRate);
      count(BLOCKED, t.blocked);
      const filters = t.filters.entries();
      if (t.standard || filters.length)
        details.push({
          shop: t.shop,
          day,
          feeBuckets: t.standard ? Array.from(t.fees) : [],
          filters,
        });
    }
    const batch = { counts, carts: this.carts, recent: this.recent, details, shadow: this.shadow };
    this.tallies = new Map();
    this.latest = new Map();
    this.filterCounters = 0;
    this.carts = [];
    this.recent = [];
    this.shadow = [];
    return batch;
  }
}

/** The cart's figures the preview can replay: no names, addresses or anything of the customer. */
function sampleOf(
  shop: string,
  outcome: SampledOutcome,
  request: RateRequest,
  now: number,
): SampleCart {
  return {
    shop,
    outcome: OUTCOME_CODE[outcome],
    at: new Date(now).toISOString(),
    country: request.country.slice(0, 3),
    currency: request.currency,
    lines: keptLines(request),
  };
}
