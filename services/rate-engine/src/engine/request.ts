/**
 * Shopify's carrier-service rate request (docs/rates.md),
 * checked by hand: it runs on every checkout, and a hand-written walk over the
 * few fields the engine reads is several times cheaper than a schema library.
 * Fields the engine does not read are never looked at, so their shape and
 * depth cannot cost anything.
 */
import { normalisePostalCode, shopifyIdDigits } from '@ratesmith/contracts';

export interface RateItem {
  /** Unit price in cents. */
  price: number;
  quantity: number;
  /** Grams of one unit (0 when Shopify sends none). */
  grams: number;
  productId: number | undefined;
  variantId: number | undefined;
  /** False only when Shopify says `requires_shipping: false`. */
  ships: boolean;
}

export interface RateRequest {
  /** Upper-case destination country as sent (may be empty). */
  country: string;
  /** `COUNTRY-PROVINCE` upper-case (`US-CA`), empty without a province. */
  region: string;
  /** Upper case, only A-Z and 0-9 kept; empty without one. */
  postalCode: string;
  currency: string;
  items: RateItem[];
}

export const REQUEST_LIMITS = {
  items: 1000,
  quantity: 1_000_000,
  /** Cents; with the item and quantity caps every cart figure stays an exact integer. */
  price: 1_000_000_000,
  /** Grams of one unit; the cart's weight is checked to stay an exact integer too. */
  grams: 1_000_000_000,
  /** Province and postal code as sent (Shopify's are a few characters). */
  text: 64,
};

export class RateRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RateRequestError';
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** 16 digits: exact as a JavaScript number. */
const BARE_ID = { maxDigits: 16, gid: false } as const;

/** A Shopify id: a number, or its decimal string (`gid://shopify/Product/123` is refused here). */
function idOf(value: unknown, path: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  const digits = typeof value === 'string' ? shopifyIdDigits(value, BARE_ID) : undefined;
  if (digits !== undefined) return Number(digits);
  throw new RateRequestError(`${path} must be a numeric id`);
}

/** Validates `{ rate: {...} }` (the body Shopify posts); throws RateRequestError with one line. */
export function parseRateRequest(body: unknown, maxItems = REQUEST_LIMITS.items): RateRequest {
  if (!isObject(body) || !isObject(body.rate)) {
    throw new RateRequestError('The body must be an object with a "rate" object');
  }
  const rate = body.rate;
  const destination = rate.destination;
  let country = '';
  let region = '';
  let postalCode = '';
  if (destination !== undefined && destination !== null) {
    if (!isObject(destination)) throw new RateRequestError('rate.destination must be an object');
    const given = destination.country;
    if (given !== undefined && given !== null) {
      if (typeof given !== 'string' || given.length > 8) {
        throw new RateRequestError('rate.destination.country must be a country code');
      }
      country = given.toUpperCase();
    }
    const province = textOf(destination.province, 'rate.destination.province').trim();
    if (province) region = `${country.trim()}-${province}`.toUpperCase();
    postalCode = normalisePostalCode(
      textOf(destination.postal_code, 'rate.destination.postal_code'),
    );
  }
  const currency = rate.currency;
  if (typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency)) {
    throw new RateRequestError('rate.currency must be a three-letter currency code');
  }
  const rawItems = rate.items;
  if (!Array.isArray(rawItems)) throw new RateRequestError('rate.items must be an array');
  if (rawItems.length > maxItems) {
    throw new RateRequestError(`rate.items has more than ${maxItems} items`);
  }
  const items: RateItem[] = new Array(rawItems.length);
  for (let i = 0; i < rawItems.length; i++) {
    const item: unknown = rawItems[i];
    const path = `rate.items[${i}]`;
    if (!isObject(item)) throw new RateRequestError(`${path} must be an object`);
    const { price, quantity } = item;
    if (
      typeof price !== 'number' ||
      !Number.isInteger(price) ||
      price < 0 ||
      price > REQUEST_LIMITS.price
    ) {
      throw new RateRequestError(
        `${path}.price must be a whole number of cents from 0 to ${REQUEST_LIMITS.price}`,
      );
    }
    if (
      typeof quantity !== 'number' ||
      !Number.isInteger(quantity) ||
      quantity < 1 ||
      quantity > REQUEST_LIMITS.quantity
    ) {
      throw new RateRequestError(
        `${path}.quantity must be a whole number from 1 to ${REQUEST_LIMITS.quantity}`,
      );
    }
    const requiresShipping = item.requires_shipping;
    if (
      requiresShipping !== undefined &&
      requiresShipping !== null &&
      typeof requiresShipping !== 'boolean'
    ) {
      throw new RateRequestError(`${path}.requires_shipping must be true or false`);
    }
    const grams = item.grams ?? 0;
    if (
      typeof grams !== 'number' ||
      !Number.isInteger(grams) ||
      grams < 0 ||
      grams > REQUEST_LIMITS.grams
    ) {
      throw new RateRequestError(
        `${path}.grams must be a whole number of grams from 0 to ${REQUEST_LIMITS.grams}`,
      );
    }
    items[i] = {
      price,
      quantity,
      grams,
      productId: idOf(item.product_id, `${path}.product_id`),
      variantId: idOf(item.variant_id, `${path}.variant_id`),
      ships: requiresShipping !== false,
    };
  }
  return { country, region, postalCode, currency, items };
}

/** A destination text (province, postal code): missing or null is empty. */
function textOf(value: unknown, path: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string' || value.length > REQUEST_LIMITS.text) {
    throw new RateRequestError(`${path} must be text of at most ${REQUEST_LIMITS.text} characters`);
  }
  return value;
}
