import { create, toBinary } from '@bufbuild/protobuf';
import { rateEngineV1, recentRateToWire } from '@ratesmith/contracts';
import { Quoter, type CompiledSnapshot, type Rate, type RateRequest } from '../engine';
import { traceProto } from '../preview/handlers';
import { keptLines, type RecentCheckout } from './entries';

/**
 * Recent checkouts (docs/architecture.md): a bounded sample of carrier
 * callbacks, each with the step-by-step trace the preview shows. The callback
 * itself only asks the sampler (two counters); the trace is computed after
 * the answer was sent, on a quoter of its own, and travels in the checkout
 * outcomes' batches.
 */

export const RECENT_LIMITS = {
  /** Callbacks sampled a second over all shops: more load never means more tracing. */
  perSecond: 20,
  /** Shops counted a minute; callbacks of further shops are not sampled that minute. */
  shops: 10_000,
  /** An encoded trace larger than this is not kept (a snapshot's lists are bounded well below). */
  traceBytes: 64_000,
};

/** Decides which callbacks are traced; synchronous and O(1), as it runs on the checkout path. */
export class RecentSampler {
  private minute = -1;
  private second = -1;
  private inSecond = 0;
  private perShop = new Map<string, number>();

  constructor(
    private readonly limits: Pick<typeof RECENT_LIMITS, 'perSecond' | 'shops'> = RECENT_LIMITS,
  ) {}

  /** `perMinute`: the shop's setting (recent_checkouts_per_minute; 0 when it turned them off). */
  take(shop: string, now: number, perMinute: number): boolean {
    if (perMinute <= 0) return false;
    const second = Math.floor(now / 1000);
    if (second !== this.second) {
      this.second = second;
      this.inSecond = 0;
    }
    if (this.inSecond >= this.limits.perSecond) return false;
    const minute = Math.floor(now / 60_000);
    if (minute !== this.minute) {
      this.minute = minute;
      this.perShop = new Map();
    }
    const taken = this.perShop.get(shop);
    if (taken === undefined && this.perShop.size >= this.limits.shops) return false;
    if ((taken ?? 0) >= perMinute) return false;
    this.perShop.set(shop, (taken ?? 0) + 1);
    this.inSecond++;
    return true;
  }
}

/** What a sampled callback leaves for after its answer. */
export interface SampledCallback {
  shop: string;
  compiled: CompiledSnapshot;
  request: RateRequest;
  rates: Rate[];
  /** Epoch ms of the callback. */
  at: number;
}

// Its own scratch space and no hot tier: tracing never touches the callback's quoter.
const tracer = new Quoter();

/**
 * The sampled callback with its trace, or null when the trace is too large.
 * The trace's region and postal code are cleared: nothing beyond the country is kept.
 */
export function traceRecent(sampled: SampledCallback, latencyMs: number): RecentCheckout | null {
  const { shop, compiled, request, rates, at } = sampled;
  const trace = traceProto(tracer.quote(compiled, request, true).trace!);
  for (const step of trace.steps ?? []) {
    step.region = undefined;
    step.postalCode = undefined;
  }
  const encoded = toBinary(rateEngineV1.TraceSchema, create(rateEngineV1.TraceSchema, trace));
  if (encoded.length > RECENT_LIMITS.traceBytes) return null;
  return {
    shop,
    at: new Date(at).toISOString(),
    country: request.country.slice(0, 3),
    currency: request.currency,
    lines: keptLines(request),
    rates: rates.map(recentRateToWire),
    latencyUs: Math.min(Math.round(latencyMs * 1000), 2_000_000_000),
    snapshotVersion: BigInt(compiled.version),
    trace: encoded,
  };
}
