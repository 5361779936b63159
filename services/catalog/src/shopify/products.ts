/**
 * What the catalogue queries answer (their documents are auth's allow-list,
 * services/auth/src/shopify/admin-queries.ts), and how the catalog reads a
 * product from it. Prices are Shopify's Money decimal strings, kept as they are.
 */

export interface VariantsPage {
  nodes?: { id: string; title: string; price: string }[];
  pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
}

/** RatesmithProductVariants. */
export interface VariantsReply {
  /** null when the product is gone (deleted since it was listed). */
  product: { variants?: VariantsPage | null } | null;
}

export interface ShopifyProduct {
  id: string;
  title: string;
  featuredMedia?: {
    preview?: { image?: { url?: string | null; altText?: string | null } | null } | null;
  } | null;
  variants?: VariantsPage | null;
}

/** RatesmithVariantWeights. */
export interface VariantWeightsReply {
  /** null when the product is not in this store. */
  product: {
    variants?: {
      nodes?: {
        id: string;
        title: string;
        price: string;
        inventoryItem?: {
          measurement?: { weight?: { value: number; unit: string } | null } | null;
        } | null;
      }[];
    } | null;
  } | null;
}

/** RatesmithProducts. */
export interface ProductsReply {
  products: {
    edges: { cursor: string; node: ShopifyProduct }[];
    pageInfo: {
      hasNextPage: boolean;
      hasPreviousPage: boolean;
      startCursor: string | null;
      endCursor: string | null;
    };
  };
}

/** RatesmithProductsById. */
export interface NodesReply {
  /** null for ids of no product in this store. */
  nodes: (ShopifyProduct | Record<string, never> | null)[];
}

export function imageOf(product: ShopifyProduct): { url: string; altText: string } | undefined {
  const image = product.featuredMedia?.preview?.image;
  return image?.url ? { url: image.url, altText: image.altText ?? '' } : undefined;
}

export function variantsOf(
  product: Pick<ShopifyProduct, 'variants'>,
): { id: string; title: string; price: string }[] {
  return (product.variants?.nodes ?? []).map((v) => ({ id: v.id, title: v.title, price: v.price }));
}

/** The cursor after the product's first variants when it has more, else undefined. */
export function moreVariantsAfter(product: Pick<ShopifyProduct, 'variants'>): string | undefined {
  const info = product.variants?.pageInfo;
  return info?.hasNextPage && info.endCursor ? info.endCursor : undefined;
}
