import { DEMO_CATALOG, type DoubleProduct } from './demo-catalog';
import { FieldError, type Resolver } from './execute';
import { MAX_PAGE_SIZE } from './validate';
import type { GraphqlContext, GraphqlResult } from './graphql';

/**
 * The Admin GraphQL `products` and `nodes` root fields of the Shopify double,
 * with Shopify's shapes: connections of edges/node/cursor with pageInfo,
 * `first|last` with `after|before`, the search syntax's common part, a
 * calculated cost in `extensions.cost` on every reply, and test controls for
 * throttled replies and failures.
 *
 * A pure module: no HTTP. The double's GraphQL dispatcher calls a handler by
 * the operation's root field (see `register` in double.ts) with its
 * arguments, shapes the answer to the selection, computes its cost and
 * charges the shop's bucket (graphql.ts). A product carries every field of
 * the schema; its `variants` connection is a function of its own arguments.
 */

export interface GraphqlError {
  message: string;
  extensions?: Record<string, unknown>;
}

/** What the products handlers answer: a GraphqlResult with Shopify's shapes spelled out. */
export interface ProductsReply extends GraphqlResult {
  data?: Record<string, unknown>;
  errors?: GraphqlError[];
  extensions?: Record<string, unknown>;
}

type ProductsContext = Pick<GraphqlContext, 'shop' | 'args' | 'cost'>;
type ProductsHandler = (variables: Record<string, unknown>, ctx: ProductsContext) => ProductsReply;
type Field = 'products' | 'nodes' | 'product';

const MAX_AVAILABLE = 2000;
const RESTORE_RATE = 100;
/** Requested cost reported by throttled replies of direct handler calls (no dispatcher). */
const UNKNOWN_COST = 50;

export const PRODUCT_GID = 'gid://shopify/Product/';
/** When the demo catalog's products were last changed, unless a test changed one since. */
export const CATALOG_CREATED_AT = '2026-01-01T00:00:00Z';
export const VARIANT_GID = 'gid://shopify/ProductVariant/';

export interface ThrottleOptions {
  /** Points left in the bucket in the throttled replies (default 0). */
  currentlyAvailable?: number;
  /** Points restored a second (default 100, a standard store's). */
  restoreRate?: number;
}

export interface RecordedCall {
  shop: string;
  field: Field;
  /** The request's variables. */
  variables: Record<string, unknown>;
  /** The requested cost the dispatcher computed for the whole query (undefined in direct calls). */
  cost: number | undefined;
  outcome: 'ok' | 'throttled' | 'failed' | 'error';
}

export class ProductsDouble {
  private readonly catalogs = new Map<string, readonly DoubleProduct[]>();
  private throttleLeft = 0;
  private throttle: Required<ThrottleOptions> = {
    currentlyAvailable: 0,
    restoreRate: RESTORE_RATE,
  };
  private failLeft = 0;
  private stallMs = 0;
  /** Every request answered, in order: tests count attempts with it. */
  readonly calls: RecordedCall[] = [];

  /** By root field name: what the dispatcher registers. */
  readonly handlers: Record<Field, ProductsHandler> = {
    products: (variables, ctx) => this.answer('products', variables, ctx, productsQuery),
    nodes: (variables, ctx) => this.answer('nodes', variables, ctx, nodesQuery),
    product: (variables, ctx) => this.answer('product', variables, ctx, productQuery),
  };

  constructor(private readonly defaultCatalog: readonly DoubleProduct[] = DEMO_CATALOG) {}

  /** Gives one shop its own catalog (every other shop has the demo catalog). */
  setProducts(shop: string, products: readonly DoubleProduct[]): void {
    this.catalogs.set(shop, products);
  }

  /** The next `count` replies are Shopify's throttled answer (HTTP 200, THROTTLED). */
  throttleNext(count = 1, options: ThrottleOptions = {}): void {
    this.throttleLeft = count;
    this.throttle = {
      currentlyAvailable: options.currentlyAvailable ?? 0,
      restoreRate: options.restoreRate ?? RESTORE_RATE,
    };
  }

  /**
   * Registered with the dispatcher: the handler's reply, after the stall a
   * test asked for with `stallNext` (a Shopify that does not answer in time).
   */
  async respond(
    field: Field,
    variables: Record<string, unknown>,
    ctx: ProductsContext,
  ): Promise<ProductsReply> {
    const stall = this.stallMs;
    this.stallMs = 0;
    // unref: a stalled reply never keeps a test process alive.
    if (stall > 0) await new Promise((resolve) => setTimeout(resolve, stall).unref());
    return this.handlers[field](variables, ctx);
  }

  /** The next reply through `respond` comes only after `ms`. */
  stallNext(ms: number): void {
    this.stallMs = ms;
  }

  /** The next `count` replies are HTTP 500. */
  failNext(count = 1): void {
    this.failLeft = count;
  }

  reset(): void {
    this.catalogs.clear();
    this.throttleLeft = 0;
    this.failLeft = 0;
    this.stallMs = 0;
    this.calls.length = 0;
  }

  /**
   * Changes one product of the shop's catalog as a merchant would in the admin
   * (its type, tags, vendor), with Shopify's new updatedAt; undefined when the
   * shop has no such product. The webhook is the caller's to send
   * (`productWebhookPayload`).
   */
  changeProduct(
    shop: string,
    id: number,
    change: Partial<Pick<DoubleProduct, 'productType' | 'tags' | 'vendor'>>,
    now = new Date(),
  ): DoubleProduct | undefined {
    const catalog = this.catalogOf(shop);
    const at = catalog.findIndex((p) => p.id === id);
    if (at < 0) return undefined;
    const changed = { ...catalog[at]!, ...change, updatedAt: now.toISOString() };
    this.catalogs.set(
      shop,
      catalog.map((p, i) => (i === at ? changed : p)),
    );
    return changed;
  }

  /** Removes one product from the shop's catalog (a merchant's delete). */
  deleteProduct(shop: string, id: number): void {
    this.catalogs.set(
      shop,
      this.catalogOf(shop).filter((p) => p.id !== id),
    );
  }

  catalogOf(shop: string): readonly DoubleProduct[] {
    return this.catalogs.get(shop) ?? this.defaultCatalog;
  }

  private answer(
    field: Field,
    variables: Record<string, unknown>,
    ctx: ProductsContext,
    run: (catalog: readonly DoubleProduct[], args: Record<string, unknown>) => Answer,
  ): ProductsReply {
    const record = (outcome: RecordedCall['outcome']) =>
      this.calls.push({ shop: ctx.shop, field, variables, cost: ctx.cost, outcome });
    if (this.failLeft > 0) {
      this.failLeft--;
      record('failed');
      return {
        status: 500,
        errors: [{ message: 'Internal error. Looks like something went wrong on our end.' }],
      };
    }
    // Through the dispatcher: the field's arguments (literals too); called directly: the variables.
    const result = run(this.catalogOf(ctx.shop), ctx.args ?? variables);
    if (this.throttleLeft > 0) {
      this.throttleLeft--;
      record('throttled');
      return {
        errors: [
          {
            message: 'Throttled',
            extensions: {
              code: 'THROTTLED',
              documentation: 'https://shopify.dev/api/usage/rate-limits',
            },
          },
        ],
        extensions: {
          cost: {
            requestedQueryCost: ctx.cost ?? UNKNOWN_COST,
            actualQueryCost: null,
            throttleStatus: {
              maximumAvailable: MAX_AVAILABLE,
              currentlyAvailable: this.throttle.currentlyAvailable,
              restoreRate: this.throttle.restoreRate,
            },
          },
        },
      };
    }
    if ('errors' in result) {
      record('error');
      return { errors: result.errors };
    }
    record('ok');
    // The dispatcher adds `extensions.cost` from the selection and the shop's bucket.
    return { data: result.data };
  }
}

type Answer = { data: Record<string, unknown> } | { errors: GraphqlError[] };

function userError(message: string): Answer {
  return { errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] };
}

// ---- products(first|last, after|before, query) ---------------------------------

function productsQuery(
  catalog: readonly DoubleProduct[],
  variables: Record<string, unknown>,
): Answer {
  const { first, last, after, before, query } = variables;
  for (const [name, value] of Object.entries({ first, last })) {
    if (value !== undefined && value !== null && !Number.isInteger(value)) {
      return userError(`Variable $${name} of type Int was provided invalid value`);
    }
  }
  for (const [name, value] of Object.entries({ after, before, query })) {
    if (value !== undefined && value !== null && typeof value !== 'string') {
      return userError(`Variable $${name} of type String was provided invalid value`);
    }
  }
  const firstN = first as number | null | undefined;
  const lastN = last as number | null | undefined;
  const hasFirst = typeof firstN === 'number';
  const hasLast = typeof lastN === 'number';
  if (hasFirst === hasLast) return userError('you must provide one of first or last');
  const size = (hasFirst ? firstN : lastN) as number;
  if (size < 0 || size > MAX_PAGE_SIZE) {
    return userError(`The maximum page size is ${MAX_PAGE_SIZE}.`);
  }
  let matches: DoubleProduct[];
  try {
    const predicate = searchPredicate(typeof query === 'string' ? query : '');
    matches = [...catalog].sort((a, b) => a.id - b.id).filter(predicate);
  } catch (err) {
    return userError((err as Error).message);
  }

  // The window between the cursors, then the first or last `size` of it.
  const between = cursorWindow(matches, after, before);
  if (!between) return userError(INVALID_CURSOR);
  const { from, to } = between;
  let start = hasFirst ? from : Math.max(from, to - size);
  let end = hasFirst ? Math.min(to, from + size) : to;
  // Crossed cursors leave an empty window.
  if (end < start) {
    if (hasFirst) end = start;
    else start = end;
  }
  const page = matches.slice(start, end);
  const edges = page.map((product) => ({
    cursor: encodeCursor(product.id),
    node: productNode(product),
  }));
  return { data: { products: connectionPage(edges, start, end, matches.length) } };
}

/** Opaque to the app, as Shopify's are: base64 of the last id seen. */
export function encodeCursor(id: number): string {
  return Buffer.from(JSON.stringify({ last_id: id, last_value: String(id) })).toString('base64');
}

/** Items [start, end) of `total`, as their edges, in Shopify's connection shape. */
function connectionPage<N>(
  edges: { cursor: string; node: N }[],
  start: number,
  end: number,
  total: number,
) {
  return {
    edges,
    nodes: edges.map((e) => e.node),
    pageInfo: {
      hasNextPage: end < total,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

const INVALID_CURSOR = 'Invalid cursor for current pagination sort.';

/**
 * The part of `items` (sorted by id) between the `after` and `before` cursors,
 * as indexes [from, to); undefined when a cursor given is not one the double wrote.
 */
function cursorWindow(
  items: readonly { id: number }[],
  after: unknown,
  before: unknown,
): { from: number; to: number } | undefined {
  let from = 0;
  let to = items.length;
  for (const [cursor, side] of [
    [after, 'after'],
    [before, 'before'],
  ] as const) {
    if (typeof cursor !== 'string' || cursor === '') continue;
    const id = decodeCursor(cursor);
    if (id === undefined) return undefined;
    if (side === 'after') from = Math.max(from, items.filter((item) => item.id <= id).length);
    else to = Math.min(to, items.filter((item) => item.id < id).length);
  }
  return { from, to };
}

function decodeCursor(cursor: string): number | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as {
      last_id?: unknown;
    };
    return Number.isSafeInteger(parsed.last_id) ? (parsed.last_id as number) : undefined;
  } catch {
    return undefined;
  }
}

/** Every field of the schema's Product; `variants` answers its own first|last, after|before. */
export function productNode(product: DoubleProduct) {
  const image = product.image ? { url: product.image.url, altText: product.image.altText } : null;
  return {
    __typename: 'Product',
    id: `${PRODUCT_GID}${product.id}`,
    legacyResourceId: String(product.id),
    title: product.title,
    handle: product.handle,
    vendor: product.vendor,
    productType: product.productType ?? '',
    tags: product.tags ?? [],
    updatedAt: product.updatedAt ?? CATALOG_CREATED_AT,
    status: 'ACTIVE',
    featuredMedia: image
      ? {
          __typename: 'MediaImage',
          id: `gid://shopify/MediaImage/${product.id}`,
          alt: image.altText,
          mediaContentType: 'IMAGE',
          image,
          preview: { image, status: 'READY' },
        }
      : null,
    variantsCount: { count: product.variants.length, precision: 'EXACT' },
    variants: ((args) => variantConnection(product, args)) satisfies Resolver,
  };
}

/** A page of a product's variants, in Shopify's connection shape; cursors hold the variant id. */
export function variantConnection(product: DoubleProduct, args: Record<string, unknown>) {
  const { first, last, after, before } = args;
  const hasFirst = typeof first === 'number';
  if (hasFirst === (typeof last === 'number'))
    throw new FieldError('you must provide one of first or last');
  const size = (hasFirst ? first : last) as number;
  if (size < 0 || size > MAX_PAGE_SIZE)
    throw new FieldError(`The maximum page size is ${MAX_PAGE_SIZE}.`);
  const variants = [...product.variants].sort((x, y) => x.id - y.id);
  const between = cursorWindow(variants, after, before);
  if (!between) throw new FieldError(INVALID_CURSOR);
  const { from, to } = between;
  const start = hasFirst ? from : Math.max(from, to - size);
  const end = Math.max(start, hasFirst ? Math.min(to, from + size) : to);
  const edges = variants.slice(start, end).map((v) => ({
    cursor: encodeCursor(v.id),
    node: {
      __typename: 'ProductVariant',
      id: `${VARIANT_GID}${v.id}`,
      title: v.title,
      price: v.price,
      // Shopify keeps a variant's weight on its inventory item; the double answers it in grams.
      inventoryItem: {
        id: `gid://shopify/InventoryItem/${v.id}`,
        measurement: {
          id: `gid://shopify/InventoryItemMeasurement/${v.id}`,
          weight: { value: v.grams ?? 0, unit: 'GRAMS' },
        },
      },
    },
  }));
  return connectionPage(edges, start, end, variants.length);
}

// ---- nodes(ids:) ---------------------------------------------------------------

function nodesQuery(catalog: readonly DoubleProduct[], variables: Record<string, unknown>): Answer {
  const ids = variables.ids;
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
    return userError('Variable $ids of type [ID!]! was provided invalid value');
  }
  if (ids.length > MAX_PAGE_SIZE) {
    return userError(`The maximum number of ids is ${MAX_PAGE_SIZE}.`);
  }
  const malformed = (ids as string[]).find((id) => !/^gid:\/\/shopify\/[A-Za-z]+\/\d+$/.test(id));
  if (malformed !== undefined) return userError(`Invalid global id '${malformed}'`);
  const byId = new Map(catalog.map((p) => [`${PRODUCT_GID}${p.id}`, p]));
  // An id of another shop, or of no product, is simply null: Shopify does the same.
  const nodes = (ids as string[]).map((id) => {
    const product = byId.get(id);
    return product ? productNode(product) : null;
  });
  return { data: { nodes } };
}

// ---- product(id:) --------------------------------------------------------------

function productQuery(catalog: readonly DoubleProduct[], args: Record<string, unknown>): Answer {
  const id = args.id;
  if (typeof id !== 'string')
    return userError('Variable $id of type ID! was provided invalid value');
  if (!/^gid:\/\/shopify\/[A-Za-z]+\/\d+$/.test(id)) return userError(`Invalid global id '${id}'`);
  const product = catalog.find((p) => `${PRODUCT_GID}${p.id}` === id);
  return { data: { product: product ? productNode(product) : null } };
}

// ---- search syntax ---------------------------------------------------------------

interface Term {
  negated: boolean;
  field: string | undefined;
  words: string[];
  prefix: boolean;
}

const SEARCH_FIELDS: Record<string, (p: DoubleProduct) => string> = {
  title: (p) => p.title,
  handle: (p) => p.handle,
  vendor: (p) => p.vendor,
  id: (p) => String(p.id),
};

/**
 * The common part of Shopify's search syntax: free-text terms (matched as
 * whole words of the title or vendor, case-insensitive), `field:value`, a
 * trailing `*` for a prefix, "quoted phrases", backslash escapes, `-` or `NOT`
 * to negate, implicit AND, and OR between terms.
 */
export function searchPredicate(query: string): (product: DoubleProduct) => boolean {
  const alternatives: Term[][] = [[]];
  let negateNext = false;
  for (const token of tokenize(query)) {
    if (!token.quoted && token.text === 'OR') {
      alternatives.push([]);
      continue;
    }
    if (!token.quoted && token.text === 'AND') continue;
    if (!token.quoted && token.text === 'NOT') {
      negateNext = true;
      continue;
    }
    const term = parseTerm(token);
    if (negateNext) term.negated = !term.negated;
    negateNext = false;
    if (term.words.length) alternatives.at(-1)!.push(term);
  }
  const groups = alternatives.filter((g) => g.length);
  if (!groups.length) return () => true;
  return (product) => groups.some((terms) => terms.every((term) => termMatches(term, product)));
}

interface Token {
  text: string;
  quoted: boolean;
  /** Whether the trailing `*` was written unescaped. */
  star: boolean;
  /** Index in `text` of the first unescaped `:` (a `field:value` term), or -1. */
  colon: number;
}

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let text = '';
  let quoted = false;
  let inQuotes = false;
  let star = false;
  let started = false;
  let colon = -1;
  const flush = () => {
    if (started) tokens.push({ text, quoted, star, colon });
    text = '';
    quoted = false;
    star = false;
    started = false;
    colon = -1;
  };
  for (let i = 0; i < query.length; i++) {
    const ch = query[i]!;
    if (ch === '\\' && i + 1 < query.length) {
      text += query[++i];
      star = false;
      started = true;
    } else if (ch === '"') {
      inQuotes = !inQuotes;
      quoted = true;
      started = true;
    } else if (/\s/.test(ch) && !inQuotes) {
      flush();
    } else {
      if (ch === ':' && colon < 0 && !inQuotes) colon = text.length;
      text += ch;
      star = ch === '*';
      started = true;
    }
  }
  if (inQuotes) throw new Error('Unterminated quote in the search query.');
  flush();
  return tokens;
}

function parseTerm(token: Token): Term {
  let text = token.text;
  let negated = false;
  if (!token.quoted && text.startsWith('-')) {
    negated = true;
    text = text.slice(1);
  }
  let field: string | undefined;
  const colon = token.colon - (negated ? 1 : 0);
  if (colon > 0 && SEARCH_FIELDS[text.slice(0, colon).toLowerCase()]) {
    field = text.slice(0, colon).toLowerCase();
    text = text.slice(colon + 1);
  }
  const prefix = token.star && text.endsWith('*');
  if (prefix) text = text.slice(0, -1);
  return { negated, field, words: wordsOf(text), prefix };
}

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function termMatches(term: Term, product: DoubleProduct): boolean {
  const texts = term.field
    ? [SEARCH_FIELDS[term.field]!(product)]
    : [product.title, product.vendor];
  const found = texts.some((text) => containsRun(wordsOf(text), term.words, term.prefix));
  return term.negated ? !found : found;
}

/** Whether `words` holds `wanted` in a row; with `prefix`, the last one may be a prefix. */
function containsRun(words: string[], wanted: string[], prefix: boolean): boolean {
  for (let i = 0; i + wanted.length <= words.length; i++) {
    const ok = wanted.every((w, k) => {
      const word = words[i + k]!;
      return prefix && k === wanted.length - 1 ? word.startsWith(w) : word === w;
    });
    if (ok) return true;
  }
  return false;
}

/**
 * A product webhook's body as the app's subscription asks for it
 * (shopify.app.toml: `include_fields = ["id", "updated_at"]`); a delete
 * carries only the id, as Shopify's does.
 */
export function productWebhookPayload(
  product: Pick<DoubleProduct, 'id' | 'updatedAt'>,
  deleted = false,
) {
  return deleted
    ? { id: product.id }
    : { id: product.id, updated_at: product.updatedAt ?? CATALOG_CREATED_AT };
}

/** Which of a product's texts a `productVendors` / `productTypes` / `productTags` root lists. */
export const PRODUCT_TEXT_FIELDS = {
  productVendors: (p: DoubleProduct) => [p.vendor],
  productTypes: (p: DoubleProduct) => [p.productType ?? ''],
  productTags: (p: DoubleProduct) => p.tags ?? [],
} as const;

/**
 * A page of the shop's distinct vendors, types or tags (Shopify's
 * StringConnection, sorted, empty ones left out), with first|last and
 * after|before; a cursor is the value's place in the list.
 */
export function productTextPage(
  catalog: readonly DoubleProduct[],
  field: keyof typeof PRODUCT_TEXT_FIELDS,
  args: Record<string, unknown>,
) {
  const values = [...new Set(catalog.flatMap(PRODUCT_TEXT_FIELDS[field]))]
    .filter((v) => v !== '')
    .sort((a, b) => a.localeCompare(b));
  const { first, last, after, before } = args;
  if ((typeof first === 'number') === (typeof last === 'number'))
    throw new FieldError('you must provide one of first or last');
  const size = (typeof first === 'number' ? first : last) as number;
  if (size < 0 || size > MAX_PAGE_SIZE)
    throw new FieldError(`The maximum page size is ${MAX_PAGE_SIZE}.`);
  const at = (cursor: unknown) =>
    typeof cursor === 'string' ? Number(Buffer.from(cursor, 'base64').toString()) : NaN;
  let start = typeof after === 'string' ? at(after) + 1 : 0;
  let end = typeof before === 'string' ? at(before) : values.length;
  if (Number.isNaN(start) || Number.isNaN(end)) throw new FieldError('Invalid cursor');
  if (typeof first === 'number') end = Math.min(end, start + size);
  else start = Math.max(start, end - size);
  const cursorOf = (i: number) => Buffer.from(String(i)).toString('base64');
  const edges = values.slice(start, end).map((node, i) => ({ node, cursor: cursorOf(start + i) }));
  return connectionPage(edges, start, end, values.length);
}
