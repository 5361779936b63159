import { type Snapshot } from '@ratesmith/contracts';
import { DEMO_CATALOG, MAX_QUERY_COST, type DoubleProduct } from '@ratesmith/shopify-double';
import { MESSAGES } from '../../auth/src/shopify/admin-client';
import { SHOP_A, SHOP_B, SHOP_C, startStack, type Stack } from './harness';

/**
 * The product picker through the gateway: the catalog service reads the
 * store's products from the Shopify double through the auth service, which
 * runs its queries with the shop's offline token (a shop gets one on its
 * first /api call), and adds picked products as product rules.
 */

let stack: Stack;
beforeAll(async () => {
  // A short Shopify time limit so the "Shopify does not answer" case is quick (auth makes the calls).
  stack = await startStack({}, { SHOPIFY_TIMEOUT_MS: '1000', SHOPIFY_THROTTLE_RETRIES: '3' });
  stack.shopify.products.setProducts(SHOP_B, B_CATALOG);
  stack.shopify.products.setProducts(BIG_SHOP, BIG_CATALOG);
});
afterAll(() => stack?.stop());
beforeEach(() => {
  stack.shopify.products.throttleNext(0);
  stack.shopify.products.failNext(0);
  stack.shopify.products.calls.length = 0;
});

const gid = (id: number) => `gid://shopify/Product/${id}`;
const B_CATALOG: DoubleProduct[] = [
  {
    id: 990_001,
    title: 'B-only Lamp',
    handle: 'b-only-lamp',
    vendor: 'B',
    image: null,
    variants: [{ id: 990_101, title: 'Default Title', price: '30.00' }],
  },
];

/** A store whose first product has Shopify's most variants. */
const BIG_SHOP = 'big-variants.myshopify.com';
const BIG_CATALOG: DoubleProduct[] = [
  {
    id: 880_001,
    title: 'Every Size Poster',
    handle: 'every-size-poster',
    vendor: 'Big',
    image: null,
    variants: Array.from({ length: 2048 }, (_, i) => ({
      id: 8_800_000 + i,
      title: `Size ${i + 1}`,
      price: `${(i % 90) + 10}.00`,
    })),
  },
  {
    id: 880_002,
    title: 'Small Card',
    handle: 'small-card',
    vendor: 'Big',
    image: null,
    variants: [{ id: 8_900_001, title: 'Default Title', price: '2.00' }],
  },
];

/** The requested cost the double computed for every GraphQL operation of a shop since `from`. */
const costsSince = (from: number, shop: string) =>
  stack.shopify.graphql.operations
    .slice(from)
    .filter((op) => op.shop === shop)
    .map((op) => ({ fields: op.fields, cost: op.requestedQueryCost, refused: op.refused }));

const listPath = (params: Record<string, string> = {}) =>
  `/api/product-rules/shopify-products?${new URLSearchParams(params).toString()}`;
const list = (params: Record<string, string> = {}, token?: string) =>
  stack.api(listPath(params), { token });
/** Until no product call reached the Shopify double for 500 ms (at most 10 s). */
async function quietProductCalls(): Promise<void> {
  const deadline = Date.now() + 10_000;
  let seen = stack.shopify.products.calls.length;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    if (stack.shopify.products.calls.length === seen) return;
    seen = stack.shopify.products.calls.length;
  }
  throw new Error('product calls kept reaching the Shopify double for 10 s');
}

const add = (products: unknown, token?: string) =>
  stack.api('/api/product-rules/add-shopify-product', {
    method: 'POST',
    json: { products },
    token,
  });
const titles = (body: any): string[] => body.products.edges.map((e: any) => e.node.title);

async function snapshotOf(shop: string): Promise<Snapshot | undefined> {
  const entry = await stack.kv.get(shop);
  return entry && entry.length ? (entry.json() as Snapshot) : undefined;
}

describe('GET /api/product-rules/shopify-products', () => {
  it("answers the first page in Shopify's shape: 15 nodes with id, title, first image and variants", async () => {
    const { status, body } = await list({ shop: SHOP_A });
    expect(status).toBe(200);
    expect(body.status).toBe(true);
    expect(body.products.edges).toHaveLength(15);
    expect(body.products.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const first = DEMO_CATALOG[0]!;
    expect(body.products.edges[0]).toEqual({
      cursor: expect.any(String),
      node: {
        id: gid(first.id),
        title: first.title,
        images: { edges: [{ node: { url: first.image!.url, altText: first.title } }] },
        variants: {
          edges: first.variants.map((v) => ({
            node: { id: `gid://shopify/ProductVariant/${v.id}`, title: v.title, price: v.price },
          })),
        },
      },
    });
    // The query went to the shop's own store with the catalog's query.
    expect(stack.shopify.products.calls).toEqual([
      expect.objectContaining({ shop: SHOP_A, field: 'products', outcome: 'ok' }),
    ]);
    expect(stack.shopify.products.calls[0]!.variables).toEqual({ first: 15 });
  });

  it('pages forward to the middle and last page, and back', async () => {
    const page1 = (await list()).body.products;
    const page2 = (await list({ after: page1.pageInfo.endCursor })).body.products;
    expect(page2.edges).toHaveLength(15);
    expect(page2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const page3 = (await list({ after: page2.pageInfo.endCursor })).body.products;
    expect(page3.edges).toHaveLength(DEMO_CATALOG.length - 30);
    expect(page3.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const seen = [...titles({ products: page1 }), ...titles({ products: page2 })].concat(
      titles({ products: page3 }),
    );
    expect(seen).toEqual(DEMO_CATALOG.map((p) => p.title));

    const back = (await list({ before: page2.pageInfo.startCursor })).body.products;
    expect(titles({ products: back })).toEqual(titles({ products: page1 }));
    expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    // Images are never internet URLs: the demo runs offline.
    expect(JSON.stringify([page1, page2, page3])).not.toMatch(/"url":"https?:/);
  });

  it('searches, and a new search starts at page 1 even with an old cursor', async () => {
    const mugs = await list({ search: 'mug' });
    expect(titles(mugs.body)).toEqual(['Ceramic Coffee Mug', 'Enamel Camping Mug']);
    expect(mugs.body.products.pageInfo).toMatchObject({
      hasNextPage: false,
      hasPreviousPage: false,
    });
    // Prefix of the last word, several words, and typed syntax taken as text.
    expect(titles((await list({ search: 'cof' })).body)).toEqual(['Ceramic Coffee Mug']);
    expect(titles((await list({ search: 'camping MUG' })).body)).toEqual(['Enamel Camping Mug']);
    expect(titles((await list({ search: 'title:mug' })).body)).toEqual([]);
    expect(titles((await list({ search: 'usb-c' })).body)).toEqual(['USB-C Cable']);

    const unfiltered = (await list()).body.products;
    const reset = await list({ search: 'mug', after: unfiltered.pageInfo.endCursor });
    expect(titles(reset.body)).toEqual(['Ceramic Coffee Mug', 'Enamel Camping Mug']);
    expect(reset.body.products.pageInfo.hasPreviousPage).toBe(false);
    const sent = stack.shopify.products.calls.at(-1)!.variables;
    expect(sent).toEqual({ first: 15, query: 'mug*' });

    const none = await list({ search: 'zebra' });
    expect(none.body.products).toEqual({
      edges: [],
      pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
    });
  });

  it('refuses bad paging input with a clear message', async () => {
    const both = await list({ after: 'x', before: 'y' });
    expect(both.status).toBe(400);
    expect(both.body.status).toBe(false);
    expect(both.body.errors).toEqual(['Ask for the next or the previous page, not both.']);
    const garbage = await list({ after: 'not-a-cursor' });
    expect(garbage.status).toBe(400);
    expect(garbage.body).toEqual({
      status: false,
      message: 'That page is no longer available. Please search again.',
    });
    expect((await list({ search: 'x'.repeat(201) })).status).toBe(400);
    expect(stack.shopify.products.calls).toHaveLength(0);
  });

  it("keeps the page query under Shopify's cost limit, as the double computes it", async () => {
    const from = stack.shopify.graphql.operations.length;
    expect((await list()).status).toBe(200);
    // 2 + 15 × (product 1 + image 3 + variants 2 + 50 variants).
    expect(costsSince(from, SHOP_A)).toEqual([
      { fields: ['products'], cost: 842, refused: undefined },
    ]);
    expect(842).toBeLessThanOrEqual(MAX_QUERY_COST);
  });

  it('lists a product with 2,048 variants: its first 50, within the cost limit', async () => {
    const from = stack.shopify.graphql.operations.length;
    const { status, body } = await list({}, stack.token(BIG_SHOP));
    expect(status).toBe(200);
    const [big, small] = body.products.edges.map((e: any) => e.node);
    expect(big.variants.edges).toHaveLength(50);
    expect(big.variants.edges[49].node).toEqual({
      id: 'gid://shopify/ProductVariant/8800049',
      title: 'Size 50',
      price: '59.00',
    });
    expect(small.variants.edges).toHaveLength(1);
    const costs = costsSince(from, BIG_SHOP).filter((op) => op.fields[0] === 'products');
    expect(costs).toEqual([{ fields: ['products'], cost: 842, refused: undefined }]);
  });

  it('waits out throttled replies as the cost data says and then answers', async () => {
    // The page query asks for 842 points: 47 are missing.
    stack.shopify.products.throttleNext(2, { currentlyAvailable: 842 - 47, restoreRate: 470 });
    const started = Date.now();
    const { status, body } = await list();
    expect(status).toBe(200);
    expect(body.products.edges).toHaveLength(15);
    expect(stack.shopify.products.calls.map((c) => c.outcome)).toEqual([
      'throttled',
      'throttled',
      'ok',
    ]);
    // 47 points missing at 470 a second: about 100 ms (plus a margin) per wait.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * 100);
  });

  it('gives up after a bounded number of throttled retries with a clear message', async () => {
    stack.shopify.products.throttleNext(100, { currentlyAvailable: 0, restoreRate: 2000 });
    const { status, body, headers } = await list();
    expect(status).toBe(503);
    expect(body).toEqual({ status: false, message: MESSAGES.busy });
    expect(headers.get('retry-after')).toBe('5');
    expect(stack.shopify.products.calls).toHaveLength(4);
  });

  it('turns a Shopify failure into a message, and the next call works', async () => {
    stack.shopify.products.failNext();
    const failed = await list();
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({ status: false, message: MESSAGES.failed });
    expect((await list()).status).toBe(200);
  });

  it('answers within the time limit when Shopify does not answer', async () => {
    stack.shopify.products.stallNext(5000);
    const started = Date.now();
    const { status, body } = await list();
    expect(status).toBe(503);
    expect(body).toEqual({ status: false, message: MESSAGES.timeout });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('says how to reconnect a shop whose token Shopify refuses', async () => {
    // The first call installs the shop (token exchange); then Shopify stops accepting its token.
    expect((await list({}, stack.token(SHOP_C))).status).toBe(200);
    stack.shopify.oauth.revoke(SHOP_C);
    const refused = await list({}, stack.token(SHOP_C));
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ status: false, message: MESSAGES.denied });
  });

  it('needs a session token, and never lists for a shop other than the token', async () => {
    expect((await list({}, '')).status).toBe(401);
    expect((await list({ shop: SHOP_B })).status).toBe(403);
    const asB = await list({}, stack.token(SHOP_B));
    expect(titles(asB.body)).toEqual(['B-only Lamp']);
    expect(stack.shopify.products.calls.map((c) => c.shop)).toEqual([SHOP_B]);
  });
});

describe('GET /api/product-rules/shopify-products/{id}/variants', () => {
  const variantsOf = (id: number | string, token?: string) =>
    stack.api(`/api/product-rules/shopify-products/${id}/variants`, { token });

  it("answers a product's variants with their weights, in one query within the cost limit", async () => {
    const product = DEMO_CATALOG[1]!;
    const from = stack.shopify.graphql.operations.length;
    const { status, body } = await variantsOf(product.id);
    expect(status).toBe(200);
    expect(body).toEqual({
      status: true,
      variants: product.variants.map((v) => ({
        id: `gid://shopify/ProductVariant/${v.id}`,
        title: v.title,
        price: v.price,
        weight: { amount: v.grams, unit: 'g' },
      })),
    });
    expect(product.variants.every((v) => v.grams! > 0)).toBe(true);
    // 1 (product) + 2 (connection) + 50 × (variant, inventory item, measurement, weight).
    expect(costsSince(from, SHOP_A)).toEqual([
      { fields: ['product'], cost: 203, refused: undefined },
    ]);
  });

  it('answers the first 50 variants of a product with 2,048, as the picker lists them', async () => {
    const { status, body } = await variantsOf(880_001, stack.token(BIG_SHOP));
    expect(status).toBe(200);
    expect(body.variants).toHaveLength(50);
    // A test catalog without weights: Shopify's 0.
    expect(body.variants[49]).toEqual({
      id: 'gid://shopify/ProductVariant/8800049',
      title: 'Size 50',
      price: '59.00',
      weight: { amount: 0, unit: 'g' },
    });
  });

  it("refuses another store's product as unknown, and an id that is not a number", async () => {
    const foreign = await variantsOf(B_CATALOG[0]!.id);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ status: false, message: 'This product is not in your store.' });
    expect(JSON.stringify(foreign.body)).not.toContain('B-only');
    const asB = await variantsOf(B_CATALOG[0]!.id, stack.token(SHOP_B));
    expect(asB.body.variants.map((v: { title: string }) => v.title)).toEqual(['Default Title']);
    for (const id of ['abc', '1.5', '1'.repeat(21), encodeURIComponent(gid(1))]) {
      const bad = await variantsOf(id);
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual(['id: id must be a Shopify product number']);
    }
    expect(stack.shopify.products.calls.map((c) => c.shop)).toEqual([SHOP_A, SHOP_B]);
  });

  it('turns a Shopify failure into a message, and needs a session token', async () => {
    stack.shopify.products.failNext();
    const failed = await variantsOf(DEMO_CATALOG[0]!.id);
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({ status: false, message: MESSAGES.failed });
    expect((await variantsOf(DEMO_CATALOG[0]!.id, '')).status).toBe(401);
  });
});

describe('POST /api/product-rules/add-shopify-product', () => {
  const [hat, mug, tee] = [DEMO_CATALOG[2]!, DEMO_CATALOG[7]!, DEMO_CATALOG[0]!];

  it('adds one product rule per product with name, image, variants and active', async () => {
    const before = (await snapshotOf(SHOP_A))?.version ?? 0;
    const { status, body } = await add([gid(hat.id), String(mug.id)]);
    expect(status).toBe(200);
    expect(body).toEqual({ status: true, message: '2 products added.' });

    const rules = (await stack.api('/api/product-rules')).body.products.data;
    const mine = rules.filter((r: any) => [String(hat.id), String(mug.id)].includes(r.product_id));
    expect(mine).toHaveLength(2);
    const mugRule = mine.find((r: any) => r.product_id === String(mug.id));
    expect(mugRule).toMatchObject({
      name: mug.title,
      image: mug.image!.url,
      active: true,
      variants_count: mug.variants.length,
      metadata: {
        image: { src: mug.image!.url },
        variants: mug.variants.map((v) => ({ id: String(v.id), title: v.title, price: v.price })),
      },
    });
    const snapshot = (await snapshotOf(SHOP_A))!;
    expect(snapshot.version).toBeGreaterThan(before);
    expect(snapshot.productRules.map((r) => r.productId)).toEqual(
      expect.arrayContaining([String(hat.id), String(mug.id)]),
    );
  });

  it('does not add a product twice and says so', async () => {
    const partly = await add([gid(mug.id), gid(tee.id), gid(tee.id)]);
    expect(partly.status).toBe(200);
    expect(partly.body).toEqual({
      status: true,
      message: `1 product added. Already added before, so not added again: ${mug.title}.`,
    });
    const again = await add([gid(mug.id), gid(tee.id)]);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      status: false,
      message: `Already added: ${mug.title} and ${tee.title}. No new product rule was created.`,
    });
    const rules = (await stack.api('/api/product-rules')).body.products.data;
    const ids = rules.map((r: any) => r.product_id);
    expect(ids.filter((id: string) => id === String(mug.id))).toHaveLength(1);
    expect(ids.filter((id: string) => id === String(tee.id))).toHaveLength(1);
  });

  it("refuses unknown ids and another store's products, adding nothing", async () => {
    const count = async () => (await stack.api('/api/product-rules')).body.products.data.length;
    const before = await count();
    const foreign = await add([gid(DEMO_CATALOG[20]!.id), gid(B_CATALOG[0]!.id)]);
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({
      status: false,
      message: `This product is not in your store: ${B_CATALOG[0]!.id}. Nothing was added.`,
    });
    const unknown = await add([gid(1), gid(2)]);
    expect(unknown.body.message).toBe(
      'These products are not in your store: 1, 2. Nothing was added.',
    );
    expect((await add(['gid://shopify/Order/1'])).body).toEqual({
      status: false,
      message: 'One of the selected products has an unknown id.',
    });
    expect((await add([])).status).toBe(400);
    expect((await add('nope')).status).toBe(400);
    expect(await count()).toBe(before);
  });

  it("adds to the token's shop only", async () => {
    const asB = stack.token(SHOP_B);
    expect((await add([gid(B_CATALOG[0]!.id)], asB)).body).toEqual({
      status: true,
      message: '1 product added.',
    });
    const bRules = (await stack.api('/api/product-rules', { token: asB })).body.products.data;
    expect(bRules.map((r: any) => r.name)).toEqual(['B-only Lamp']);
    const aRules = (await stack.api('/api/product-rules')).body.products.data;
    expect(aRules.some((r: any) => r.name === 'B-only Lamp')).toBe(false);
    // B cannot add A's demo products to its store either.
    expect((await add([gid(hat.id)], asB)).status).toBe(400);
    expect(
      (
        await stack.api(`/api/product-rules/add-shopify-product?shop=${SHOP_A}`, {
          method: 'POST',
          json: { products: [gid(B_CATALOG[0]!.id)] },
          token: asB,
        })
      ).status,
    ).toBe(403);
  });

  it("reads all 2,048 variants of a picked product, each query under Shopify's cost limit", async () => {
    const asBig = stack.token(BIG_SHOP);
    const from = stack.shopify.graphql.operations.length;
    const res = await add([gid(BIG_CATALOG[0]!.id)], asBig);
    // The lookup, then the variants past the first 50, 250 a query with their own cursor.
    const costs = costsSince(from, BIG_SHOP).filter((op) => !op.refused);
    expect(costs).toEqual([
      { fields: ['nodes'], cost: 56, refused: undefined },
      ...Array.from({ length: 8 }, () => ({ fields: ['product'], cost: 253, refused: undefined })),
    ]);
    for (const op of costs) expect(op.cost).toBeLessThanOrEqual(MAX_QUERY_COST);
    const pages = stack.shopify.products.calls.filter(
      (c) => c.shop === BIG_SHOP && c.field === 'product' && c.outcome === 'ok',
    );
    expect(pages).toHaveLength(8);
    expect(new Set(pages.map((c) => c.variables.after)).size).toBe(8);
    expect(res.body).toEqual({ status: true, message: '1 product added.' });
  });

  it('the product rule of that product holds every one of its 2,048 variants', async () => {
    const asBig = stack.token(BIG_SHOP);
    const rules = (await stack.api('/api/product-rules', { token: asBig })).body.products.data;
    expect(rules).toEqual([
      expect.objectContaining({ name: 'Every Size Poster', variants_count: 2048 }),
    ]);
    expect(rules[0].metadata.variants.at(-1)).toEqual({
      id: '8802047',
      title: 'Size 2048',
      price: `${(2047 % 90) + 10}.00`,
    });
  });

  it('reports a Shopify failure during the lookup as a message and adds nothing', async () => {
    const before = (await stack.api('/api/product-rules')).body.products.data.length;
    // The failure goes to the next product call of any shop: the earlier tests' work after
    // their answers (a fresh clone's run once gave it to one) must be over first.
    await quietProductCalls();
    stack.shopify.products.failNext();
    const res = await add([gid(DEMO_CATALOG[30]!.id)]);
    expect(stack.shopify.products.calls.filter((c) => c.outcome === 'failed').at(-1)?.shop).toBe(
      SHOP_A,
    );
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: false, message: MESSAGES.failed });
    expect((await stack.api('/api/product-rules')).body.products.data.length).toBe(before);
  });
});
