import type { Snapshot } from '@ratesmith/contracts';
import { sentFilter } from '@ratesmith/contracts/testing';
import { createRepositories } from '../../rules/src/data/repositories';
import { DEMO_CATALOG, productWebhookPayload } from '@ratesmith/shopify-double';
import { NOT_INSTALLED, ratesmithInEveryZone, SHOP_B, startStack, type Stack } from './harness';
import { rateKeyOf, raw, signBody, until } from './security/helpers';

/**
 * Item conditions end to end (docs/rates.md, "Item conditions"): the rules
 * service puts into the snapshot only the products whose type or tags the
 * shop's conditions name, with only those tags; a save that names a new tag
 * rebuilds that part; and the carrier callback quotes by vendor, SKU and tag.
 */
let stack: Stack;
const SHOP = 'item-shop.myshopify.com';
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const call = (path: string, json?: unknown) =>
  stack.api(path, { token: stack.token(SHOP), method: json ? 'POST' : 'GET', json });

const condition = (field: string, operator: string, value: string) => ({
  id: `c-${field}-${value}`,
  type: 'condition',
  field,
  operator,
  value,
});
const query = (...rules: unknown[]) => ({ condition: 'AND', rules });

/** The shop's snapshot in the bucket once `test` holds for it. */
async function snapshotWhen(
  shop: string,
  test: (s: Snapshot) => boolean,
  what: string,
): Promise<Snapshot> {
  return (await until(
    async () => {
      const entry = await stack.kv.get(shop);
      return entry && entry.length ? (entry.json() as Snapshot) : undefined;
    },
    (s) => s !== undefined && test(s),
    what,
  ))!;
}
const bucketSnapshot = (test: (s: Snapshot) => boolean, what: string) =>
  snapshotWhen(SHOP, test, what);

async function checkout(rateKey: string, items: unknown[]): Promise<string[]> {
  const body = JSON.stringify({
    rate: { destination: { country: 'US' }, items, currency: 'USD' },
  });
  const res = await raw(`${stack.carrierUrl}/carrier/rates/${rateKey}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shopify-hmac-sha256': signBody(body) },
    body,
  });
  expect(res.status).toBe(200);
  return (JSON.parse(res.text) as { rates: { total_price: string }[] }).rates.map(
    (r) => r.total_price,
  );
}

const line = (productId: number, extra: Record<string, unknown> = {}) => ({
  price: 2000,
  quantity: 1,
  grams: 500,
  product_id: productId,
  variant_id: productId * 10,
  requires_shipping: true,
  ...extra,
});

it('carries only the named products and tags, follows a save naming a new tag, and quotes by them', async () => {
  const facts = createRepositories(stack.dbs.rules).productFacts;
  // The store itself has no product: its first fill (the export) adds nothing to the facts
  // this test sets, and is waited for before they are looked at.
  stack.shopify.products.setProducts(SHOP, []);
  const at = new Date('2026-11-01T00:00:00Z');
  await facts.upsert(SHOP, [
    { productId: '1', product_type: 'Boots', tags: ['Oversize', 'sale'], updatedAt: at },
    { productId: '2', product_type: 'Hats', tags: ['fragile'], updatedAt: at },
    { productId: '3', product_type: 'Socks', tags: [], updatedAt: at },
  ]);
  // A later change of product 1 wins; an older one that arrives after it does not.
  await facts.upsert(SHOP, [
    {
      productId: '1',
      product_type: 'Boots',
      tags: ['Oversize', 'sale', 'heavy'],
      updatedAt: new Date('2026-11-02T00:00:00Z'),
    },
  ]);
  await facts.upsert(SHOP, [{ productId: '1', product_type: 'Boots', tags: [], updatedAt: at }]);

  const created = await call('/api/global-rules', { name: 'Items' });
  expect(created.status).toBe(200);
  const id = created.body.rule.id as string;
  const save = async (rules: unknown[]) => {
    const res = await call(`/api/global-rules/update/${id}`, { rules });
    expect(res.status).toBe(200);
  };
  const flat = sentFilter({
    name: 'Everything else',
    raw_query: query(),
    action_type: 1,
    action_data: 9.95,
    is_shipping_overridden: 'No',
  });
  await save([
    sentFilter({
      name: 'Oversize',
      raw_query: query(condition('cart_item_product_tag', 'any_equal', ' oversize ')),
      action_type: 5,
      action_data: 40,
      post_processing_action_type: 0,
    }),
    sentFilter({
      name: 'Acme ships free',
      raw_query: query(condition('cart_item_vendor', 'all_equal', 'ACME')),
      action_type: 0,
      action_data: null,
      post_processing_action_type: 0,
    }),
    {
      ...flat,
      name: 'No gift cards',
      raw_query: query(condition('cart_item_sku', 'none_starts_with', 'gift-')),
    },
  ]);
  expect((await call(`/api/global-rules/${id}/toggle`)).status).toBe(200);

  await until(
    () => stack.dbs.rules.db!.collection('product_fact_exports').findOne({ shop: SHOP }),
    (doc) => Boolean(doc?.finished_at),
    'the first fill',
  );
  const first = await bucketSnapshot((s) => s.globalRuleset?.id === id, 'the active ruleset');
  // Product 1 only, with the named tag as Shopify spells it; no type is named.
  expect(first.products).toEqual({ '1': { product_type: '', tags: ['Oversize'] } });

  const rateKey = await rateKeyOf(stack, SHOP);
  expect(await checkout(rateKey, [line(1), line(3)])).toEqual(['4000']);
  expect(await checkout(rateKey, [line(3, { vendor: ' acme ' })])).toEqual(['0']);
  expect(await checkout(rateKey, [line(2), line(3, { sku: 'GIFT-25' })])).toEqual([]);
  expect(await checkout(rateKey, [line(2), line(3, { sku: 'SOCK-1' })])).toEqual(['995']);

  // A save naming a new tag and a type rebuilds the index part of the snapshot.
  await save([
    sentFilter({
      name: 'Fragile hats',
      raw_query: query(
        condition('cart_item_product_tag', 'any_equal', 'FRAGILE'),
        condition('cart_item_product_type', 'all_equal', 'hats'),
      ),
      action_type: 5,
      action_data: 12,
      post_processing_action_type: 0,
    }),
    flat,
  ]);
  const second = await bucketSnapshot(
    (s) => s.globalRuleset?.filters.length === 2,
    'the ruleset that names fragile hats',
  );
  expect(second.products).toEqual({ '2': { product_type: 'Hats', tags: ['fragile'] } });
  expect(await checkout(rateKey, [line(2)])).toEqual(['1200']);
  expect(await checkout(rateKey, [line(2), line(1)])).toEqual(['995']);

  // shop/redact forgets the shop's products with the rest of its data.
  await facts.deleteShop(SHOP);
  expect(await stack.dbs.rules.db!.collection('product_facts').countDocuments({ shop: SHOP })).toBe(
    0,
  );
});

describe("the index follows the store's products", () => {
  const STORE = 'item-sync.myshopify.com';
  const product = DEMO_CATALOG[0]!;
  const webhook = (topic: string, shop: string, payload: unknown) =>
    stack.shopify.sendWebhook(`${stack.baseUrl}/webhooks/products`, topic, shop, payload);
  const factsOf = (shop: string) =>
    stack.dbs.rules.db!.collection('product_facts').find({ shop }).toArray();
  const storeSnapshot = (test: (s: Snapshot) => boolean, what: string) =>
    snapshotWhen(STORE, test, what);
  /** The double's checkout of one unit of the product, as Shopify would ask Ratesmith. */
  const checkoutPrice = async () => {
    const [answer] = await stack.shopify.checkout(STORE, {
      rate: {
        destination: { country: 'US', province: 'NY', postal_code: '10001' },
        items: [
          {
            name: product.title,
            sku: '',
            quantity: 1,
            grams: 500,
            price: 2000,
            vendor: product.vendor,
            requires_shipping: true,
            product_id: product.id,
            variant_id: product.variants[0]!.id,
          },
        ],
        currency: 'USD',
        locale: 'en',
      },
    });
    expect(answer!.status).toBe(200);
    return (answer!.body as { rates: { total_price: string }[] }).rates.map((r) => r.total_price);
  };

  it('tagged in the store: the webhook reaches the catalog, the snapshot changes, checkout quotes the tag rule', async () => {
    // A store whose products have no type and no tag yet.
    stack.shopify.products.setProducts(
      STORE,
      DEMO_CATALOG.slice(0, 3).map((p) => ({ ...p, productType: '', tags: [] })),
    );
    const api = (path: string, json?: unknown) =>
      stack.api(path, { token: stack.token(STORE), method: json ? 'POST' : 'GET', json });
    const id = (await api('/api/global-rules', { name: 'Oversize' })).body.rule.id as string;
    const saved = await api(`/api/global-rules/update/${id}`, {
      rules: [
        sentFilter({
          name: 'Oversize ships for $40',
          raw_query: query(condition('cart_item_product_tag', 'any_equal', 'oversize')),
          action_type: 5,
          action_data: 40,
          is_shipping_overridden: 'No',
          post_processing_action_type: 0,
        }),
        sentFilter({
          name: 'Everything else',
          raw_query: query(),
          action_type: 1,
          action_data: 9.95,
          is_shipping_overridden: 'No',
        }),
      ],
    });
    expect(saved.status).toBe(200);
    expect((await api(`/api/global-rules/${id}/toggle`)).status).toBe(200);
    await storeSnapshot((s) => s.globalRuleset?.id === id, 'the active ruleset');
    // The first fill (the whole store, read once the rules name a tag) is done first.
    await until(
      () => stack.dbs.rules.db!.collection('product_fact_exports').findOne({ shop: STORE }),
      (doc) => Boolean(doc?.finished_at),
      'the first fill',
    );
    ratesmithInEveryZone(stack, STORE);
    expect(await until(checkoutPrice, (p) => p.length > 0, 'a rate at checkout')).toEqual(['995']);

    // The merchant tags the product in Shopify; Shopify sends products/update.
    const changed = stack.shopify.products.changeProduct(STORE, product.id, {
      tags: ['Oversize', 'new'],
    })!;
    expect((await webhook('products/update', STORE, productWebhookPayload(changed))).status).toBe(
      200,
    );
    const tagged = await storeSnapshot(
      (s) => String(product.id) in s.products,
      'the tag in the index',
    );
    expect(tagged!.products).toEqual({ [product.id]: { product_type: '', tags: ['Oversize'] } });
    expect(await until(checkoutPrice, (p) => p[0] === '4000', 'the tag rule at checkout')).toEqual([
      '4000',
    ]);

    // The same signed body sent under another shop's name: that shop's store has no such
    // product, so nothing of it is stored, and the first shop keeps its facts.
    stack.shopify.products.setProducts(SHOP_B, DEMO_CATALOG.slice(1, 2));
    expect((await stack.api('/api/settings', { token: stack.token(SHOP_B) })).status).toBe(200);
    expect((await webhook('products/update', SHOP_B, productWebhookPayload(changed))).status).toBe(
      200,
    );
    expect(await factsOf(SHOP_B)).toEqual([]);
    // Under a shop that is not installed there is no store to read: refused, nothing kept.
    const uninstalled = await webhook(
      'products/update',
      NOT_INSTALLED,
      productWebhookPayload(changed),
    );
    expect(uninstalled.status).toBe(403);
    expect(await factsOf(NOT_INSTALLED)).toEqual([]);
    const factOf = async (shop: string) =>
      (await factsOf(shop)).find((f) => f.product_id === String(product.id));
    expect((await factOf(STORE))?.tags).toEqual(['Oversize', 'new']);

    // A body that is no product is refused, and nothing is read.
    const refused = await webhook('products/update', STORE, { shop_domain: STORE });
    expect(refused.status).toBe(401);

    // Deleted in the store: the fact goes, the snapshot's index empties, checkout follows.
    stack.shopify.products.deleteProduct(STORE, product.id);
    expect(
      (await webhook('products/delete', STORE, productWebhookPayload(changed, true))).status,
    ).toBe(200);
    await storeSnapshot((s) => Object.keys(s.products).length === 0, 'the empty index');
    expect(await factOf(STORE)).toBeUndefined();
  });
});

describe("the index's first fill: the store's whole catalog, once", () => {
  const STORE = 'item-export.myshopify.com';
  const at = '2026-10-01T00:00:00Z';
  const catalog = DEMO_CATALOG.slice(0, 3).map((p, i) => ({
    ...p,
    productType: i === 1 ? 'Boots' : '',
    tags: i === 0 ? ['Oversize', 'sale'] : [],
    updatedAt: at,
  }));

  it('reads every product once a rule names a tag, and quotes products tagged before the install', async () => {
    stack.shopify.products.setProducts(STORE, catalog);
    const api = (path: string, json?: unknown) =>
      stack.api(path, { token: stack.token(STORE), method: json ? 'POST' : 'GET', json });
    const id = (await api('/api/global-rules', { name: 'Tags' })).body.rule.id as string;
    const save = async (rules: unknown[]) =>
      expect((await api(`/api/global-rules/update/${id}`, { rules })).status).toBe(200);
    const flat = sentFilter({
      name: 'Everything else',
      raw_query: query(),
      action_type: 1,
      action_data: 9.95,
      is_shipping_overridden: 'No',
    });
    await save([
      sentFilter({
        name: 'Oversize',
        raw_query: query(condition('cart_item_product_tag', 'any_equal', 'OVERSIZE')),
        action_type: 5,
        action_data: 40,
        is_shipping_overridden: 'No',
        post_processing_action_type: 0,
      }),
      flat,
    ]);
    // No export before any rule of the live snapshot names a tag.
    expect(stack.shopify.bulkOperations.startedBy(STORE)).toEqual([]);
    expect((await api(`/api/global-rules/${id}/toggle`)).status).toBe(200);

    const snapshot = await snapshotWhen(
      STORE,
      (s) => String(catalog[0]!.id) in s.products,
      'the exported tag in the index',
    );
    expect(snapshot.products).toEqual({
      [catalog[0]!.id]: { product_type: '', tags: ['Oversize'] },
    });
    // Every product is stored (the index picks what the rules name).
    const stored = await stack.dbs.rules
      .db!.collection('product_facts')
      .find({ shop: STORE }, { projection: { _id: 0, product_id: 1, product_type: 1, tags: 1 } })
      .sort({ product_id: 1 })
      .toArray();
    expect(stored).toEqual(
      catalog
        .map((p) => ({ product_id: String(p.id), product_type: p.productType, tags: p.tags }))
        .sort((a, b) => a.product_id.localeCompare(b.product_id)),
    );
    expect(stack.shopify.bulkOperations.startedBy(STORE)).toEqual([
      { id: expect.stringMatching(/^gid:\/\/shopify\/BulkOperation\/\d+$/), status: 'COMPLETED' },
    ]);
    const price = async () => {
      ratesmithInEveryZone(stack, STORE);
      const [answer] = await stack.shopify.checkout(STORE, {
        rate: {
          destination: { country: 'US', province: 'NY', postal_code: '10001' },
          items: [
            {
              price: 2000,
              quantity: 1,
              grams: 100,
              product_id: catalog[0]!.id,
              variant_id: catalog[0]!.variants[0]!.id,
              requires_shipping: true,
            },
          ],
          currency: 'USD',
        },
      });
      return (answer?.body as { rates?: { total_price: string }[] } | undefined)?.rates ?? [];
    };
    expect((await until(price, (r) => r.length > 0, 'a rate at checkout'))[0]!.total_price).toBe(
      '4000',
    );

    // A later save naming a type reads the index again, and exports nothing more.
    await save([
      sentFilter({
        name: 'Boots',
        raw_query: query(condition('cart_item_product_type', 'any_equal', 'boots')),
        action_type: 5,
        action_data: 15,
        is_shipping_overridden: 'No',
        post_processing_action_type: 0,
      }),
      flat,
    ]);
    const boots = await until(
      async () => (await stack.kv.get(STORE))!.json() as Snapshot,
      (s) => String(catalog[1]!.id) in s.products,
      'the type in the index',
    );
    expect(boots.products).toEqual({ [catalog[1]!.id]: { product_type: 'Boots', tags: [] } });
    expect(stack.shopify.bulkOperations.startedBy(STORE)).toHaveLength(1);
  });
});

describe('GET /api/product-texts: the pickers of item conditions', () => {
  const STORE = 'item-texts.myshopify.com';
  const get = (query: string, token: string | null = stack.token(STORE)) =>
    stack.api(`/api/product-texts?${query}`, { token });

  it("lists the shop's own vendors, types and tags from Shopify, searched case-blind", async () => {
    stack.shopify.products.setProducts(
      STORE,
      DEMO_CATALOG.slice(0, 4).map((p, i) => ({
        ...p,
        vendor: ['Acme', 'Birch Co', 'acme outlet', 'Cedar'][i]!,
        productType: i < 2 ? 'Boots' : 'Hats',
        tags: i === 0 ? ['Oversize', 'sale'] : ['sale'],
      })),
    );
    expect((await get('kind=vendor')).body).toEqual({
      status: true,
      values: ['Acme', 'acme outlet', 'Birch Co', 'Cedar'],
      complete: true,
    });
    expect((await get('kind=vendor&search=ACME')).body.values).toEqual(['Acme', 'acme outlet']);
    expect((await get('kind=type')).body.values).toEqual(['Boots', 'Hats']);
    expect((await get('kind=tag&search=over')).body.values).toEqual(['Oversize']);
  });

  it('refuses a kind it does not know, a long search, and a call without a session', async () => {
    expect((await get('kind=colour')).status).toBe(400);
    expect((await get(`kind=tag&search=${'x'.repeat(101)}`)).status).toBe(400);
    expect((await get('kind=tag', null)).status).toBe(401);
  });
});
