/**
 * The Admin GraphQL documents the catalog sends, and the shapes it reads back.
 * Images come from `featuredMedia` (`images` is deprecated); prices are
 * Shopify's Money decimal strings, kept as they are.
 */

/** Variants read per product: enough for the picker and a product rule's metadata. */
export const VARIANTS_PER_PRODUCT = 100;

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

export interface ShopifyProduct {
  id: string;
  title: string;
  featuredMedia?: {
    preview?: { image?: { url?: string | null; altText?: string | null } | null } | null;
  } | null;
  variants?: { nodes?: { id: string; title: string; price: string }[] } | null;
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
  product: ShopifyProduct,
): { id: string; title: string; price: string }[] {
  return (product.variants?.nodes ?? []).map((v) => ({ id: v.id, title: v.title, price: v.price }));
}
