import { metrics, type Attributes, type Meter } from '@opentelemetry/api';

/**
 * The rate engine's metrics, served on the health server's /metrics:
 *
 * - ratesmith_quote_duration (histogram, ms): time to answer a carrier
 *   callback, by outcome and stale;
 * - ratesmith_carrier_requests_total: callbacks by outcome (ok, no_rates,
 *   bad_request, too_large, unknown_key, unauthorized, unavailable, error) and
 *   stale ("true" while NATS is down and answers come from memory);
 * - ratesmith_carrier_signature_total: callbacks by signature check (valid,
 *   missing, invalid), the figure to watch in CARRIER_HMAC_MODE=monitor;
 * - ratesmith_snapshot_cache_total: compiled-snapshot lookups, hit or miss;
 * - ratesmith_snapshot_age: how long the cached snapshots may have
 *   been out of date (0 while the bucket watch is live);
 * - ratesmith_snapshot_cached: compiled snapshots in memory;
 * - ratesmith_hot_tier_functions: generated functions held by the hot tier;
 * - ratesmith_hot_tier_generated_total / ratesmith_hot_tier_deferred_total:
 *   functions generated, and busy shops left on the loop by the compile budget.
 *
 * Counters are kept in plain numbers and read when Prometheus scrapes
 * (observable counters): the checkout path makes one OpenTelemetry call per
 * request, the histogram record, with attribute objects made once.
 *
 * No module state: the service wiring (service.ts) creates the one instance
 * with `createEngineMetrics` and passes it to the store and the callback.
 */

export type Outcome =
  | 'ok'
  | 'no_rates'
  | 'bad_request'
  | 'too_large'
  | 'unknown_key'
  | 'unauthorized'
  | 'rate_limited'
  | 'unavailable'
  | 'error';

/** Counts by a fixed attribute set, reported on each scrape. */
class Tally {
  private readonly counts = new Map<Attributes, number>();
  constructor(meter: Meter, name: string, description: string) {
    meter.createObservableCounter(name, { description }).addCallback((result) => {
      for (const [attrs, count] of this.counts) result.observe(count, attrs);
    });
  }
  add(attrs: Attributes): void {
    this.counts.set(attrs, (this.counts.get(attrs) ?? 0) + 1);
  }
}

const HIT = { result: 'hit' };
const DECODED = { lane: { where: 'lane' }, inline: { where: 'inline' } };
const MISS = { result: 'miss' };
const SIGNATURE = {
  valid: { result: 'valid' },
  missing: { result: 'missing' },
  invalid: { result: 'invalid' },
};

export interface EngineMetrics {
  request(outcome: Outcome, stale: boolean, ms: number): void;
  signature(result: 'valid' | 'missing' | 'invalid'): void;
  cacheLookup(hit: boolean): void;
  /** A large snapshot from the watch decoded: on the preview lane, or on the checkout's thread. */
  snapshotDecoded(where: 'lane' | 'inline'): void;
  /** Reports the store's figures on each scrape. */
  observeStore(store: { cachedCount: number; staleSeconds(): number }): void;
  /** Reports the hot tier's figures on each scrape. */
  observeHotTier(tier: { stats(): { held: number; generated: number; deferred: number } }): void;
}

/** The rate engine's instruments on `meter` (the global meter provider's unless given). */
export function createEngineMetrics(
  meter: Meter = metrics.getMeter('ratesmith-rate-engine'),
): EngineMetrics {
  const quoteDuration = meter.createHistogram('ratesmith.quote.duration', {
    description: 'Time to answer one carrier callback, from request to response, by outcome.',
    unit: 'ms',
    advice: {
      explicitBucketBoundaries: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 1000],
    },
  });
  const requests = new Tally(
    meter,
    'ratesmith.carrier.requests',
    'Carrier callbacks by outcome; stale=true while answers come from memory with NATS down.',
  );
  const signatures = new Tally(
    meter,
    'ratesmith.carrier.signature',
    'Carrier callbacks by signature check: valid, missing or invalid.',
  );
  const cacheLookups = new Tally(
    meter,
    'ratesmith.snapshot.cache',
    'Compiled-snapshot lookups: hit, or miss (read from the bucket).',
  );
  const largeDecodes = new Tally(
    meter,
    'ratesmith.snapshot.large_decodes',
    'Large (compressed) snapshots from the watch, by where they were decoded: lane (the ' +
      'preview lane, off the checkout thread) or inline (the lane was down or busy past its wait).',
  );
  const outcomeAttrs = new Map<string, Attributes>();
  const attrs = (outcome: Outcome, stale: boolean): Attributes => {
    const key = `${outcome}:${stale}`;
    let found = outcomeAttrs.get(key);
    if (!found) {
      found = { outcome, stale: String(stale) };
      outcomeAttrs.set(key, found);
    }
    return found;
  };
  return {
    request(outcome, stale, ms) {
      const a = attrs(outcome, stale);
      requests.add(a);
      quoteDuration.record(ms, a);
    },
    signature(result) {
      signatures.add(SIGNATURE[result]);
    },
    cacheLookup(hit) {
      cacheLookups.add(hit ? HIT : MISS);
    },
    snapshotDecoded(where) {
      largeDecodes.add(DECODED[where]);
    },
    observeStore(store) {
      meter
        .createObservableGauge('ratesmith.snapshot.cached', {
          description: 'Compiled snapshots in memory.',
        })
        .addCallback((result) => result.observe(store.cachedCount));
      meter
        .createObservableGauge('ratesmith.snapshot.age', {
          description:
            'How long the cached snapshots may have been out of date: 0 while the bucket watch is live, else the time since it was.',
          unit: 's',
        })
        .addCallback((result) => result.observe(store.staleSeconds()));
    },
    observeHotTier(tier) {
      meter
        .createObservableGauge('ratesmith.hot_tier.functions', {
          description:
            'Generated functions held by the hot tier (busy shops share one a rule shape).',
        })
        .addCallback((result) => result.observe(tier.stats().held));
      meter
        .createObservableCounter('ratesmith.hot_tier.generated', {
          description: 'Functions the hot tier generated.',
        })
        .addCallback((result) => result.observe(tier.stats().generated));
      meter
        .createObservableCounter('ratesmith.hot_tier.deferred', {
          description: 'Quotes of busy shops left on the program loop by the compile budget.',
        })
        .addCallback((result) => result.observe(tier.stats().deferred));
    },
  };
}
