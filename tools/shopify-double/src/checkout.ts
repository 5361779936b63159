import type { CarrierServicesDouble } from './carrier-services';
import type { DeliveryProfilesDouble } from './delivery-profiles';
import { cartTotals, nativeRates, type CartTotals, type NativeRate } from './delivery-rates';
import { signBody } from './hmac';

/** One carrier service's answer to a checkout's rate request. */
export interface CarrierAnswer {
  service: string;
  status: number;
  body: unknown;
}

export interface CheckoutRates {
  /** The zone the destination falls in; null: the shop does not ship there. */
  zone: { id: string; name: string } | null;
  cart: CartTotals;
  /** The zone's own (merchant) rates the cart qualifies for. */
  nativeRates: NativeRate[];
  /** The carrier services asked (active, taking part in the zone), in the shop's order. */
  carrierRates: CarrierAnswer[];
}

interface RateRequest {
  rate?: { destination?: { country?: unknown; province?: unknown }; items?: unknown };
}

/**
 * What Shopify's checkout does with a cart: find the destination's zone,
 * work out the zone's own rates, and ask each active carrier service that
 * takes part in the zone, signed as Shopify signs the request.
 */
export async function runCheckout(input: {
  shop: string;
  body: unknown;
  signed: boolean;
  apiSecret: string;
  carrierServices: CarrierServicesDouble;
  deliveryProfiles: DeliveryProfilesDouble;
}): Promise<CheckoutRates> {
  const rate = (input.body as RateRequest | null)?.rate ?? {};
  const destination = rate.destination ?? {};
  const items = Array.isArray(rate.items) ? (rate.items as unknown[]) : [];
  const cart = cartTotals(items);
  const found = input.deliveryProfiles.checkoutZone(input.shop, {
    country: typeof destination.country === 'string' ? destination.country : '',
    province: typeof destination.province === 'string' ? destination.province : null,
  });
  if (!found) return { zone: null, cart, nativeRates: [], carrierRates: [] };

  const raw = JSON.stringify(input.body);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-shopify-shop-domain': input.shop,
  };
  if (input.signed) headers['x-shopify-hmac-sha256'] = signBody(raw, input.apiSecret);
  const carrierRates: CarrierAnswer[] = [];
  const asked = input.carrierServices
    .list(input.shop)
    .filter((s) => s.active && found.carrierIds.has(s.id));
  for (const service of asked) {
    const res = await fetch(service.callbackUrl, {
      method: 'POST',
      headers,
      body: raw,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: Shopify would treat it as a failed callback; the caller sees the text.
    }
    carrierRates.push({ service: service.name, status: res.status, body: parsed });
  }
  return {
    zone: { id: found.zone.zone.id, name: found.zone.zone.name },
    cart,
    nativeRates: nativeRates(found.zone, cart),
    carrierRates,
  };
}
