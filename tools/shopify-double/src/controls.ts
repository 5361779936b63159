import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { CheckoutRates } from './checkout';
import type { DeliveryProfilesDouble } from './delivery-profiles';
import { readBody, sendJson } from './http';

/**
 * HTTP test controls of the double, for tests and demos that drive it from
 * outside the process. Shopify has no path starting with `/__double/`, so
 * these cannot shadow one of its endpoints.
 *
 *   GET  /__double/shops/<shop>/delivery-profiles          the profiles, as `deliveryProfiles` answers
 *   PUT  /__double/shops/<shop>/delivery-profiles          load profiles (same shape)
 *   POST /__double/shops/<shop>/delivery-profiles/carrier  {carrierService, zones: [ids] | "all", remove?}
 *   POST /__double/shops/<shop>/checkout                   a carrier rate request: zone, native and carrier rates
 *   PUT  /__double/shops/<shop>/store                      {currency?, weightUnit?, carrierCalculatedShipping?}: the store's settings
 */
export const CONTROL_PREFIX = '/__double/';

const SHOP_PATH =
  /^\/__double\/shops\/([a-z0-9][a-z0-9-]*\.myshopify\.com)\/(delivery-profiles|delivery-profiles\/carrier|checkout|store)$/;

const carrierBody = z.object({
  carrierService: z.string().min(1).max(200),
  zones: z.union([z.literal('all'), z.array(z.string().max(200)).min(1).max(250)]),
  remove: z.boolean().optional(),
});

const rateRequest = z.object({
  rate: z
    .object({
      destination: z
        .object({ country: z.string().length(2), province: z.string().max(10).nullish() })
        .loose(),
      items: z
        .array(
          z
            .object({
              quantity: z.number().int().min(1).max(10_000),
              grams: z.number().int().min(0).max(10_000_000),
              price: z.number().int().min(0).max(1_000_000_000),
            })
            .loose(),
        )
        .min(1)
        .max(500),
    })
    .loose(),
});

export const WEIGHT_UNITS = ['GRAMS', 'KILOGRAMS', 'OUNCES', 'POUNDS'] as const;
export type WeightUnit = (typeof WEIGHT_UNITS)[number];

/**
 * A shop's settings in Shopify's admin, as a merchant would set them: the
 * store currency and time zone (Settings > General), the default weight unit, and whether
 * the plan has carrier-calculated shipping. What is left out stays as it is.
 */
const storeBody = z.strictObject({
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code in capitals')
    .optional(),
  weightUnit: z.enum(WEIGHT_UNITS).optional(),
  carrierCalculatedShipping: z.boolean().optional(),
  /** Shopify's Shop.ianaTimezone (Settings > General > Time zone). */
  timezone: z.string().min(1).max(64).optional(),
});
export type StoreSettings = z.infer<typeof storeBody>;

export interface ControlTargets {
  deliveryProfiles: DeliveryProfilesDouble;
  checkoutRates: (shop: string, body: unknown) => Promise<CheckoutRates>;
  /** Applies what `settings` names to the shop (the double's setCurrency, setWeightUnit, carrier plan). */
  setStore: (shop: string, settings: StoreSettings) => void;
}

async function jsonBody(req: IncomingMessage): Promise<unknown> {
  return JSON.parse(await readBody(req)) as unknown;
}

function refuse(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { status: false, message });
}

export async function handleControl(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  targets: ControlTargets,
): Promise<void> {
  const match = SHOP_PATH.exec(url.pathname);
  if (!match) return refuse(res, 404, 'no such control');
  const [, shop, what] = match as unknown as [string, string, string];
  let body: unknown;
  if (req.method !== 'GET') {
    try {
      body = await jsonBody(req);
    } catch {
      return refuse(res, 400, 'the body is not JSON (or is over 1 MB)');
    }
  }
  const invalid = (err: z.ZodError) =>
    refuse(
      res,
      400,
      err.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '),
    );

  if (what === 'delivery-profiles' && req.method === 'GET')
    return sendJson(res, 200, targets.deliveryProfiles.get(shop));
  if (what === 'delivery-profiles' && req.method === 'PUT') {
    try {
      targets.deliveryProfiles.set(shop, body);
    } catch (err) {
      if (err instanceof z.ZodError) return invalid(err);
      throw err;
    }
    return sendJson(res, 200, targets.deliveryProfiles.get(shop));
  }
  if (what === 'delivery-profiles/carrier' && req.method === 'POST') {
    const parsed = carrierBody.safeParse(body);
    if (!parsed.success) return invalid(parsed.error);
    const { carrierService, zones, remove } = parsed.data;
    try {
      if (remove) targets.deliveryProfiles.removeCarrierFromZones(shop, carrierService, zones);
      else targets.deliveryProfiles.addCarrierToZones(shop, carrierService, zones);
    } catch (err) {
      return refuse(res, 404, (err as Error).message);
    }
    return sendJson(res, 200, targets.deliveryProfiles.get(shop));
  }
  if (what === 'checkout' && req.method === 'POST') {
    const parsed = rateRequest.safeParse(body);
    if (!parsed.success) return invalid(parsed.error);
    return sendJson(res, 200, await targets.checkoutRates(shop, body));
  }
  if (what === 'store' && req.method === 'PUT') {
    const parsed = storeBody.safeParse(body);
    if (!parsed.success) return invalid(parsed.error);
    targets.setStore(shop, parsed.data);
    return sendJson(res, 200, { shop, ...parsed.data });
  }
  refuse(res, 405, `${req.method ?? 'GET'} is not allowed here`);
}
