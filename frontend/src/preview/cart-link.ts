import type { CheckoutCartJson } from '@ratesmith/contracts/edge';

/**
 * A cart the preview opens with: a checkout's country, currency and lines, as
 * typed. Links carry it (the Dashboard's); this module imports nothing of the
 * preview's, so the Dashboard, a first page, stays light.
 */
export interface CartPreset {
  country: string;
  currency: string;
  /** As typed, except the weight: grams of one unit (the preview shows it in the shop's unit). */
  lines: { price: string; quantity: string; grams: string; productId: string }[];
}

/** Lines a link carries at most (a sample cart keeps 50). */
const PRESET_LINES = 50;
/** One line in a link: price in cents, quantity, grams of one unit, product id (may be empty). */
const PRESET_LINE = /^(\d{1,10})_(\d{1,7})_(\d{1,10})_(\d{0,16})$/;

/**
 * The query of a link that opens the preview with a checkout's cart
 * (`?country=CA&currency=USD&line=2500_1_1000_48447225880`): figures only.
 */
export function cartPresetQuery(cart: Pick<CheckoutCartJson, 'country' | 'currency' | 'lines'>) {
  const query = new URLSearchParams({ country: cart.country, currency: cart.currency });
  for (const line of cart.lines.slice(0, PRESET_LINES)) {
    query.append('line', `${line.price}_${line.quantity}_${line.grams}_${line.product_id}`);
  }
  return query.toString();
}

/** The cart of a link's query, or null when it carries none or anything malformed. */
export function cartPresetOf(query: URLSearchParams): CartPreset | null {
  const country = query.get('country') ?? '';
  const currency = query.get('currency') ?? '';
  const lines = query.getAll('line');
  if (!/^[A-Z]{2}$/.test(country) || !/^[A-Z]{3}$/.test(currency)) return null;
  if (lines.length === 0 || lines.length > PRESET_LINES) return null;
  const parsed: CartPreset['lines'] = [];
  for (const line of lines) {
    const match = PRESET_LINE.exec(line);
    if (!match) return null;
    const [, cents, quantity, grams, productId] = match;
    parsed.push({
      price: (Number(cents) / 100).toFixed(2),
      quantity: String(Number(quantity)),
      grams: String(Number(grams)),
      productId: productId ?? '',
    });
  }
  return { country, currency, lines: parsed };
}
