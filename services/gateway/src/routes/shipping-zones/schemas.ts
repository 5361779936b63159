import { MAX_ZONE_IDS, type ShippingZonesUpdate } from '@ratesmith/contracts';
import { shopifyIdDigits } from '@ratesmith/contracts/shopify-ids';
import { z } from 'zod';
import type { SchemaAccepts } from '../../http/validate';

const ZONE_GID_PREFIX = 'gid://shopify/DeliveryZone/';

/** Shopify's DeliveryZone global id, as GET /api/shipping-zones gives it (no bare numbers). */
export function isDeliveryZoneGid(id: string): boolean {
  return id.startsWith(ZONE_GID_PREFIX) && !!shopifyIdDigits(id, { resource: 'DeliveryZone' });
}

/**
 * POST /api/shipping-zones. Strict types (no text for the boolean, no bare
 * numbers for ids); unknown keys are dropped as on every route.
 */
export const shippingZonesBody = z.object({
  zone_ids: z
    .array(z.string().max(64).refine(isDeliveryZoneGid, 'must be a shipping zone id'))
    .max(MAX_ZONE_IDS, `at most ${MAX_ZONE_IDS} zones at once`),
  ratesmith: z.boolean(),
});

export type ShippingZonesBodyAccepts = SchemaAccepts<typeof shippingZonesBody, ShippingZonesUpdate>;
