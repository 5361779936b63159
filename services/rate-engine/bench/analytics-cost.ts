import { createLogger } from '@ratesmith/kit';
import {
  compileSnapshot,
  FilterHits,
  HotTier,
  parseRateRequest,
  Quoter,
  type CompiledSnapshot,
  type RateRequest,
} from '@ratesmith/rate-engine/engine';
import { OutcomeRecorder } from '@ratesmith/rate-engine/outcomes/recorder';
import { benchRequest, benchSnapshot } from './fixture';

/**
 * Per-filter analytics, in process: the CPU a carrier callback spends on
 * counting, measured as `rounds` x `quotes` quotes of the bench cart (25 lines, 40
 * filters) with counting (the quote fills FilterHits, the recorder adds them
 * to its tallies) against the same quotes without, in alternating rounds on
 * the same hot-tier quoter, so the difference is the counting alone. The
 * recorder never sends (its timer is not started).
 */
export interface AnalyticsCost {
  /** Nanoseconds a callback, per round. */
  off: number[];
  on: number[];
  /** The recorder's part alone: record() of one quote's rates and hits. */
  record: number[];
  /** Filters a quote of the bench cart matched. */
  matched: number;
}

export function measureAnalyticsCost(quotes = 200_000, rounds = 10): AnalyticsCost {
  const compiled = compileSnapshot(benchSnapshot());
  const request = parseRateRequest(benchRequest());
  // The service's quoter: the hot tier's generated code once the shop is busy.
  const quoter = new Quoter(new HotTier({ size: 1000 }));
  const hits = new FilterHits();
  const recorder = new OutcomeRecorder({
    sink: async () => undefined,
    logger: createLogger('bench', 'silent'),
    flushMs: 60_000,
  });
  const shop = 'bench.myshopify.com';
  const off = (c: CompiledSnapshot, r: RateRequest) => quoter.quote(c, r);
  const on = (c: CompiledSnapshot, r: RateRequest) => {
    const { rates } = quoter.quote(c, r, false, hits);
    recorder.record(shop, rates, r, c, hits);
  };
  const { rates } = quoter.quote(compiled, request, false, hits);
  const recordOnly = (c: CompiledSnapshot, r: RateRequest) =>
    recorder.record(shop, rates, r, c, hits);
  const time = (run: (c: CompiledSnapshot, r: RateRequest) => unknown) => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < quotes; i++) run(compiled, request);
    return Number(process.hrtime.bigint() - started) / quotes;
  };
  // Warm-up: the hot tier's generated code and both paths optimised.
  time(off);
  time(on);
  time(recordOnly);
  const result: AnalyticsCost = { off: [], on: [], record: [], matched: hits.count };
  for (let i = 0; i < rounds; i++) {
    result.off.push(time(off));
    result.on.push(time(on));
    result.record.push(time(recordOnly));
  }
  return result;
}
