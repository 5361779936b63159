import type { MessageInitShape } from '@bufbuild/protobuf';
import { rulesV1 } from '@ratesmith/contracts';
import type { Logger } from '@ratesmith/kit';
import type { RateRequest } from '../engine';
import type { RecentCheckout } from './recent';

/**
 * Checkout outcomes, off the checkout path (docs/architecture.md): a callback
 * only adds one to an in-memory tally (and, for the first carts of a window,
 * copies a few figures of the cart); a timer sends the tallies to the rules
 * service in one batch every few seconds. No callback ever waits for that.
 *
 * Memory is bounded: keys and sample carts a window are capped, and batches
 * the rules service could not take (it or NATS is down) wait in a backlog of
 * `backlogBatches`, the oldest dropped first.
 */

/** The outcomes worth counting today; a later one (a regular rate) is added here. */
export type CountedOutcome = 'fallback' | 'no_rate';

type OutcomeCount = MessageInitShape<typeof rulesV1.CheckoutOutcomeCountSchema>;
type SampleCart = MessageInitShape<typeof rulesV1.CheckoutCartSchema>;
/** A RecordCheckoutOutcomes request. */
export interface Batch {
  counts: OutcomeCount[];
  carts: SampleCart[];
  /** Sampled callbacks with their traces (recent.ts). */
  recent: RecentCheckout[];
}

/** Where batches go: the rules service's RecordCheckoutOutcomes. */
export type OutcomeSink = (batch: Batch) => Promise<unknown>;

export const OUTCOME_LIMITS = {
  /** Distinct shop-day tallies a window; callbacks of further shops in that window are not counted. */
  keys: 10_000,
  samplesPerShop: 2,
  samplesPerWindow: 200,
  /** Traced recent checkouts a window (the sampler's 20 a second fill it in 5 s at most). */
  recentPerWindow: 100,
  /** Lines kept of a sample cart. */
  lines: 50,
  /** Batches waiting for the rules service: at 5 s a window, 5 minutes. */
  backlogBatches: 60,
};

const OUTCOME_CODE: Record<CountedOutcome, rulesV1.CheckoutOutcome> = {
  fallback: rulesV1.CheckoutOutcome.FALLBACK,
  no_rate: rulesV1.CheckoutOutcome.NO_RATE,
};
const DAY_MS = 86_400_000;

interface Tally {
  shop: string;
  /** Days since 1970, UTC. */
  day: number;
  fallback: number;
  noRate: number;
  samples: number;
}

export class OutcomeRecorder {
  private tallies = new Map<string, Tally>();
  private carts: SampleCart[] = [];
  private recent: RecentCheckout[] = [];
  private readonly backlog: Batch[] = [];
  private sending = false;
  private timer: NodeJS.Timeout | undefined;
  private failing = false;
  /** Batches dropped from a full backlog, and callbacks not counted for want of room. */
  private dropped = { batches: 0, callbacks: 0, recent: 0 };
  private sent = 0;

  constructor(
    private readonly deps: {
      sink: OutcomeSink;
      logger: Logger;
      /** How often the window is sent (OUTCOME_FLUSH_MS). */
      flushMs: number;
      now?: () => number;
    },
  ) {}

  /** Counts one callback's outcome; synchronous and cheap (it runs on the checkout path). */
  record(shop: string, outcome: CountedOutcome, request: RateRequest): void {
    const now = (this.deps.now ?? Date.now)();
    const day = Math.floor(now / DAY_MS);
    const key = `${day} ${shop}`;
    let tally = this.tallies.get(key);
    if (tally === undefined) {
      if (this.tallies.size >= OUTCOME_LIMITS.keys) {
        this.dropped.callbacks++;
        return;
      }
      tally = { shop, day, fallback: 0, noRate: 0, samples: 0 };
      this.tallies.set(key, tally);
    }
    if (outcome === 'fallback') tally.fallback++;
    else tally.noRate++;
    if (
      tally.samples < OUTCOME_LIMITS.samplesPerShop &&
      this.carts.length < OUTCOME_LIMITS.samplesPerWindow
    ) {
      tally.samples++;
      this.carts.push(sampleOf(shop, outcome, request, now));
    }
  }

  /** Keeps a traced callback for the next batch (after its answer was sent). */
  addRecent(checkout: RecentCheckout): void {
    if (this.recent.length < OUTCOME_LIMITS.recentPerWindow) this.recent.push(checkout);
    else this.dropped.recent++;
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

  /** Closes the window into a batch and sends the backlog, oldest first, until one fails. */
  async flush(): Promise<void> {
    if (this.tallies.size > 0 || this.recent.length > 0) {
      this.backlog.push(this.closeWindow());
      if (this.backlog.length > OUTCOME_LIMITS.backlogBatches) {
        this.backlog.shift();
        this.dropped.batches++;
      }
    }
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.backlog.length > 0) {
        try {
          await this.deps.sink(this.backlog[0]!);
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
      backlog: this.backlog.length,
      sent: this.sent,
      droppedBatches: this.dropped.batches,
      droppedCallbacks: this.dropped.callbacks,
      droppedRecent: this.dropped.recent,
    };
  }

  private closeWindow(): Batch {
    const counts: OutcomeCount[] = [];
    for (const t of this.tallies.values()) {
      const day = new Date(t.day * DAY_MS).toISOString().slice(0, 10);
      if (t.fallback)
        counts.push({ shop: t.shop, day, outcome: OUTCOME_CODE.fallback, count: t.fallback });
      if (t.noRate)
        counts.push({ shop: t.shop, day, outcome: OUTCOME_CODE.no_rate, count: t.noRate });
    }
    const batch = { counts, carts: this.carts, recent: this.recent };
    this.tallies = new Map();
    this.carts = [];
    this.recent = [];
    return batch;
  }
}

/** The cart's figures the preview can replay: no names, addresses or anything of the customer. */
function sampleOf(
  shop: string,
  outcome: CountedOutcome,
  request: RateRequest,
  now: number,
): SampleCart {
  return {
    shop,
    outcome: OUTCOME_CODE[outcome],
    at: new Date(now).toISOString(),
    country: request.country.slice(0, 3),
    currency: request.currency,
    lines: cartLinesOf(request),
  };
}

/** The lines that ship, as figures only (a sample cart's and a recent checkout's). */
export function cartLinesOf(request: RateRequest): SampleCart['lines'] {
  return shipped(request)
    .slice(0, OUTCOME_LIMITS.lines)
    .map((item) => ({
      productId: item.productId === undefined ? '' : String(item.productId),
      variantId: item.variantId === undefined ? '' : String(item.variantId),
      quantity: item.quantity,
      price: item.price,
      grams: item.grams,
    }));
}

/** Lines that do not ship change no figure of the quote. */
const shipped = (request: RateRequest) => request.items.filter((item) => item.ships);
