import { shopifyIdDigits } from '@ratesmith/contracts/shopify-ids';
import type { CheckoutCartJson } from '@ratesmith/contracts/edge';
import type { PreviewItem } from './types';

/** One cart line as typed: price in currency units, quantity, optional product. */
export interface CartLine {
  key: number;
  price: string;
  quantity: string;
  productId: string;
  /** Grams of one unit, as typed ('' is 0). */
  grams: string;
}

/** Cents of an amount with at most 2 decimals (half away from zero), or null when not one. */
export function toCents(amount: string): number | null {
  const text = amount.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return null;
  return Math.round(Number(text) * 100);
}

/** The lines as preview items, or the first problem in words. */
export function cartItems(
  lines: readonly CartLine[],
): { items: PreviewItem[] } | { error: string } {
  if (lines.length === 0) return { error: 'Add at least one cart line.' };
  const items: PreviewItem[] = [];
  for (const [index, line] of lines.entries()) {
    const price = toCents(line.price);
    if (price === null || price > 100_000_000) {
      return { error: `Line ${index + 1}: enter a price such as 12.50.` };
    }
    const quantity = Number(line.quantity.trim());
    if (!/^\d+$/.test(line.quantity.trim()) || quantity < 1 || quantity > 100_000) {
      return { error: `Line ${index + 1}: enter a quantity of at least 1.` };
    }
    const grams = line.grams.trim() === '' ? 0 : Number(line.grams.trim());
    if (!/^\d*$/.test(line.grams.trim()) || grams > 1_000_000_000) {
      return { error: `Line ${index + 1}: enter a weight in whole grams, such as 250.` };
    }
    items.push({
      price,
      quantity,
      grams,
      requires_shipping: true,
      ...(line.productId ? { product_id: Number(line.productId) } : {}),
    });
  }
  return { items };
}

/** `gid://shopify/Product/123` or `123` -> `123`; anything else -> ''. */
export function numericProductId(id: string): string {
  return shopifyIdDigits(id, { resource: 'Product', maxDigits: 16, trim: true }) ?? '';
}

/** Grams in words: `680 g`, `2.5 kg` from 1,000 g on. */
export function formatGrams(grams: number): string {
  return grams >= 1000 ? `${(grams / 1000).toLocaleString('en')} kg` : `${grams} g`;
}

/** A cart the preview opens with: a checkout's country, currency and lines, as typed. */
export interface CartPreset {
  country: string;
  currency: string;
  lines: Omit<CartLine, 'key'>[];
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
