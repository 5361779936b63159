import {
  authV1,
  isLineId,
  PRODUCT_FACT_LIMITS,
  shopifyGid,
  shopifyIdDigits,
  type rulesV1,
} from '@ratesmith/contracts';
import { AppError, type ClientOf } from '@ratesmith/kit';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { z } from 'zod';
import type { AdminQueries } from '../auth-admin';

/** Ids per RatesmithProductFacts read (auth's MAX_FACT_IDS): 100 points of Shopify's 1,000. */
export const FACT_CHUNK = 100;
/** Ids one refresh takes: a webhook names one product; this bounds a caller's batch. */
export const MAX_REFRESH_IDS = 1000;

/** One node of the reply (or one line of the export): a product of this shop, or null. */
export const productFactNode = z
  .object({
    id: z.string(),
    productType: z.string().max(PRODUCT_FACT_LIMITS.text),
    tags: z.array(z.string().max(PRODUCT_FACT_LIMITS.text)).max(PRODUCT_FACT_LIMITS.tags),
    updatedAt: z.iso.datetime({ offset: true }),
  })
  .nullable();
const factsReply = z.object({ nodes: z.array(productFactNode) });

type Fact = MessageInitShape<typeof rulesV1.ProductFactSchema>;

/**
 * Reads products again from the shop's store, by id, and sends the rules
 * service their type and tags (docs/rates.md, "The product index"). An id the
 * store answers with null is no product of this shop: it is sent as removed,
 * which for a product of another shop removes nothing. So only the ids of a
 * webhook are trusted, never its body.
 */
export async function refreshProductFacts(
  deps: { admin: AdminQueries; rules: ClientOf<typeof rulesV1.RulesService>; deadlineMs: number },
  shop: string,
  productIds: readonly string[],
  requestId: string,
): Promise<void> {
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return;
  if (ids.length > MAX_REFRESH_IDS)
    throw new AppError('invalid_data', `At most ${MAX_REFRESH_IDS} products at a time.`);
  if (!ids.every(isLineId))
    throw new AppError('invalid_data', 'Product ids must be decimal numbers.');
  const deadline = Date.now() + deps.deadlineMs;
  const products: Fact[] = [];
  const removed: string[] = [];
  for (let at = 0; at < ids.length; at += FACT_CHUNK) {
    const chunk = ids.slice(at, at + FACT_CHUNK);
    const reply = factsReply.safeParse(
      await deps.admin.run(
        shop,
        authV1.AdminQuery.PRODUCT_FACTS,
        { ids: chunk.map((id) => shopifyGid('Product', id)) },
        deadline,
        requestId,
      ),
    );
    if (!reply.success || reply.data.nodes.length !== chunk.length)
      throw new AppError('unavailable', 'Shopify answered products in an unexpected shape.');
    reply.data.nodes.forEach((node, i) => {
      const id = node ? shopifyIdDigits(node.id, { resource: 'Product' }) : undefined;
      if (!node || id !== chunk[i]) {
        removed.push(chunk[i]!);
        return;
      }
      products.push({
        productId: id,
        productType: node.productType,
        tags: node.tags,
        updatedAt: node.updatedAt,
      });
    });
  }
  await deps.rules.call(
    'putProductFacts',
    { shop, products, removedProductIds: removed },
    { requestId, timeoutMs: Math.max(1, deadline - Date.now()) },
  );
}
