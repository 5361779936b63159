import { shopifyIdDigits } from '@ratesmith/contracts/shopify-ids';
import {
  weightIn,
  weightToGrams,
  type Weight,
  type WeightUnit,
} from '@ratesmith/contracts/filters';
import type { PreviewItem } from './types';

/** One row of the preview's cart form, as typed: price in currency units, quantity, optional product. */
export interface CartRow {
  key: number;
  price: string;
  quantity: string;
  productId: string;
  /** One unit's weight in the form's weight unit (the shop's), as typed ('' is 0). */
  weight: string;
}

/** The cart's largest weight of one unit, as the rate request's grams (proto/src/cart/line.ts). */
const MAX_GRAMS = 1_000_000_000;

/** A weight as the form takes it in `unit`: whole grams, else at most 3 decimals; no grouping ("1.5", "680"). */
export function typedWeight(weight: Weight, unit: WeightUnit): string {
  if (unit === 'g') return String(weightToGrams(weight));
  return String(Math.round(weightIn(weight, unit) * 1000) / 1000);
}

/**
 * A typed weight moved from one unit to another (the shop's unit arriving
 * after the merchant typed, or a link's grams); text that is not a weight is
 * kept as typed, for cartItems to name.
 */
export function convertTypedWeight(text: string, from: WeightUnit, to: WeightUnit): string {
  const amount = weightAmount(text, from);
  if (from === to || amount === null || text.trim() === '') return text;
  return typedWeight({ amount, unit: from }, to);
}

/** A typed weight amount ('' is 0): whole grams, else at most 3 decimals; null when not one. */
function weightAmount(text: string, unit: WeightUnit): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  const pattern = unit === 'g' ? /^\d{1,10}$/ : /^\d{1,10}(\.\d{1,3})?$/;
  return pattern.test(trimmed) ? Number(trimmed) : null;
}

/** How the form asks for a weight in `unit`: "250" grams, "0.25" kilograms, ... */
const WEIGHT_EXAMPLE: Record<WeightUnit, string> = { g: '250', kg: '0.25', lb: '0.5', oz: '8' };

/** Cents of an amount with at most 2 decimals (half away from zero), or null when not one. */
export function toCents(amount: string): number | null {
  const text = amount.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return null;
  return Math.round(Number(text) * 100);
}

/** The lines as preview items (weights typed in `unit`), or the first problem in words. */
export function cartItems(
  lines: readonly CartRow[],
  unit: WeightUnit,
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
    const amount = weightAmount(line.weight, unit);
    const grams = amount === null ? null : weightToGrams({ amount, unit });
    if (grams === null || grams > MAX_GRAMS) {
      const how = unit === 'g' ? 'whole grams' : `${unit} (up to 3 decimals)`;
      return {
        error: `Line ${index + 1}: enter a weight in ${how}, such as ${WEIGHT_EXAMPLE[unit]}.`,
      };
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
