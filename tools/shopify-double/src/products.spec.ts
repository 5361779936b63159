import { DEMO_CATALOG, type DoubleProduct } from './demo-catalog';
import { GraphqlDispatcher } from './graphql';
import {
  encodeCursor,
  ProductsDouble,
  searchPredicate,
  variantConnection,
  type ProductsReply,
} from './products';

const SHOP = 'demo.myshopify.com';
const OTHER = 'other.myshopify.com';

interface Page {
  edges: { cursor: string; node: { id: string; title: string; variants: any; images: any } }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

function pageOf(reply: ProductsReply): Page {
  expect(reply.errors).toBeUndefined();
  return (reply.data as { products: Page }).products;
}

const titles = (page: Page) => page.edges.map((e) => e.node.title);

describe('the demo catalog', () => {
  it('has at least 40 products with variants, unique ids, some free, images only as data: URIs', () => {
    expect(DEMO_CATALOG.length).toBeGreaterThanOrEqual(40);
    expect(new Set(DEMO_CATALOG.map((p) => p.id)).size).toBe(DEMO_CATALOG.length);
    const variantIds = DEMO_CATALOG.flatMap((p) => p.variants.map((v) => v.id));
    expect(new Set(variantIds).size).toBe(variantIds.length);
    for (const product of DEMO_CATALOG) {
      expect(product.variants.length).toBeGreaterThan(0);
      for (const v of product.variants) expect(v.price).toMatch(/^\d+\.\d{2}$/);
      if (product.image) {
        expect(product.image.url).toMatch(/^data:image\/svg\+xml;base64,/);
        // Small enough to be stored as a product rule's image.
        expect(product.image.url.length).toBeLessThan(2048);
      }
    }
    expect(DEMO_CATALOG.filter((p) => p.image).length).toBeGreaterThan(40);
    const free = DEMO_CATALOG.filter((p) => p.variants.some((v) => v.price === '0.00'));
    expect(free.length).toBeGreaterThanOrEqual(5);
    expect(JSON.stringify(DEMO_CATALOG)).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
  });

  it('gives every variant a realistic weight, larger sizes heavier', () => {
    for (const product of DEMO_CATALOG) {
      for (const v of product.variants) {
        expect(Number.isInteger(v.grams)).toBe(true);
        expect(v.grams).toBeGreaterThanOrEqual(10);
        expect(v.grams).toBeLessThanOrEqual(2500);
      }
      const grams = product.variants.map((v) => v.grams ?? 0);
      expect(grams).toEqual([...grams].sort((a, b) => a - b));
    }
    // Not one weight for everything: light stickers, heavy mats.
    expect(new Set(DEMO_CATALOG.map((p) => p.variants[0]!.grams)).size).toBeGreaterThan(30);
    expect(
      Math.min(...DEMO_CATALOG.flatMap((p) => p.variants.map((v) => v.grams ?? 0))),
    ).toBeGreaterThan(0);
  });
});

describe('products(first|last, after|before)', () => {
  const double = new ProductsDouble();
  const products = (variables: Record<string, unknown>, shop = SHOP) =>
    double.handlers.products(variables, { shop });

  it('pages forward 15 at a time: first, middle and last page', () => {
    const first = pageOf(products({ first: 15 }));
    expect(first.edges).toHaveLength(15);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(first.pageInfo.startCursor).toBe(first.edges[0]!.cursor);
    expect(first.pageInfo.endCursor).toBe(first.edges[14]!.cursor);

    const middle = pageOf(products({ first: 15, after: first.pageInfo.endCursor }));
    expect(middle.edges).toHaveLength(15);
    expect(middle.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });

    const last = pageOf(products({ first: 15, after: middle.pageInfo.endCursor }));
    expect(last.edges).toHaveLength(DEMO_CATALOG.length - 30);
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    const all = [...titles(first), ...titles(middle), ...titles(last)];
    expect(all).toEqual(DEMO_CATALOG.map((p) => p.title));
  });

  it('pages backward with last and before', () => {
    const first = pageOf(products({ first: 15 }));
    const middle = pageOf(products({ first: 15, after: first.pageInfo.endCursor }));
    const back = pageOf(products({ last: 15, before: middle.pageInfo.startCursor }));
    expect(titles(back)).toEqual(titles(first));
    expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const tail = pageOf(products({ last: 5 }));
    expect(titles(tail)).toEqual(DEMO_CATALOG.slice(-5).map((p) => p.title));
    expect(tail.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it("answers nodes in Shopify's shapes: gid ids, first image, variants with decimal prices", () => {
    const node = pageOf(products({ first: 1 })).edges[0]!.node;
    const product = DEMO_CATALOG[0]!;
    expect(node).toMatchObject({
      id: `gid://shopify/Product/${product.id}`,
      title: product.title,
      featuredMedia: { preview: { image: { url: product.image!.url } } },
    });
    // `images` is deprecated: not in the schema, so not on the node either.
    expect(node).not.toHaveProperty('images');
    expect(node.variants({ first: 10 })).toMatchObject({
      edges: product.variants.map((v) => ({
        node: {
          id: `gid://shopify/ProductVariant/${v.id}`,
          title: v.title,
          price: v.price,
          inventoryItem: { measurement: { weight: { value: v.grams, unit: 'GRAMS' } } },
        },
      })),
      pageInfo: { hasNextPage: false },
    });
  });

  it('refuses pagination arguments Shopify refuses', () => {
    const message = (reply: ProductsReply) => reply.errors?.[0]?.message;
    expect(message(products({}))).toBe('you must provide one of first or last');
    expect(message(products({ first: 1, last: 1 }))).toBe('you must provide one of first or last');
    expect(message(products({ first: 251 }))).toBe('The maximum page size is 250.');
    expect(message(products({ first: '15' }))).toMatch(/\$first/);
    expect(message(products({ first: 15, after: 'not a cursor' }))).toMatch(/Invalid cursor/);
    expect(products({}).data).toBeUndefined();
  });

  it("reports the computed cost on every reply and charges the shop's bucket", async () => {
    // A clock that stands still: no point comes back between the charge and the reply.
    const graphql = new GraphqlDispatcher(undefined, () => 1_000_000);
    const double = new ProductsDouble();
    graphql.register('products', (v, ctx) => double.respond('products', v, ctx));
    const query =
      'query Q($first: Int) { products(first: $first) { nodes { id variants(first: 40) { nodes { id } } } } }';
    const reply = await graphql.dispatch(SHOP, { query, variables: { first: 15 } });
    const page = DEMO_CATALOG.slice(0, 15);
    // Actual: the 15 products returned, each with its real number of variants.
    const actual = 2 + page.reduce((sum, p) => sum + 1 + 2 + p.variants.length, 0);
    expect((reply.body as any).extensions.cost).toEqual({
      requestedQueryCost: 2 + 15 * (1 + 2 + 40),
      actualQueryCost: actual,
      throttleStatus: {
        maximumAvailable: 2000,
        currentlyAvailable: 2000 - actual,
        restoreRate: 100,
      },
    });
    expect(double.calls[0]).toMatchObject({ field: 'products', cost: 647, outcome: 'ok' });
    // Too few points left for the requested cost: THROTTLED, nothing runs.
    graphql.bucket.setAvailable(SHOP, 600);
    const throttled = await graphql.dispatch(SHOP, { query, variables: { first: 15 } });
    expect(throttled.body).toMatchObject({
      errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }],
      extensions: { cost: { requestedQueryCost: 647, actualQueryCost: null } },
    });
    expect(throttled.body).not.toHaveProperty('data');
    expect(double.calls).toHaveLength(1);
  });
});

describe("a product's variants(first|last, after|before)", () => {
  const big: DoubleProduct = {
    id: 7,
    title: 'Many',
    handle: 'many',
    vendor: 'V',
    image: null,
    variants: Array.from({ length: 2048 }, (_, i) => ({
      id: 1000 + i,
      title: `V${i}`,
      price: '1.00',
    })),
  };

  it('pages 2,048 variants 250 at a time with their own cursors', () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = variantConnection(big, { first: 250, after });
      seen.push(...page.nodes.map((n) => n.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor!;
    }
    expect(seen).toHaveLength(2048);
    expect(new Set(seen).size).toBe(2048);
    expect(variantConnection(big, { last: 2 }).nodes.map((n) => n.title)).toEqual([
      'V2046',
      'V2047',
    ]);
    expect(() => variantConnection(big, { first: 251 })).toThrow('The maximum page size is 250.');
    expect(() => variantConnection(big, {})).toThrow('you must provide one of first or last');
  });
});

describe('search (query)', () => {
  const double = new ProductsDouble();
  const search = (query: string, extra: Record<string, unknown> = {}) =>
    titles(pageOf(double.handlers.products({ first: 15, query, ...extra }, { shop: SHOP })));

  it('matches whole words of the title or vendor, case-insensitive', () => {
    expect(search('mug')).toEqual(['Ceramic Coffee Mug', 'Enamel Camping Mug']);
    expect(search('MUG coffee')).toEqual(['Ceramic Coffee Mug']);
    expect(search('kiln')).toEqual([
      'Ceramic Coffee Mug',
      'Enamel Camping Mug',
      'Stoneware Teapot',
    ]);
    expect(search('mu')).toEqual([]);
  });

  it('supports prefixes, fields, phrases, negation, OR and escapes', () => {
    expect(search('mu*')).toEqual(['Ceramic Coffee Mug', 'Enamel Camping Mug']);
    expect(search('title:tea*')).toEqual(['Stoneware Teapot']);
    expect(search('"coffee mug"')).toEqual(['Ceramic Coffee Mug']);
    expect(search('"mug coffee"')).toEqual([]);
    expect(search('mug -camping')).toEqual(['Ceramic Coffee Mug']);
    expect(search('mug NOT ceramic')).toEqual(['Enamel Camping Mug']);
    expect(search('teapot OR wallet')).toEqual(['Leather Wallet', 'Stoneware Teapot']);
    expect(search('usb\\-c')).toEqual(['USB-C Cable']);
    expect(search('title\\:mug')).toEqual([]);
    expect(search('-title:mug')).toHaveLength(15);
    expect(search('mug\\*')).toEqual(['Ceramic Coffee Mug', 'Enamel Camping Mug']);
    expect(search('')).toHaveLength(15);
  });

  it('pages within the results and answers an empty page for no match', () => {
    const free = double.handlers.products({ first: 3, query: 'free' }, { shop: SHOP });
    const page = pageOf(free);
    expect(page.pageInfo.hasNextPage).toBe(false);
    expect(titles(page)).toEqual(['Free Sticker Pack', 'Free Catalog']);
    const none = pageOf(double.handlers.products({ first: 15, query: 'zebra' }, { shop: SHOP }));
    expect(none).toEqual({
      edges: [],
      nodes: [],
      pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
    });
  });

  it('rejects an unterminated quote', () => {
    const reply = double.handlers.products({ first: 15, query: '"mug' }, { shop: SHOP });
    expect(reply.errors?.[0]?.message).toBe('Unterminated quote in the search query.');
  });

  it('is usable on its own as a predicate', () => {
    expect(
      DEMO_CATALOG.filter(searchPredicate('vendor:stride sample')).map((p) => p.title),
    ).toEqual(['Sample Energy Bar']);
  });
});

describe('nodes(ids:)', () => {
  const double = new ProductsDouble();
  const own: DoubleProduct = {
    id: 42,
    title: 'Only for the other shop',
    handle: 'other',
    vendor: 'Other',
    image: null,
    variants: [{ id: 420, title: 'Default Title', price: '1.00' }],
  };
  double.setProducts(OTHER, [own]);

  it("answers the shop's products and null for unknown or foreign ids", () => {
    const known = `gid://shopify/Product/${DEMO_CATALOG[2]!.id}`;
    const reply = double.handlers.nodes(
      { ids: [known, 'gid://shopify/Product/42', 'gid://shopify/Order/1'] },
      { shop: SHOP },
    );
    const nodes = (reply.data as { nodes: ({ title: string } | null)[] }).nodes;
    expect(nodes.map((n) => n?.title ?? null)).toEqual([DEMO_CATALOG[2]!.title, null, null]);

    const theirs = double.handlers.nodes(
      { ids: ['gid://shopify/Product/42', known] },
      { shop: OTHER },
    );
    expect((theirs.data as { nodes: unknown[] }).nodes).toEqual([
      expect.objectContaining({ title: own.title, featuredMedia: null }),
      null,
    ]);
  });

  it('keeps each shop to its own catalog in products too', () => {
    const page = pageOf(double.handlers.products({ first: 15 }, { shop: OTHER }));
    expect(titles(page)).toEqual([own.title]);
  });

  it('refuses malformed ids and bad variables', () => {
    expect(double.handlers.nodes({ ids: ['123'] }, { shop: SHOP }).errors?.[0]?.message).toBe(
      "Invalid global id '123'",
    );
    expect(double.handlers.nodes({ ids: 'x' }, { shop: SHOP }).errors).toHaveLength(1);
  });
});

describe('test controls', () => {
  it('throttles the next N replies as Shopify does, then answers again', () => {
    const double = new ProductsDouble();
    double.throttleNext(2, { currentlyAvailable: 10, restoreRate: 50 });
    for (let i = 0; i < 2; i++) {
      const reply = double.handlers.products({ first: 15 }, { shop: SHOP });
      expect(reply.status).toBeUndefined();
      expect(reply.data).toBeUndefined();
      expect(reply.errors).toEqual([
        expect.objectContaining({
          message: 'Throttled',
          extensions: expect.objectContaining({ code: 'THROTTLED' }),
        }),
      ]);
      expect(reply.extensions?.cost).toEqual({
        // Called directly, without the dispatcher's computed cost.
        requestedQueryCost: 50,
        actualQueryCost: null,
        throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 10, restoreRate: 50 },
      });
    }
    expect(pageOf(double.handlers.products({ first: 15 }, { shop: SHOP })).edges).toHaveLength(15);
    expect(double.calls.map((c) => c.outcome)).toEqual(['throttled', 'throttled', 'ok']);
  });

  it('fails the next reply with HTTP 500', () => {
    const double = new ProductsDouble();
    double.failNext();
    const failed = double.handlers.nodes({ ids: [] }, { shop: SHOP });
    expect(failed.status).toBe(500);
    expect(failed.data).toBeUndefined();
    expect(double.handlers.nodes({ ids: [] }, { shop: SHOP })).toMatchObject({
      data: { nodes: [] },
    });
  });

  it('answers through respond after a requested stall, once', async () => {
    const double = new ProductsDouble();
    double.stallNext(150);
    const started = Date.now();
    const reply = await double.respond('products', { first: 1 }, { shop: SHOP });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(pageOf(reply).edges).toHaveLength(1);
    const again = Date.now();
    await double.respond('nodes', { ids: [] }, { shop: SHOP });
    expect(Date.now() - again).toBeLessThan(100);
  });

  it('reset clears controls, catalogs and the call log', () => {
    const double = new ProductsDouble();
    double.setProducts(SHOP, []);
    double.throttleNext(5);
    double.failNext(5);
    double.reset();
    expect(pageOf(double.handlers.products({ first: 1 }, { shop: SHOP })).edges).toHaveLength(1);
    expect(double.calls).toHaveLength(1);
  });

  it('encodes cursors that the next query accepts', () => {
    const double = new ProductsDouble();
    const after = encodeCursor(DEMO_CATALOG[9]!.id);
    const page = pageOf(double.handlers.products({ first: 1, after }, { shop: SHOP }));
    expect(titles(page)).toEqual([DEMO_CATALOG[10]!.title]);
  });
});
