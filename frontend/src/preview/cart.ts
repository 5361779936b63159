import { shopifyIdDigits } from '@ratesmith/contracts/shopify-ids';
import type { PreviewItem } from './types';

/** One cart line as typed: price in currency units, quantity, optional product. */
export interface CartLine {
  key: number;
  price: string;
  quantity: string;
  productId: string;
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
    items.push({
      price,
      quantity,
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
