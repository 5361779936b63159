import {
  authV1,
  LIMITS,
  shopifyGid,
  shopifyIdDigits,
  type catalogV1,
  type rulesV1,
} from '@ratesmith/contracts';
import { AppError, type ClientOf } from '@ratesmith/kit';
import type { AdminQueries } from '../auth-admin';
import {
  imageOf,
  moreVariantsAfter,
  variantsOf,
  type NodesReply,
  type ProductsReply,
  type ShopifyProduct,
  type VariantsReply,
  type VariantWeightsReply,
} from '../shopify/products';
import { toShopifyQuery } from '../shopify/search';
import { unwrapCursor, wrapCursor } from './cursor';
import type { ProductExports } from './product-export';
import { ProductTexts } from './product-texts';
import { refreshProductFacts } from './product-facts';

/** The product picker's page size (15, as in the original app). */
export const PAGE_SIZE = 15;
/** Ids per lookup query, so one query stays well under Shopify's cost limit of 1,000 (8 × 56 = 448). */
export const LOOKUP_CHUNK = 8;
/** Shopify's most variants on one product: bounds the variant paging loop. */
export const MAX_VARIANTS = 2048;
/** The rules service refuses longer image URLs; a product without an image is still a product. */
const MAX_IMAGE_URL = 2048;

const productGid = (numeric: string) => shopifyGid('Product', numeric);

export interface ListedProduct {
  id: string;
  title: string;
  image: { url: string; altText: string } | undefined;
  variants: Variant[];
  /** Set when the product has more variants than the page carries: where the next ones start. */
  variantsPageInfo: { hasNextPage: true; endCursor: string } | undefined;
  cursor: string;
}

type Variant = { id: string; title: string; price: string };

/** A variant with its shipping weight as Shopify gives it (its own unit); none when Shopify has none. */
export type WeighedVariant = Variant & { weight: { value: number; unit: string } | undefined };

export interface ProductPage {
  products: ListedProduct[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string;
    endCursor: string;
  };
}

export interface LookUpOutcome {
  found: { productId: string; title: string; imageUrl: string; variants: Variant[] }[];
  /** variantIds empty: the product is not in the store; else its variants that are not. */
  missing: { productId: string; variantIds: string[] }[];
}

export interface AddOutcome {
  added: { productId: string; title: string }[];
  skipped: { productId: string; title: string }[];
}

/**
 * The catalog use cases. Every call is scoped to one shop (the gateway took it
 * from a verified session token) and bounded by `deadlineMs` from its start.
 */
export class CatalogApp {
  private readonly texts: ProductTexts;

  constructor(
    private readonly deps: {
      /** Shopify's Admin API, through auth (which holds the shop's token). */
      admin: AdminQueries;
      rules: ClientOf<typeof rulesV1.RulesService>;
      deadlineMs: number;
      /** The whole-catalog exports of the product index (none: refused). */
      exports?: ProductExports;
    },
  ) {
    this.texts = new ProductTexts(deps);
  }

  /** The shop's vendors, types or tags for the editor's pickers (see ProductTexts). */
  listProductTexts(
    shop: string,
    kind: catalogV1.ProductTextKind,
    search: string,
    requestId: string,
  ): Promise<{ values: string[]; complete: boolean }> {
    return this.texts.list(shop, kind, search, requestId);
  }

  /** Starts the shop's product export (see ProductExports); false when one runs already. */
  exportProducts(shop: string, requestId: string): boolean {
    if (!this.deps.exports) throw new AppError('unavailable', 'Product exports are not set up.');
    return this.deps.exports.start(shop, requestId);
  }

  /** A product webhook's ids, read again from the store (see refreshProductFacts). */
  refreshProducts(shop: string, productIds: readonly string[], requestId: string): Promise<void> {
    return refreshProductFacts(this.deps, shop, productIds, requestId);
  }

  async listProducts(
    shop: string,
    input: { search: string; after: string; before: string },
    requestId: string,
  ): Promise<ProductPage> {
    if (input.after && input.before) {
      throw new AppError('invalid_data', 'Ask for the next or the previous page, not both.');
    }
    const deadline = Date.now() + this.deps.deadlineMs;
    const query = toShopifyQuery(input.search);
    const searchKey = query.toLowerCase();
    const cursor = unwrapCursor(searchKey, input.after || input.before);
    if (cursor.kind === 'invalid') {
      throw new AppError('invalid_data', 'That page is no longer available. Please search again.');
    }
    // No cursor, or one of an earlier search: page 1 of this search.
    const variables: Record<string, unknown> =
      cursor.kind !== 'cursor'
        ? { first: PAGE_SIZE }
        : input.after
          ? { first: PAGE_SIZE, after: cursor.shopifyCursor }
          : { last: PAGE_SIZE, before: cursor.shopifyCursor };
    if (query) variables.query = query;

    const reply = await this.deps.admin.run<ProductsReply>(
      shop,
      authV1.AdminQuery.PRODUCTS,
      variables,
      deadline,
      requestId,
    );
    const connection = reply.products;
    if (!connection || !Array.isArray(connection.edges)) {
      throw new AppError('unavailable', 'Shopify answered without products. Please try again.');
    }
    const wrap = (c: string | null | undefined) => (c ? wrapCursor(searchKey, c) : '');
    return {
      products: connection.edges.map(({ cursor: c, node }) => {
        const more = moreVariantsAfter(node);
        return {
          id: node.id,
          title: node.title,
          image: imageOf(node),
          variants: variantsOf(node),
          variantsPageInfo: more ? { hasNextPage: true as const, endCursor: more } : undefined,
          cursor: wrap(c),
        };
      }),
      pageInfo: {
        hasNextPage: connection.pageInfo.hasNextPage,
        hasPreviousPage: connection.pageInfo.hasPreviousPage,
        startCursor: wrap(connection.pageInfo.startCursor),
        endCursor: wrap(connection.pageInfo.endCursor),
      },
    };
  }

  /**
   * One product's first variants with their weights: read apart from the
   * page because weights make each variant cost four points (the picker asks
   * for a product the merchant checks).
   */
  async listVariants(shop: string, rawId: string, requestId: string): Promise<WeighedVariant[]> {
    const [id] = normaliseIds([rawId]);
    const reply = await this.deps.admin.run<VariantWeightsReply>(
      shop,
      authV1.AdminQuery.VARIANT_WEIGHTS,
      { id },
      Date.now() + this.deps.deadlineMs,
      requestId,
    );
    // Another store's product is as unknown here as a made-up id.
    if (!reply.product) throw new AppError('not_found', 'This product is not in your store.');
    return (reply.product.variants?.nodes ?? []).map((v) => {
      const weight = v.inventoryItem?.measurement?.weight;
      return {
        id: v.id,
        title: v.title,
        price: v.price,
        weight: weight ? { value: weight.value, unit: weight.unit } : undefined,
      };
    });
  }

  /**
   * Looks every id up in the shop's own store first: if any is not there
   * (unknown, or another store's), nothing is added. Then one product rule per
   * product; the rules service skips products that already have one.
   */
  async addProducts(
    shop: string,
    rawIds: string[],
    requestId: string,
    picks: readonly { productId: string; variantIds: string[] }[] = [],
  ): Promise<AddOutcome> {
    const ids = normaliseIds(rawIds);
    // The variants picked, by the product's gid; checked against Shopify's list below.
    const picked = new Map<string, string[]>();
    for (const pick of picks) {
      const [gid] = normaliseIds([pick.productId]);
      if (!gid || !ids.includes(gid))
        throw new AppError('invalid_data', 'Variants were picked for a product that was not.');
      picked.set(
        gid,
        pick.variantIds.map((v) => shopifyIdDigits(v, VARIANT_ID) ?? ''),
      );
    }
    const deadline = Date.now() + this.deps.deadlineMs;
    const found = await this.findInStore(shop, ids, deadline, requestId);
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) {
      const list = missing.map(numericId).join(', ');
      throw new AppError(
        'invalid_data',
        `${missing.length === 1 ? 'This product is' : 'These products are'} not in your store: ${list}. Nothing was added.`,
      );
    }

    // A product rule keeps every variant: those past the first page come with their own cursor.
    const variants = new Map<string, Variant[]>();
    for (const id of ids) {
      const product = found.get(id)!;
      variants.set(id, await this.allVariants(shop, product, deadline, requestId));
    }

    const products = ids.map((id) => {
      const product = found.get(id)!;
      const image = imageOf(product)?.url ?? '';
      return {
        productId: id,
        name: product.title.trim() || 'Untitled product',
        image: image.length <= MAX_IMAGE_URL ? image : '',
        variants: variants.get(id)!.map((v) => ({
          id: numericId(v.id),
          title: v.title,
          price: v.price,
        })),
        variantIds: pickedVariants(product.title, variants.get(id)!, picked.get(id)),
      };
    });
    const reply = await this.deps.rules.call('addProductRules', { shop, products }, { requestId });
    const titleOf = (numeric: string) => found.get(productGid(numeric))?.title ?? numeric;
    return {
      added: reply.added.map((rule) => ({
        productId: productGid(rule.productId),
        title: rule.name,
      })),
      skipped: reply.skipped.map((numeric) => ({
        productId: productGid(numeric),
        title: titleOf(numeric),
      })),
    };
  }

  /**
   * For an import: each product (and its variants) looked up in the shop's
   * store with every variant; those not there, or with variants not there, are
   * answered as missing (ids that are no product id too), never as an error.
   */
  async lookUpProducts(
    shop: string,
    wanted: readonly { productId: string; variantIds: string[] }[],
    requestId: string,
  ): Promise<LookUpOutcome> {
    const missing: LookUpOutcome['missing'] = [];
    const byGid = new Map<string, string[]>();
    for (const { productId, variantIds } of wanted) {
      const numeric = shopifyIdDigits(productId, { resource: 'Product', trim: true });
      if (numeric === undefined) missing.push({ productId, variantIds: [] });
      else byGid.set(productGid(numeric), variantIds);
    }
    const deadline = Date.now() + this.deps.deadlineMs;
    const found = await this.findInStore(shop, [...byGid.keys()], deadline, requestId);
    const products: LookUpOutcome['found'] = [];
    for (const [gid, variantIds] of byGid) {
      const product = found.get(gid);
      if (!product) {
        missing.push({ productId: numericId(gid), variantIds: [] });
        continue;
      }
      const variants = (await this.allVariants(shop, product, deadline, requestId)).map((v) => ({
        ...v,
        id: numericId(v.id),
      }));
      const known = new Set(variants.map((v) => v.id));
      const absent = variantIds.filter((id) => !known.has(id));
      if (absent.length) {
        missing.push({ productId: numericId(gid), variantIds: absent });
        continue;
      }
      const image = imageOf(product)?.url ?? '';
      products.push({
        productId: numericId(gid),
        title: product.title.trim() || 'Untitled product',
        imageUrl: image.length <= MAX_IMAGE_URL ? image : '',
        variants,
      });
    }
    return { found: products, missing };
  }

  /** The products of `ids` (gids) that are in the shop's own store, by gid. */
  private async findInStore(
    shop: string,
    ids: readonly string[],
    deadline: number,
    requestId: string,
  ): Promise<Map<string, ShopifyProduct>> {
    const found = new Map<string, ShopifyProduct>();
    for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
      const chunk = ids.slice(i, i + LOOKUP_CHUNK);
      const reply = await this.deps.admin.run<NodesReply>(
        shop,
        authV1.AdminQuery.PRODUCTS_BY_ID,
        { ids: chunk },
        deadline,
        requestId,
      );
      (reply.nodes ?? []).forEach((node, k) => {
        // `... on Product` leaves other kinds of node empty; null is no such node.
        if (node && 'id' in node && node.id === chunk[k])
          found.set(node.id, node as ShopifyProduct);
      });
    }
    return found;
  }

  /**
   * The product's variants: the first page it was read with, then the rest
   * a page of 250 at a time (one query each, cost 253) while Shopify says
   * there are more.
   */
  private async allVariants(
    shop: string,
    product: ShopifyProduct,
    deadline: number,
    requestId: string,
  ): Promise<Variant[]> {
    const variants = variantsOf(product);
    let after = moreVariantsAfter(product);
    while (after !== undefined && variants.length < MAX_VARIANTS) {
      const reply = await this.deps.admin.run<VariantsReply>(
        shop,
        authV1.AdminQuery.PRODUCT_VARIANTS,
        { id: product.id, after },
        deadline,
        requestId,
      );
      const page = reply.product?.variants;
      if (!page) {
        throw new AppError(
          'invalid_data',
          `This product is no longer in your store: ${product.title}. Nothing was added.`,
        );
      }
      variants.push(...variantsOf({ variants: page }));
      after = moreVariantsAfter({ variants: page });
    }
    return variants;
  }
}

/** Accepts gid://shopify/Product/<n> or <n>; answers unique gids in the order given. */
export function normaliseIds(rawIds: string[]): string[] {
  const ids: string[] = [];
  for (const raw of rawIds) {
    const numeric = shopifyIdDigits(raw, { resource: 'Product', trim: true });
    if (numeric === undefined) {
      throw new AppError('invalid_data', 'One of the selected products has an unknown id.');
    }
    const gid = productGid(numeric);
    if (!ids.includes(gid)) ids.push(gid);
  }
  if (ids.length === 0) throw new AppError('invalid_data', 'Please select at least one product.');
  if (ids.length > LIMITS.productsPerAdd) {
    throw new AppError(
      'invalid_data',
      `At most ${LIMITS.productsPerAdd} products can be added at once.`,
    );
  }
  return ids;
}

/** Product rules keep Shopify's numeric ids (the carrier request carries numbers). */
function numericId(gid: string): string {
  return shopifyIdDigits(gid) ?? gid;
}

const VARIANT_ID = { resource: 'ProductVariant', trim: true } as const;

/**
 * The variant ids a new rule is limited to: none (every variant) when nothing
 * was picked or every variant was; each picked id must be one of the product's.
 */
function pickedVariants(
  title: string,
  variants: readonly Variant[],
  picked: readonly string[] | undefined,
): string[] {
  if (!picked) return [];
  const all = new Set(variants.map((v) => numericId(v.id)));
  const chosen = [...new Set(picked)];
  if (chosen.some((id) => !all.has(id)))
    throw new AppError(
      'invalid_data',
      `A picked variant is not one of ${title}'s. Nothing was added.`,
    );
  return chosen.length === all.size ? [] : chosen;
}
