import type { ShippingZonesUpdate } from '@ratesmith/contracts';
import { z } from 'zod';
import type { SchemaAccepts } from '../../http/validate';

/** Shopify's DeliveryZone global id, as GET /api/shipping-zones gives it (no bare numbers). */
export const DELIVERY_ZONE_GID = /^gid:\/\/shopify\/DeliveryZone\/\d{1,20}$/;
/** Shopify takes at most 250 items in one input list (the auth service checks it too). */
export const MAX_ZONE_IDS = 250;

/**
 * POST /api/shipping-zones. Strict types (no text for the boolean, no bare
 * numbers for ids); unknown keys are dropped as on every route.
 */
export const shippingZonesBody = z.object({
  zone_ids: z
    .array(z.string().max(64).regex(DELIVERY_ZONE_GID, 'must be a shipping zone id'))
    .max(MAX_ZONE_IDS, `at most ${MAX_ZONE_IDS} zones at once`),
  ratesmith: z.boolean(),
});

export type ShippingZonesBodyAccepts = SchemaAccepts<typeof shippingZonesBody, ShippingZonesUpdate>;
