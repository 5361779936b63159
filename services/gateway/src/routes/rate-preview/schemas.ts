import {
  CART_LINE_LIMITS,
  cartLineId,
  shopifyIdDigits,
  shopifyIdPattern,
  type CartLine,
} from '@ratesmith/contracts';
import { z } from 'zod';
import type { PreviewRequest } from '@ratesmith/contracts';
import type { SchemaAccepts } from '../../http/validate';
import { filterListSchema } from '../filter.schemas';

/**
 * The preview's cart, in the shape of Shopify's rate request (prices in
 * cents), plus optional draft filters in the editor's JSON. Shape only: the
 * rate engine checks the cart with the same code as checkout, and the draft
 * with the same compiler, and says what is wrong.
 */

/** A Shopify id as a number, a decimal string, or a gid ("gid://shopify/Product/1"): a line's id. */
const ID_RULES = { maxDigits: CART_LINE_LIMITS.idDigits };
const shopifyId = z
  .union([
    z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    z.string().regex(shopifyIdPattern(ID_RULES), 'must be a Shopify id'),
  ])
  .transform((id) => cartLineId(typeof id === 'number' ? id : shopifyIdDigits(id, ID_RULES)!)!);

/** An item of Shopify's shape, as the contracts' cart line. */
const itemSchema = z
  .object({
    price: z.number().int().nonnegative().max(CART_LINE_LIMITS.price),
    quantity: z.number().int().positive().max(CART_LINE_LIMITS.quantity),
    grams: z.number().int().nonnegative().max(CART_LINE_LIMITS.grams).optional(),
    product_id: shopifyId.optional(),
    variant_id: shopifyId.optional(),
    requires_shipping: z.boolean().optional(),
    name: z.string().max(500).optional(),
    vendor: z.string().max(CART_LINE_LIMITS.text).nullish(),
    sku: z.string().max(CART_LINE_LIMITS.text).nullish(),
  })
  .transform((item): CartLine => ({
    price: item.price,
    quantity: item.quantity,
    grams: item.grams ?? 0,
    productId: item.product_id ?? '',
    variantId: item.variant_id ?? '',
    ships: item.requires_shipping !== false,
    vendor: item.vendor ?? '',
    sku: item.sku ?? '',
  }));

export const ratePreviewBody = z.object({
  rate: z.object({
    destination: z.object({
      country: z.string().max(8),
      province: z.string().max(64).optional(),
      postal_code: z.string().max(64).optional(),
    }),
    currency: z.string().max(8),
    items: z.array(itemSchema).max(500),
  }),
  draft: z
    .object({
      globalRuleId: z.string().max(64).optional(),
      productRuleId: z.string().max(64).optional(),
      rules: filterListSchema,
    })
    .optional(),
  /** The rate engine checks it as the quote command's `now` (a clear 400 when it is not one). */
  ordered_at: z.string().max(40).optional(),
});

/** What the admin's preview sends passes the schema. */
export type AdminPreviewRequest = SchemaAccepts<typeof ratePreviewBody, PreviewRequest>;
