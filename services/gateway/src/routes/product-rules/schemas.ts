import { LIMITS } from '@ratesmith/contracts';
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

/** The picker's selection: Shopify product ids (the catalog checks each is the shop's). */
export const addShopifyProductsBody = z.object({
  products: z
    .array(z.union([z.string().max(64), z.number().int().nonnegative()]).transform(String), {
      error: 'products must be a list of product ids',
    })
    .min(1, 'Please select at least one product.')
    .max(LIMITS.productsPerAdd, `At most ${LIMITS.productsPerAdd} products can be added at once.`),
});
