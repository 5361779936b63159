import {
  cartLineFromWire,
  CartLineError,
  cartLineToJson,
  isShopDomain,
  type CartLineJson,
  type CartLineWire,
} from '@ratesmith/contracts';
import { AppError } from '@ratesmith/kit';

/**
 * The checks a checkout outcomes batch passes before anything of it is
 * stored (docs/architecture.md, "Checkout outcomes"): it comes from the
 * engine, not a merchant, yet becomes stored data. Its counts are checked in
 * checkout-outcomes.ts, its carts' place and lines here, for sample carts and
 * recent checkouts alike.
 */

/** What one batch may hold at most (the engine's own caps are lower). */
export const BATCH_LIMITS = {
  counts: 20_000,
  carts: 1_000,
  recent: 1_000,
  shadow: 2_000,
  lines: 50,
  count: 1_000_000,
  /** Shop-day details, and filter counts over all of them. */
  details: 20_000,
  filters: 20_000,
  /** A filter's fee change in cents over one batch, either way. */
  fee: 1e15,
};

const COUNTRY = /^[A-Z]{0,3}$/;
const CURRENCY = /^[A-Z]{3}$|^$/;

export const invalid = (what: string) =>
  new AppError('invalid_data', `The checkout outcomes batch has ${what}.`);

export const isAmount = (n: number, max: number) => Number.isInteger(n) && n >= 0 && n <= max;

/** A checked cart's moment; its shop, country, currency and number of lines checked too. */
export function cartPlaceValid(cart: {
  shop: string;
  at: string;
  country: string;
  currency: string;
  lines: unknown[];
}): Date {
  const at = new Date(cart.at);
  if (
    !isShopDomain(cart.shop) ||
    Number.isNaN(at.getTime()) ||
    !COUNTRY.test(cart.country) ||
    !CURRENCY.test(cart.currency) ||
    cart.lines.length > BATCH_LIMITS.lines
  )
    throw invalid('a cart that is not valid');
  return at;
}

/** A cart's lines as stored, each checked by the cart line's contract; kept lines ship. */
export function storedLines(lines: CartLineWire[]): CartLineJson[] {
  try {
    return lines.map((wire) => {
      const line = cartLineFromWire(wire);
      if (!line.ships) throw invalid('a kept line that does not ship');
      return cartLineToJson(line);
    });
  } catch (error) {
    if (error instanceof CartLineError) throw invalid('a cart line that is not valid');
    throw error;
  }
}
