/**
 * Shopify's carrier-service rate request (docs/rates.md),
 * checked by hand: it runs on every checkout, and a hand-written walk over the
 * few fields the engine reads is several times cheaper than a schema library.
 * Fields the engine does not read are never looked at, so their shape and
 * depth cannot cost anything. Each item becomes the contracts' cart line.
 */
import {
  CART_LINE_LIMITS,
  CartLineError,
  cartLineFromShopify,
  normalisePostalCode,
  type CartLine,
} from '@ratesmith/contracts';

export interface RateRequest {
  /** Upper-case destination country as sent (may be empty). */
  country: string;
  /** `COUNTRY-PROVINCE` upper-case (`US-CA`), empty without a province. */
  region: string;
  /** Upper case, only A-Z and 0-9 kept; empty without one. */
  postalCode: string;
  currency: string;
  items: CartLine[];
  /**
   * When the request was made (ms since the epoch), for delivery dates: the
   * callback's arrival, the quote command's `now`, the preview's order time.
   * Undefined: the moment it is quoted.
   */
  receivedAt?: number | undefined;
}

export const REQUEST_LIMITS = {
  items: 1000,
  ...CART_LINE_LIMITS,
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

/** Validates `{ rate: {...} }` (the body Shopify posts); throws RateRequestError with one line. */
export function parseRateRequest(
  body: unknown,
  maxItems = REQUEST_LIMITS.items,
  receivedAt?: number,
): RateRequest {
  if (!isObject(body) || !isObject(body.rate)) {
    throw new RateRequestError('The body must be an object with a "rate" object');
  }
  const rate = body.rate;
  const place = placeOf(rate);
  const rawItems = rate.items;
  if (!Array.isArray(rawItems)) throw new RateRequestError('rate.items must be an array');
  return { ...place, items: linesOf(rawItems, cartLineFromShopify, maxItems), receivedAt };
}

/**
 * The lines of a cart from any of their forms (Shopify's items, the preview's
 * wire lines), at most `maxItems`, each named `rate.items[i]` in a problem as
 * the admin's preview and Shopify both send them.
 */
export function linesOf<T>(
  given: readonly T[],
  parse: (item: T, path: string) => CartLine,
  maxItems: number = REQUEST_LIMITS.items,
): CartLine[] {
  if (given.length > maxItems) {
    throw new RateRequestError(`rate.items has more than ${maxItems} items`);
  }
  const items: CartLine[] = new Array(given.length);
  try {
    for (let i = 0; i < given.length; i++) items[i] = parse(given[i]!, `rate.items[${i}]`);
  } catch (error) {
    if (error instanceof CartLineError) throw new RateRequestError(error.message);
    throw error;
  }
  return items;
}

/** A rate request's destination and currency, from its `rate` object. */
export function placeOf(rate: Record<string, unknown>): Omit<RateRequest, 'items'> {
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
  return { country, region, postalCode, currency };
}

/** A destination text (province, postal code): missing or null is empty. */
function textOf(value: unknown, path: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string' || value.length > REQUEST_LIMITS.text) {
    throw new RateRequestError(`${path} must be text of at most ${REQUEST_LIMITS.text} characters`);
  }
  return value;
}

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

/**
 * An ISO 8601 instant with `Z` or an offset (`2026-11-27T15:30:00-05:00`) as
 * ms since the epoch; undefined when it is not one (a date that does not
 * exist, such as 30 February, included: Date.parse would roll it over). The
 * quote command's `now` and the preview's order time.
 */
export function parseInstant(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = INSTANT.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const second = Number(m[6] ?? 0);
  const ms = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  const offsetHours = Number(m[10] ?? 0);
  const offsetMinutes = Number(m[11] ?? 0);
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59)
    return undefined;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const check = new Date(wall);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day
  )
    return undefined;
  const offset = (m[8] ? 0 : (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes)) * 60_000;
  return wall - offset;
}
