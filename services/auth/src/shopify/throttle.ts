/**
 * How long to wait after Shopify throttled a query, from the cost data every
 * GraphQL reply carries (`extensions.cost`): the bucket refills at
 * `restoreRate` points a second, and the query needs `requestedQueryCost`
 * points where `currentlyAvailable` are left.
 */
export interface QueryCost {
  requestedQueryCost?: number;
  actualQueryCost?: number | null;
  throttleStatus?: {
    maximumAvailable?: number;
    currentlyAvailable?: number;
    restoreRate?: number;
  };
}

/** Used when a throttled reply carries no usable cost data. */
export const FALLBACK_WAIT_MS = 1000;
/** A little over the exact refill time, so the retry is not throttled again by rounding. */
const MARGIN_MS = 50;

/**
 * Milliseconds to wait before retrying, or Infinity when the query can never
 * fit in the bucket (it costs more than the bucket holds).
 */
export function throttleWaitMs(cost: QueryCost | undefined): number {
  const requested = cost?.requestedQueryCost;
  const status = cost?.throttleStatus;
  const available = status?.currentlyAvailable;
  const rate = status?.restoreRate;
  if (!isNumber(requested) || !isNumber(available) || !isNumber(rate) || rate <= 0) {
    return FALLBACK_WAIT_MS;
  }
  if (isNumber(status?.maximumAvailable) && requested > status.maximumAvailable) return Infinity;
  const missing = Math.max(0, requested - available);
  return Math.ceil((missing / rate) * 1000) + MARGIN_MS;
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
