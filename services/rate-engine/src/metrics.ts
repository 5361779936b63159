import { metrics, type Attributes } from '@opentelemetry/api';

/**
 * The rate engine's metrics, served on the health server's /metrics as
 * ratesmith_quote_duration, ratesmith_carrier_requests_total,
 * ratesmith_carrier_signature_total, ratesmith_snapshot_cache_total,
 * ratesmith_snapshot_age and ratesmith_snapshot_cached.
 */
const meter = metrics.getMeter('ratesmith-rate-engine');

const quoteDuration = meter.createHistogram('ratesmith.quote.duration', {
  description: 'Time to answer one carrier callback, from body read to response, by outcome.',
  unit: 'ms',
  advice: {
    explicitBucketBoundaries: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 1000],
  },
});
const requests = meter.createCounter('ratesmith.carrier.requests', {
  description:
    'Carrier callbacks by outcome (ok, no_rates, bad_request, unknown_key, unauthorized, unavailable, error); stale=true while NATS is down and answers come from the cache.',
});
const signatures = meter.createCounter('ratesmith.carrier.signature', {
  description: 'Carrier callbacks by signature check: valid, missing or invalid.',
});
const cache = meter.createCounter('ratesmith.snapshot.cache', {
  description: 'Compiled-snapshot lookups: hit, or miss (read from the bucket).',
});
const snapshotAge = meter.createHistogram('ratesmith.snapshot.age', {
  description: 'Age of the snapshot a quote used (since the rules service wrote it).',
  unit: 's',
  advice: { explicitBucketBoundaries: [1, 10, 60, 600, 3600, 86400, 604800] },
});

export type Outcome =
  | 'ok'
  | 'no_rates'
  | 'bad_request'
  | 'too_large'
  | 'unknown_key'
  | 'unauthorized'
  | 'unavailable'
  | 'error';

// Attribute objects made once: recording on the hot path allocates nothing.
const outcomeAttrs = new Map<string, Attributes>();
function attrs(outcome: Outcome, stale: boolean): Attributes {
  const key = `${outcome}:${stale}`;
  let found = outcomeAttrs.get(key);
  if (!found) {
    found = { outcome, stale: String(stale) };
    outcomeAttrs.set(key, found);
  }
  return found;
}
const HIT = { result: 'hit' };
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
  snapshotAge(seconds: number): void;
  observeCached(count: () => number): void;
}

export const engineMetrics: EngineMetrics = {
  request(outcome, stale, ms) {
    const a = attrs(outcome, stale);
    requests.add(1, a);
    quoteDuration.record(ms, a);
  },
  signature(result) {
    signatures.add(1, SIGNATURE[result]);
  },
  cacheLookup(hit) {
    cache.add(1, hit ? HIT : MISS);
  },
  snapshotAge(seconds) {
    snapshotAge.record(seconds);
  },
  observeCached(count) {
    meter
      .createObservableGauge('ratesmith.snapshot.cached', {
        description: 'Compiled snapshots in the cache.',
      })
      .addCallback((result) => result.observe(count()));
  },
};
