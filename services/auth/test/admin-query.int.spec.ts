import { authV1 } from '@ratesmith/contracts';
import { DEMO_CATALOG } from '@ratesmith/shopify-double';
import { MESSAGES } from '../src/shopify/admin-client';
import { NOT_INSTALLED } from '../src/shopify/run-admin-query';
import { NOT_CONNECTED } from '../src/tokens/token-service';
import { startAuthStack, type AuthStack } from './harness';

/**
 * RunAdminQuery: auth runs the catalog's named Shopify reads with the shop's
 * token, so the token never leaves it. Against the Shopify double, with two
 * retries after throttled replies.
 */

let stack: AuthStack;
beforeAll(async () => {
  stack = await startAuthStack({ SHOPIFY_THROTTLE_RETRIES: '2', SHOPIFY_TIMEOUT_MS: '1000' });
  await install(SHOP);
});
afterAll(() => stack?.stop());
beforeEach(() => {
  stack.shopify.products.throttleNext(0);
  stack.shopify.products.failNext(0);
  stack.shopify.products.calls.length = 0;
});

const SHOP = 'query-shop.myshopify.com';
const { PRODUCTS, PRODUCTS_BY_ID, PRODUCT_VARIANTS, VARIANT_WEIGHTS } = authV1.AdminQuery;

async function install(shop: string) {
  await stack.service.tokens.exchangeSessionToken(shop, stack.sessionToken(shop));
  await stack.service.shops.markInstalled(shop);
}

const run = (
  query: authV1.AdminQuery,
  variables: unknown,
  options: { shop?: string; timeLimitMs?: number; variablesJson?: string } = {},
) =>
  stack.auth.call(
    'runAdminQuery',
    {
      shop: options.shop ?? SHOP,
      query,
      variablesJson: options.variablesJson ?? JSON.stringify(variables),
      timeLimitMs: options.timeLimitMs ?? 5000,
    },
    { timeoutMs: (options.timeLimitMs ?? 5000) + 2000 },
  );

const dataOf = async (reply: Promise<{ dataJson: string }>) => JSON.parse((await reply).dataJson);

describe('RunAdminQuery', () => {
  it("answers Shopify's data for each allow-listed query, and no token", async () => {
    const page = await dataOf(run(PRODUCTS, { first: 15 }));
    expect(page.products.edges.map((e: any) => e.node.title)).toEqual(
      DEMO_CATALOG.slice(0, 15).map((p) => p.title),
    );
    const first = page.products.edges[0].node;
    const byId = await dataOf(run(PRODUCTS_BY_ID, { ids: [first.id] }));
    expect(byId.nodes).toEqual([expect.objectContaining({ id: first.id, title: first.title })]);
    const variants = await dataOf(run(PRODUCT_VARIANTS, { id: first.id }));
    expect(variants.product.variants.nodes.length).toBe(DEMO_CATALOG[0]!.variants.length);
    expect(stack.shopify.products.calls.map((c) => [c.shop, c.field, c.outcome])).toEqual([
      [SHOP, 'products', 'ok'],
      [SHOP, 'nodes', 'ok'],
      [SHOP, 'product', 'ok'],
    ]);
    const [token] = stack.shopify.oauth.accessTokensOf(SHOP);
    expect(token).toMatch(/^shpat_/);
    expect(JSON.stringify([page, byId, variants])).not.toContain(token);
  });

  it("reads a product's variants with their weights within Shopify's cost limit", async () => {
    const product = DEMO_CATALOG[1]!;
    const data = await dataOf(run(VARIANT_WEIGHTS, { id: `gid://shopify/Product/${product.id}` }));
    expect(data.product.variants.nodes).toEqual(
      product.variants.map((v) => ({
        id: `gid://shopify/ProductVariant/${v.id}`,
        title: v.title,
        price: v.price,
        inventoryItem: { measurement: { weight: { value: v.grams, unit: 'GRAMS' } } },
      })),
    );
    // 1 (product) + 2 (connection) + 50 variants × 4 (variant, item, measurement, weight).
    expect(stack.shopify.graphql.operations.at(-1)).toMatchObject({
      fields: ['product'],
      requestedQueryCost: 203,
      refused: undefined,
    });
  });

  it('refuses a query that is not on the allow-list, before asking Shopify', async () => {
    for (const query of [authV1.AdminQuery.UNSPECIFIED, 99 as authV1.AdminQuery]) {
      await expect(run(query, { first: 15 })).rejects.toMatchObject({
        kind: 'invalid_data',
        message: 'That is not a query Ratesmith runs on Shopify.',
      });
    }
    expect(stack.shopify.products.calls).toHaveLength(0);
  });

  it.each([
    ['an unknown variable', PRODUCTS, { first: 15, reverse: true }],
    ['both directions', PRODUCTS, { first: 15, last: 15 }],
    ['a page above 15 (cost)', PRODUCTS, { first: 16 }],
    ['no page size', PRODUCTS, { query: 'mug*' }],
    ['a cursor the wrong way', PRODUCTS, { first: 15, before: 'abc' }],
    ['a search too long', PRODUCTS, { first: 15, query: 'x'.repeat(1001) }],
    ['a cursor too long', PRODUCTS, { first: 15, after: 'c'.repeat(1025) }],
    [
      'more than 8 ids (cost)',
      PRODUCTS_BY_ID,
      { ids: Array.from({ length: 9 }, (_, i) => `gid://shopify/Product/${i + 1}`) },
    ],
    ['no ids', PRODUCTS_BY_ID, { ids: [] }],
    ['an id of another resource', PRODUCTS_BY_ID, { ids: ['gid://shopify/Order/1'] }],
    ['a bare number for a gid', PRODUCT_VARIANTS, { id: '1' }],
    ['variables that are not an object', PRODUCT_VARIANTS, ['gid://shopify/Product/1']],
    ['a cursor (one page only)', VARIANT_WEIGHTS, { id: 'gid://shopify/Product/1', after: 'c' }],
  ])('refuses %s, before asking Shopify', async (_what, query, variables) => {
    await expect(run(query, variables)).rejects.toMatchObject({
      kind: 'invalid_data',
      message: 'The query variables are not valid.',
    });
    expect(stack.shopify.products.calls).toHaveLength(0);
  });

  it('refuses variables that are not JSON or too large, and a time limit out of bounds', async () => {
    await expect(run(PRODUCTS, null, { variablesJson: '{"first":' })).rejects.toMatchObject({
      kind: 'invalid_data',
      details: ['not JSON'],
    });
    const huge = JSON.stringify({ first: 15, query: 'x'.repeat(5000) });
    await expect(run(PRODUCTS, null, { variablesJson: huge })).rejects.toMatchObject({
      kind: 'invalid_data',
      details: ['at most 4096 bytes'],
    });
    for (const timeLimitMs of [0, 60_001]) {
      await expect(run(PRODUCTS, { first: 15 }, { timeLimitMs })).rejects.toMatchObject({
        kind: 'invalid_data',
        message: 'The time limit must be 1 to 60000 milliseconds.',
      });
    }
    await expect(
      run(PRODUCTS, { first: 15 }, { shop: 'evil.example.com/x?' }),
    ).rejects.toMatchObject({ kind: 'invalid_data', message: 'That is not a valid shop domain.' });
    expect(stack.shopify.products.calls).toHaveLength(0);
  });

  it('waits out throttled replies as the cost data says, then answers', async () => {
    // The page query asks for 842 points: 47 are missing, back at 470 a second.
    stack.shopify.products.throttleNext(2, { currentlyAvailable: 842 - 47, restoreRate: 470 });
    const started = Date.now();
    const page = await dataOf(run(PRODUCTS, { first: 15 }));
    expect(page.products.edges).toHaveLength(15);
    expect(stack.shopify.products.calls.map((c) => c.outcome)).toEqual([
      'throttled',
      'throttled',
      'ok',
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * 100);
  });

  it('gives up after SHOPIFY_THROTTLE_RETRIES with the busy message', async () => {
    stack.shopify.products.throttleNext(100, { currentlyAvailable: 0, restoreRate: 2000 });
    await expect(run(PRODUCTS, { first: 15 })).rejects.toMatchObject({
      kind: 'unavailable',
      message: MESSAGES.busy,
    });
    expect(stack.shopify.products.calls).toHaveLength(3);
  });

  it("never waits past the caller's time limit", async () => {
    // A wait of 4 s would be needed; the caller gives 1 s: busy at once, one call.
    stack.shopify.products.throttleNext(100, { currentlyAvailable: 442, restoreRate: 100 });
    const started = Date.now();
    await expect(run(PRODUCTS, { first: 15 }, { timeLimitMs: 1000 })).rejects.toMatchObject({
      kind: 'unavailable',
      message: MESSAGES.busy,
    });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(stack.shopify.products.calls).toHaveLength(1);

    stack.shopify.products.stallNext(3000);
    const stalled = Date.now();
    await expect(run(PRODUCTS, { first: 15 }, { timeLimitMs: 500 })).rejects.toMatchObject({
      kind: 'unavailable',
      message: MESSAGES.timeout,
    });
    expect(Date.now() - stalled).toBeLessThan(1500);
  });

  it("turns Shopify's failures into the picker's messages", async () => {
    stack.shopify.products.failNext();
    await expect(run(PRODUCTS, { first: 15 })).rejects.toMatchObject({
      kind: 'unavailable',
      message: MESSAGES.failed,
    });
    const shop = 'revoked-query-shop.myshopify.com';
    await install(shop);
    stack.shopify.oauth.revoke(shop);
    await expect(run(PRODUCTS, { first: 15 }, { shop })).rejects.toMatchObject({
      kind: 'forbidden',
      message: MESSAGES.denied,
    });
  });

  it('is forbidden, with how to reconnect, for a shop without a token', async () => {
    await expect(
      run(PRODUCTS, { first: 15 }, { shop: 'nobody.myshopify.com' }),
    ).rejects.toMatchObject({ kind: 'forbidden', message: NOT_INSTALLED });
    // Installed once, its tokens gone since (a refresh Shopify refused deletes them).
    const shop = 'tokenless-shop.myshopify.com';
    await install(shop);
    await stack.service.tokens.deleteTokens(shop);
    await expect(run(PRODUCTS, { first: 15 }, { shop })).rejects.toMatchObject({
      kind: 'forbidden',
      message: NOT_CONNECTED,
    });
    expect(stack.shopify.products.calls).toHaveLength(0);
  });
});

describe('GetAccessToken (retired)', () => {
  it('is refused for an installed shop: no token leaves the service', async () => {
    await expect(stack.auth.call('getAccessToken', { shop: SHOP })).rejects.toMatchObject({
      kind: 'forbidden',
    });
  });
});
