import type { MessageInitShape } from '@bufbuild/protobuf';
import type { RecentRateJson } from './edge';
import type { RecentRate, RecentRateSchema } from './gen/ratesmith/rules/v1/rules_pb';

/**
 * A recent checkout's rate as stored and shown: its dates only when it has both
 * (older checkouts and rates without a window have none).
 */
export function recentRateJson(rate: RecentRateJson): RecentRateJson {
  const { service_name, service_code, total_price, min_delivery_date, max_delivery_date } = rate;
  return {
    service_name,
    service_code,
    total_price,
    ...(min_delivery_date && max_delivery_date ? { min_delivery_date, max_delivery_date } : {}),
  };
}

/** The bus's RecentRate as stored and shown (recentRateJson). */
export function recentRateFromWire(rate: RecentRate): RecentRateJson {
  return recentRateJson({
    service_name: rate.serviceName,
    service_code: rate.serviceCode,
    total_price: rate.totalPrice,
    min_delivery_date: rate.minDeliveryDate,
    max_delivery_date: rate.maxDeliveryDate,
  });
}

/** A rate (a quote's, sampled by the engine, or a stored one) as the bus's RecentRate. */
export function recentRateToWire(rate: RecentRateJson): MessageInitShape<typeof RecentRateSchema> {
  return {
    serviceName: rate.service_name,
    serviceCode: rate.service_code,
    totalPrice: rate.total_price,
    minDeliveryDate: rate.min_delivery_date,
    maxDeliveryDate: rate.max_delivery_date,
  };
}
