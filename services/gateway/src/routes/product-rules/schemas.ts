import { LIMITS, shopifyIdPattern } from '@ratesmith/contracts';
import { z } from 'zod';

const cursor = z.string().max(2048).default('');

/** The picker's query: a search text and at most one page cursor. */
export const shopifyProductsQuery = z
  .object({
    search: z.string().max(200, 'search must be at most 200 characters').default(''),
    after: cursor,
    before: cursor,
  })
  .refine((q) => !(q.after && q.before), {
    message: 'Ask for the next or the previous page, not both.',
  });

/** A store product in the path: Shopify's number (a gid's slashes do not fit a path). */
export const storeProductParams = z.object({
  id: z.string().regex(shopifyIdPattern({ gid: false }), 'id must be a Shopify product number'),
});

const shopifyId = z.union([z.string().max(64), z.number().int().nonnegative()]).transform(String);

/** A product picked with only some of its variants. */
const productWithVariants = z.object({
  id: shopifyId,
  variant_ids: z
    .array(shopifyId)
    .min(1, 'Pick at least one variant of each product.')
    .max(LIMITS.variantsPerProduct),
});

/**
 * The picker's selection: Shopify product ids (the catalog checks each is the
 * shop's), or `{id, variant_ids}` for a product limited to some variants.
 */
export const addShopifyProductsBody = z.object({
  products: z
    .array(z.union([shopifyId, productWithVariants]), {
      error: 'products must be a list of product ids',
    })
    .min(1, 'Please select at least one product.')
    .max(LIMITS.productsPerAdd, `At most ${LIMITS.productsPerAdd} products can be added at once.`),
});
