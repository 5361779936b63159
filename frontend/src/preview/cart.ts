import { shopifyIdDigits } from '@ratesmith/contracts/shopify-ids';
import type { PreviewItem } from './types';

/** One row of the preview's cart form, as typed: price in currency units, quantity, optional product. */
export interface CartRow {
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
export function cartItems(lines: readonly CartRow[]): { items: PreviewItem[] } | { error: string } {
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
