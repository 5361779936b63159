import type { MessageInitShape } from '@bufbuild/protobuf';
import { cartLineToWire, type CartLineWire, type rulesV1 } from '@ratesmith/contracts';
import type { RateRequest } from '../engine';
import type { FilterCount } from './filter-tally';

/**
 * What a batch of checkout outcomes carries (a RecordCheckoutOutcomesRequest),
 * shared by the recorder that fills it, the splitter that sizes it and the
 * recent-checkout tracer: none of them imports another for these.
 */

export type OutcomeCount = MessageInitShape<typeof rulesV1.CheckoutOutcomeCountSchema>;
export type SampleCart = MessageInitShape<typeof rulesV1.CheckoutCartSchema>;
export type RecentCheckout = MessageInitShape<typeof rulesV1.RecentCheckoutSchema>;
export type ShadowCheckout = MessageInitShape<typeof rulesV1.ShadowCheckoutSchema>;

/** A CheckoutDayDetail: one shop-day's fee buckets and filter counts. */
export interface DayDetail {
  shop: string;
  day: string;
  feeBuckets: number[];
  filters: FilterCount[];
}

/** A RecordCheckoutOutcomesRequest. */
export interface Batch {
  counts: OutcomeCount[];
  carts: SampleCart[];
  /** Sampled callbacks with their traces (recent.ts). */
  recent: RecentCheckout[];
  /** Fee buckets and per-filter counts, per shop-day. */
  details: DayDetail[];
  /** Carts of shops in shadow, compared (shadow.ts). */
  shadow: ShadowCheckout[];
}

/** Lines kept of a sample cart or a recent checkout. */
export const KEPT_LINES = 50;

/**
 * The lines a sample cart or a recent checkout keeps: those that ship (the
 * others change no figure of the quote), the first KEPT_LINES of them.
 */
export function keptLines(request: RateRequest): CartLineWire[] {
  const kept: CartLineWire[] = [];
  for (const line of request.items) {
    if (kept.length === KEPT_LINES) break;
    if (line.ships) kept.push(cartLineToWire(line));
  }
  return kept;
}
