import {
  catalogV1,
  PRODUCT_TEXT_KINDS,
  type ProductTextKind,
  type ProductTextsReply,
} from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { shopOf, traced } from '../../http/context';
import { parseInput } from '../../http/validate';

const KINDS: Record<ProductTextKind, catalogV1.ProductTextKind> = {
  vendor: catalogV1.ProductTextKind.VENDOR,
  type: catalogV1.ProductTextKind.TYPE,
  tag: catalogV1.ProductTextKind.TAG,
};

const query = z.object({
  kind: z.enum(PRODUCT_TEXT_KINDS),
  search: z.string().max(100).default(''),
});

/**
 * GET /api/product-texts?kind=vendor|type|tag&search=…: the shop's own
 * vendors, product types or tags (from Shopify, through the catalog) for the
 * rule editor's pickers. The shop is the session token's.
 */
export function productTextsRouter(
  catalog: ClientOf<typeof catalogV1.CatalogService>,
  timeoutMs: number,
): Router {
  const get: RequestHandler = async (req, res) => {
    const { kind, search } = parseInput(query, req.query);
    const reply = await catalog.call(
      'listProductTexts',
      { shop: shopOf(res), kind: KINDS[kind], search },
      { ...traced(res), timeoutMs },
    );
    res.json({
      status: true,
      values: reply.values,
      complete: reply.complete,
    } satisfies ProductTextsReply);
  };
  const router = Router();
  router.get('/', get);
  return router;
}
