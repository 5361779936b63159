/**
 * Shopify's carrier-service rate request (docs/rates.md),
 * checked by hand: it runs on every checkout, and a hand-written walk over the
 * few fields the engine reads is several times cheaper than a schema library.
 * Fields the engine does not read are never looked at, so their shape and
 * depth cannot cost anything.
 */
import { shopifyIdDigits } from '@ratesmith/contracts';

export interface RateItem {
  /** Unit price in cents. */
  price: number;
  quantity: number;
  productId: number | undefined;
  variantId: number | undefined;
  /** False only when Shopify says `requires_shipping: false`. */
  ships: boolean;
}

export interface RateRequest {
  /** Upper-case destination country as sent (may be empty). */
  country: string;
  currency: string;
  items: RateItem[];
}

export const REQUEST_LIMITS = {
  items: 1000,
  quantity: 1_000_000,
  /** Cents; with the item and quantity caps every cart figure stays an exact integer. */
  price: 1_000_000_000,
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
  if (destination !== undefined && destination !== null) {
    if (!isObject(destination)) throw new RateRequestError('rate.destination must be an object');
    const given = destination.country;
    if (given !== undefined && given !== null) {
      if (typeof given !== 'string' || given.length > 8) {
        throw new RateRequestError('rate.destination.country must be a country code');
      }
      country = given.toUpperCase();
    }
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
    items[i] = {
      price,
      quantity,
      productId: idOf(item.product_id, `${path}.product_id`),
      variantId: idOf(item.variant_id, `${path}.variant_id`),
      ships: requiresShipping !== false,
    };
  }
  return { country, currency, items };
}
