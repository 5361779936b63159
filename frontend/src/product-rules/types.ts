import type { StoreVariant } from '../api';

/**
 * `GET /api/product-rules/shopify-products` answers `{status, products}`;
 * `products` is Shopify's connection shape (interfaces: task "catalog").
 */
export interface StoreProduct {
  id: string;
  title: string;
  images: { edges: { node: { url: string; altText: string | null } }[] };
  variants: { edges: { node: { id: string; title: string; price: string } }[] };
}

export interface ProductPage {
  edges: { cursor: string; node: StoreProduct }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

/** One page request: a search from page 1, or the page after/before a cursor. */
export interface PageRequest {
  search: string;
  after?: string;
  before?: string;
}

export type LoadProductPage = (request: PageRequest) => Promise<ProductPage>;

/**
 * Reads a product's variants with their weights
 * (`GET /api/product-rules/shopify-products/{id}/variants`); `productId` is the gid.
 */
export type LoadVariants = (productId: string, signal: AbortSignal) => Promise<StoreVariant[]>;

/** What Add sends per product: its id (every variant), or the id with the variants picked. */
export type PickedProduct = string | { id: string; variant_ids: string[] };
