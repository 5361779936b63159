/**
 * The Admin GraphQL documents the catalog sends, and the shapes it reads back.
 * Images come from `featuredMedia` (`images` is deprecated); prices are
 * Shopify's Money decimal strings, kept as they are.
 */

/**
 * Variants read with each product. Nested connections multiply: a page of 15
 * products costs 2 + 15 × (1 + 3 + 2 + this), which must stay under Shopify's
 * limit of 1,000 for one query (842 with 50). A product's further variants
 * (Shopify allows 2,048) are read with VARIANTS_QUERY and their own cursor.
 */
export const VARIANTS_PER_PRODUCT = 50;
/** Variants per VARIANTS_QUERY: Shopify's largest page (cost 1 + 2 + 250 = 253). */
export const VARIANTS_PAGE_SIZE = 250;

const PRODUCT_FIELDS = `
  id
  title
  featuredMedia {
    preview {
      image {
        url
        altText
      }
    }
  }
  variants(first: ${VARIANTS_PER_PRODUCT}) {
    nodes {
      id
      title
      price
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
`;

export const PRODUCTS_QUERY = `#graphql
query RatesmithProducts($first: Int, $last: Int, $after: String, $before: String, $query: String) {
  products(first: $first, last: $last, after: $after, before: $before, query: $query) {
    edges {
      cursor
      node {
        ${PRODUCT_FIELDS}
      }
    }
    pageInfo {
      hasNextPage
      hasPreviousPage
      startCursor
      endCursor
    }
  }
}`;

export const NODES_QUERY = `#graphql
query RatesmithProductsById($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on Product {
      ${PRODUCT_FIELDS}
    }
  }
}`;

export const VARIANTS_QUERY = `#graphql
query RatesmithProductVariants($id: ID!, $after: String) {
  product(id: $id) {
    variants(first: ${VARIANTS_PAGE_SIZE}, after: $after) {
      nodes {
        id
        title
        price
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
}`;

export interface VariantsPage {
  nodes?: { id: string; title: string; price: string }[];
  pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
}

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
