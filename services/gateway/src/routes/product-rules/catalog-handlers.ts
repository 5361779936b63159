import {
  SHOPIFY_WEIGHT_UNITS,
  type catalogV1,
  type StoreVariant,
  type StoreVariantsReply,
} from '@ratesmith/contracts';
import { AppError, type ClientOf } from '@ratesmith/kit';
import type { RequestHandler } from 'express';
import { shopOf, traced } from '../../http/context';
import { parseInput } from '../../http/validate';
import { addedMessage, nothingAddedMessage } from './add-message';
import { addShopifyProductsBody, shopifyProductsQuery, storeProductParams } from './schemas';

type CatalogClient = ClientOf<typeof catalogV1.CatalogService>;

/** A store product as the picker reads it: Shopify's own GraphQL shape. */
function productNodeJson(product: catalogV1.StoreProduct) {
  return {
    id: product.id,
    title: product.title,
    images: {
      edges: product.image
        ? [{ node: { url: product.image.url, altText: product.image.altText } }]
        : [],
    },
    variants: {
      edges: product.variants.map((v) => ({ node: { id: v.id, title: v.title, price: v.price } })),
    },
  };
}

/** A variant with its weight in the filter language's units; null when Shopify gave none we know. */
function weighedVariantJson(variant: catalogV1.ProductVariant): StoreVariant {
  const unit = variant.weight && SHOPIFY_WEIGHT_UNITS[variant.weight.unit];
  return {
    id: variant.id,
    title: variant.title,
    price: variant.price,
    weight: unit ? { amount: variant.weight!.value, unit } : null,
  };
}

/**
 * The product picker's calls. The catalog service may wait out Shopify's
 * throttling, so these calls get their own, longer, time limit.
 */
export function catalogHandlers(catalog: CatalogClient, timeoutMs: number) {
  const list: RequestHandler = async (req, res) => {
    const { search, after, before } = parseInput(shopifyProductsQuery, req.query);
    const reply = await catalog.call(
      'listProducts',
      { shop: shopOf(res), search, after, before },
      { ...traced(res), timeoutMs },
    );
    const pageInfo = reply.pageInfo;
    res.json({
      status: true,
      products: {
        edges: reply.products.map((p) => ({ cursor: p.cursor, node: productNodeJson(p) })),
        pageInfo: {
          hasNextPage: pageInfo?.hasNextPage ?? false,
          hasPreviousPage: pageInfo?.hasPreviousPage ?? false,
          startCursor: pageInfo?.startCursor || null,
          endCursor: pageInfo?.endCursor || null,
        },
      },
    });
  };

  const variants: RequestHandler = async (req, res) => {
    const { id } = parseInput(storeProductParams, req.params);
    const reply = await catalog.call(
      'listVariants',
      { shop: shopOf(res), productId: id },
      { ...traced(res), timeoutMs },
    );
    res.json({
      status: true,
      variants: reply.variants.map(weighedVariantJson),
    } satisfies StoreVariantsReply);
  };

  const add: RequestHandler = async (req, res) => {
    const { products } = parseInput(addShopifyProductsBody, req.body);
    const { added, skipped } = await catalog.call(
      'addProducts',
      {
        shop: shopOf(res),
        productIds: products.map((p) => (typeof p === 'string' ? p : p.id)),
        variantPicks: products.flatMap((p) =>
          typeof p === 'string' ? [] : [{ productId: p.id, variantIds: p.variant_ids }],
        ),
      },
      { ...traced(res), timeoutMs },
    );
    if (!added.length) throw new AppError('conflict', nothingAddedMessage(skipped));
    res.json({ status: true, message: addedMessage(added, skipped) });
  };

  return { list, variants, add };
}
