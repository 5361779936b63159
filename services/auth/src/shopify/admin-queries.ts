import { authV1, shopifyIdPattern } from '@ratesmith/contracts';
import { z } from 'zod';

/**
 * The allow-list of RunAdminQuery: the Admin GraphQL read queries the
 * catalog may have this service run with a shop's token, each with the
 * variables it takes (zod, shape and size). A caller names a query; it never
 * sends a document, so nothing but these reads (no other field) can be run
 * over the bus. The one mutation, RatesmithProductExport, only starts a read:
 * Shopify's bulk export of a fixed selection of the shop's products. Images come from `featuredMedia` (`images` is
 * deprecated); prices are Shopify's Money decimal strings, kept as they are.
 * The catalog reads the replies (services/catalog/src/shopify/products.ts).
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
/** Most products of one page: the picker's 15 (842 points, above). */
export const MAX_PRODUCTS_PAGE = 15;
/** Most ids of one lookup: 8 × 56 = 448 points. */
export const MAX_LOOKUP_IDS = 8;
/** Values of one page of a shop's vendors, types or tags: Shopify's largest page. */
export const PRODUCT_TEXTS_PAGE = 250;
/** Most ids of one product-facts read: a product of scalars is 1 point, so 100 points. */
export const MAX_FACT_IDS = 100;

/** A page of a product's variants as the picker lists them, with the cursor to the next. */
const VARIANTS_PAGE_FIELDS = `
      nodes {
        id
        title
        price
      }
      pageInfo {
        hasNextPage
        endCursor
      }
`;

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
    ${VARIANTS_PAGE_FIELDS}
  }
`;

const PRODUCTS_QUERY = `#graphql
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

const NODES_QUERY = `#graphql
query RatesmithProductsById($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on Product {
      ${PRODUCT_FIELDS}
    }
  }
}`;

/** Products' type and tags for item conditions (docs/rates.md, "The product index"). */
const PRODUCT_FACTS_QUERY = `#graphql
query RatesmithProductFacts($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on Product {
      id
      productType
      tags
      updatedAt
    }
  }
}`;

/**
 * Every product's type, tags and updatedAt as one JSONL file (Shopify's bulk
 * operations): the product index's first fill (docs/rates.md, "The product index").
 */
const PRODUCT_EXPORT_MUTATION = `#graphql
mutation RatesmithProductExport {
  bulkOperationRunQuery(
    groupObjects: false
    query: "{ products { edges { node { id productType tags updatedAt } } } }"
  ) {
    bulkOperation {
      id
      status
    }
    userErrors {
      field
      message
      code
    }
  }
}`;

const PRODUCT_EXPORT_STATUS_QUERY = `#graphql
query RatesmithProductExportStatus($id: ID!) {
  bulkOperation(id: $id) {
    id
    status
    errorCode
    objectCount
    url
  }
}`;

/**
 * The shop's distinct vendors, types or tags, 250 a page: the rule editor's
 * pickers. The three roots take the same arguments and answer the same
 * connection of strings, so their queries differ only in the root's name.
 */
const PRODUCT_TEXTS_PAGE_SELECTION = `(first: ${PRODUCT_TEXTS_PAGE}, after: $after) {
    nodes
    pageInfo {
      hasNextPage
      endCursor
    }
  }`;

const PRODUCT_VENDORS_QUERY = `#graphql
query RatesmithProductVendors($after: String) {
  productVendors${PRODUCT_TEXTS_PAGE_SELECTION}
}`;

const PRODUCT_TYPES_QUERY = `#graphql
query RatesmithProductTypes($after: String) {
  productTypes${PRODUCT_TEXTS_PAGE_SELECTION}
}`;

const PRODUCT_TAGS_QUERY = `#graphql
query RatesmithProductTags($after: String) {
  productTags${PRODUCT_TEXTS_PAGE_SELECTION}
}`;

const VARIANTS_QUERY = `#graphql
query RatesmithProductVariants($id: ID!, $after: String) {
  product(id: $id) {
    variants(first: ${VARIANTS_PAGE_SIZE}, after: $after) {
      ${VARIANTS_PAGE_FIELDS}
    }
  }
}`;

/**
 * A product's variants with their weights: the picker's 50 (as the page
 * query carries). A weight sits three objects deep in each variant, so 50 cost
 * 1 + 2 + 50 × 4 = 203; in the page query they would cost 15 × 150 more, far
 * past the limit.
 */
const VARIANT_WEIGHTS_QUERY = `#graphql
query RatesmithVariantWeights($id: ID!) {
  product(id: $id) {
    variants(first: ${VARIANTS_PER_PRODUCT}) {
      nodes {
        id
        title
        price
        inventoryItem {
          measurement {
            weight {
              value
              unit
            }
          }
        }
      }
    }
  }
}`;

const SHOP_CURRENCY_QUERY = `#graphql
query RatesmithShopCurrency {
  shop {
    currencyCode
    currencyFormats {
      moneyFormat
    }
    weightUnit
    ianaTimezone
  }
}`;

/** Shopify's opaque cursors are short; this bounds what a caller can make Shopify parse. */
const cursor = z.string().min(1).max(1024);
/** The catalog's escaped search (services/catalog/src/shopify/search.ts: 200 characters typed). */
const search = z.string().max(1000);
const productGid = z
  .string()
  .regex(shopifyIdPattern({ resource: 'Product' }))
  .startsWith('gid://shopify/Product/');
const pageSize = z.number().int().min(1).max(MAX_PRODUCTS_PAGE);

export interface AdminQueryDefinition {
  /** The operation's name, for logs. */
  name: string;
  document: string;
  variables: z.ZodType<Record<string, unknown>>;
}

/** A query of the shop's vendors, types or tags: a page after an optional cursor. */
function productTexts(name: string, document: string): AdminQueryDefinition {
  return { name, document, variables: z.strictObject({ after: cursor.optional() }) };
}

/** Every query RunAdminQuery runs; an enum value not listed here is refused. */
export const ADMIN_QUERIES: ReadonlyMap<authV1.AdminQuery, AdminQueryDefinition> = new Map([
  [
    authV1.AdminQuery.PRODUCTS,
    {
      name: 'RatesmithProducts',
      document: PRODUCTS_QUERY,
      // Forward (first, after) or backward (last, before), never both.
      variables: z.union([
        z.strictObject({ first: pageSize, after: cursor.optional(), query: search.optional() }),
        z.strictObject({ last: pageSize, before: cursor.optional(), query: search.optional() }),
      ]),
    },
  ],
  [
    authV1.AdminQuery.PRODUCTS_BY_ID,
    {
      name: 'RatesmithProductsById',
      document: NODES_QUERY,
      variables: z.strictObject({ ids: z.array(productGid).min(1).max(MAX_LOOKUP_IDS) }),
    },
  ],
  [
    authV1.AdminQuery.PRODUCT_FACTS,
    {
      name: 'RatesmithProductFacts',
      document: PRODUCT_FACTS_QUERY,
      variables: z.strictObject({ ids: z.array(productGid).min(1).max(MAX_FACT_IDS) }),
    },
  ],
  [
    authV1.AdminQuery.PRODUCT_EXPORT_START,
    {
      name: 'RatesmithProductExport',
      document: PRODUCT_EXPORT_MUTATION,
      variables: z.strictObject({}),
    },
  ],
  [
    authV1.AdminQuery.PRODUCT_EXPORT_STATUS,
    {
      name: 'RatesmithProductExportStatus',
      document: PRODUCT_EXPORT_STATUS_QUERY,
      variables: z.strictObject({
        id: z.string().regex(/^gid:\/\/shopify\/BulkOperation\/\d{1,20}$/),
      }),
    },
  ],
  [
    authV1.AdminQuery.PRODUCT_VENDORS,
    productTexts('RatesmithProductVendors', PRODUCT_VENDORS_QUERY),
  ],
  [authV1.AdminQuery.PRODUCT_TYPES, productTexts('RatesmithProductTypes', PRODUCT_TYPES_QUERY)],
  [authV1.AdminQuery.PRODUCT_TAGS, productTexts('RatesmithProductTags', PRODUCT_TAGS_QUERY)],
  [
    authV1.AdminQuery.PRODUCT_VARIANTS,
    {
      name: 'RatesmithProductVariants',
      document: VARIANTS_QUERY,
      variables: z.strictObject({ id: productGid, after: cursor.optional() }),
    },
  ],
  [
    authV1.AdminQuery.VARIANT_WEIGHTS,
    {
      name: 'RatesmithVariantWeights',
      document: VARIANT_WEIGHTS_QUERY,
      variables: z.strictObject({ id: productGid }),
    },
  ],
  [
    authV1.AdminQuery.SHOP_CURRENCY,
    {
      name: 'RatesmithShopCurrency',
      document: SHOP_CURRENCY_QUERY,
      variables: z.strictObject({}),
    },
  ],
]);

/** The answer of RatesmithShopCurrency, as Shopify's Admin GraphQL gives it. */
export const shopCurrencyData = z.object({
  shop: z.object({
    currencyCode: z.string().regex(/^[A-Z]{3}$/),
    currencyFormats: z.object({ moneyFormat: z.string().max(200) }),
    weightUnit: z.enum(['GRAMS', 'KILOGRAMS', 'OUNCES', 'POUNDS']),
    ianaTimezone: z.string().min(1).max(64),
  }),
});
