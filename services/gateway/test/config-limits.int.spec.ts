import { LIMITS } from '@ratesmith/contracts';
import { draftFilter, worstFilters } from '@ratesmith/contracts/testing';
import { decodeSnapshot } from '@ratesmith/kit';
import type { DoubleProduct } from '@ratesmith/shopify-double';
import { startStack, type Stack } from './harness';
import { raw, rateKeyOf, signBody } from './security/helpers';

/**
 * Export and import at the limits, through the gateway on a real NATS (its
 * default max_payload, 1 MB) and FerretDB (docs/architecture.md, "Message
 * sizes"): a shop with three rulesets of 100 filters x 50 conditions and two
 * product rules of 50 x 50, every text at its length, is exported, imported
 * into another shop exactly, and that shop's snapshot reaches the engine and
 * quotes; a file over the cap, or an import past a shop's counts, answers a
 * clear 4xx and writes nothing.
 */
let stack: Stack;
beforeAll(async () => {
  // Patience: megabyte documents on FerretDB, on a machine shared with other suites.
  stack = await startStack(
    {
      API_BODY_LIMIT: '1536kb',
      NATS_REQUEST_TIMEOUT_MS: '60000',
      CATALOG_REQUEST_TIMEOUT_MS: '65000',
    },
    {},
    { NATS_REQUEST_TIMEOUT_MS: '60000', CATALOG_DEADLINE_MS: '60000' },
    {},
    {},
    30_000,
  );
}, 120_000);
afterAll(() => stack?.stop(), 120_000);

const [A, B, C] = ['limits-a.myshopify.com', 'limits-b.myshopify.com', 'limits-c.myshopify.com'];
const products: DoubleProduct[] = [1, 2].map((n) => ({
  id: 7_000_000_000 + n,
  title: `Heavy product ${n}`,
  handle: `heavy-${n}`,
  vendor: 'Limits',
  image: null,
  variants: Array.from({ length: 100 }, (_, v) => ({
    id: 9_000_000_000 + n * 1000 + v,
    title: `Size ${v} / a colour with a long name`,
    price: '19.99',
  })),
}));

async function call(shop: string, path: string, json?: unknown) {
  const reply = await stack.api(path, {
    token: stack.token(shop),
    method: json ? 'POST' : 'GET',
    json,
  });
  if (reply.status !== 200)
    throw new Error(`${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** "Cheap carts" (under 50 adds 4.99, then stops) first, so a cart has a rate to check; then the limits. */
const mainFilters = [draftFilter(), ...worstFilters(LIMITS.filtersPerRuleset - 1, 50, false)];

async function configureLargest(shop: string): Promise<void> {
  const { rule } = await call(shop, '/api/global-rules', { name: 'Main' });
  await call(shop, `/api/global-rules/update/${rule.id}`, { rules: mainFilters });
  await call(shop, `/api/global-rules/${rule.id}/toggle`);
  for (const name of ['Extra one', 'Extra two']) {
    const extra = await call(shop, '/api/global-rules', { name });
    await call(shop, `/api/global-rules/update/${extra.rule.id}`, {
      rules: worstFilters(LIMITS.filtersPerRuleset, 50, false),
    });
  }
  await call(shop, '/api/product-rules/add-shopify-product', {
    products: products.map((p) => p.id),
  });
  const stored = (await call(shop, '/api/product-rules')).products.data as { id: string }[];
  for (const rule of stored)
    await call(shop, `/api/product-rules/update/${rule.id}`, {
      rules: worstFilters(LIMITS.filtersPerProductRule, 50, false),
    });
}

/** What must survive the trip: everything but the export's time. */
const content = (file: { exported_at?: string }) => ({ ...file, exported_at: undefined });

let exported: { body: any; bytes: number };

// First: once the largest shops' megabyte documents are in, FerretDB scans them on every query.
describe("a shop's counts", () => {
  it(`a shop has at most ${LIMITS.rulesetsPerShop} rulesets: create, duplicate and import say so and write nothing`, async () => {
    // The shop's 50 rulesets in one import, the way a merchant fills a shop fastest.
    const settings = (await call(C, '/api/config/export')).settings;
    const fifty = {
      format: 'ratesmith-config',
      version: 1,
      rulesets: Array.from({ length: LIMITS.rulesetsPerShop }, (_, n) => ({
        name: `Ruleset ${n + 1}`,
        enabled: false,
        filters: [draftFilter()],
      })),
      product_rules: [],
      settings,
    };
    await call(C, '/api/config/import', fifty);
    const first = (await call(C, '/api/global-rules')).globalRules[0].id as string;
    const full = `A shop can have at most ${LIMITS.rulesetsPerShop} rulesets: delete one you no longer use first.`;
    const create = await stack.api('/api/global-rules', {
      token: stack.token(C),
      method: 'POST',
      json: { name: 'One more' },
    });
    expect([create.status, create.body.message]).toEqual([400, full]);
    const duplicate = await stack.api(`/api/global-rules/${first}/duplicate`, {
      token: stack.token(C),
      method: 'POST',
    });
    expect([duplicate.status, duplicate.body.message]).toEqual([400, full]);

    const before = await call(C, '/api/config/export');
    const file = {
      ...before,
      rulesets: [{ name: 'New one', enabled: false, filters: [draftFilter()] }],
    };
    const imported = await stack.api('/api/config/import', {
      token: stack.token(C),
      method: 'POST',
      json: file,
    });
    expect([imported.status, imported.body.errors]).toEqual([
      400,
      [
        `After this import the shop would have 51 rulesets, more than the ${LIMITS.rulesetsPerShop} a shop can have: delete rulesets you no longer use first.`,
      ],
    ]);
    expect((await call(C, '/api/global-rules')).globalRules).toHaveLength(LIMITS.rulesetsPerShop);
  }, 300_000);

  it(`a shop has at most ${LIMITS.productRulesPerShop} product rules: the picker's Add says how many more fit`, async () => {
    const D = 'limits-d.myshopify.com';
    const small = (id: number): DoubleProduct => ({
      id,
      title: `Product ${id}`,
      handle: `product-${id}`,
      vendor: 'Limits',
      image: null,
      variants: [{ id: id * 10, title: 'Default', price: '1.00' }],
    });
    const store = Array.from({ length: LIMITS.productRulesPerShop + 2 }, (_, n) => small(n + 1));
    stack.shopify.products.setProducts(D, store);
    const settings = (await call(D, '/api/config/export')).settings;
    await call(D, '/api/config/import', {
      format: 'ratesmith-config',
      version: 1,
      rulesets: [],
      product_rules: store.slice(0, LIMITS.productRulesPerShop - 1).map((p) => ({
        product_id: String(p.id),
        enabled: true,
        filters: [draftFilter()],
      })),
      settings,
    });
    const add = (ids: number[]) =>
      stack.api('/api/product-rules/add-shopify-product', {
        token: stack.token(D),
        method: 'POST',
        json: { products: ids },
      });
    const two = await add(store.slice(-2).map((p) => p.id));
    expect([two.status, two.body.message]).toEqual([
      400,
      `A shop can have at most ${LIMITS.productRulesPerShop} product rules: at most 1 more can be added.`,
    ]);
    expect((await add([store.at(-2)!.id])).status).toBe(200);
    const full = await add([store.at(-1)!.id]);
    expect([full.status, full.body.message]).toEqual([
      400,
      `A shop can have at most ${LIMITS.productRulesPerShop} product rules: delete one you no longer use first.`,
    ]);
    expect((await call(D, '/api/product-rules')).products.data).toHaveLength(
      LIMITS.productRulesPerShop,
    );
  }, 300_000);
});

describe('a shop at its largest configuration', () => {
  it("runs on NATS's default max_payload", () => {
    expect(stack.nc.info?.max_payload).toBe(1024 * 1024);
  });

  it('exports, and imports into another shop exactly', async () => {
    for (const shop of [A, B]) stack.shopify.products.setProducts(shop, products);
    await configureLargest(A);
    const file = await stack.api('/api/config/export', { token: stack.token(A) });
    expect(file.status).toBe(200);
    exported = { body: file.body, bytes: Buffer.byteLength(JSON.stringify(file.body)) };
    process.stdout.write(`export of the largest shop: ${exported.bytes} bytes\n`);
    expect(exported.bytes).toBeGreaterThan(3_000_000);
    expect(exported.bytes).toBeLessThanOrEqual(LIMITS.configFileBytes);

    const imported = await stack.api('/api/config/import', {
      token: stack.token(B),
      method: 'POST',
      json: file.body,
    });
    expect([imported.status, imported.body.message, imported.body.errors]).toEqual([
      200,
      'Configuration imported.',
      [],
    ]);
    const again = await call(B, '/api/config/export');
    expect(content(again)).toEqual(content(exported.body));
  }, 600_000);

  it("reaches the other shop's checkout, gzipped under the bus's limit, and quotes", async () => {
    const entry = await stack.kv.get(B);
    const data = entry!.value;
    process.stdout.write(`snapshot in the bucket: ${data.length} bytes\n`);
    expect([data[0], data[1]]).toEqual([0x1f, 0x8b]);
    expect(data.length).toBeLessThan(1024 * 1024);
    const snapshot = decodeSnapshot(data) as { globalRuleset: { filters: unknown[] } };
    expect(snapshot.globalRuleset.filters).toHaveLength(LIMITS.filtersPerRuleset);

    const key = await rateKeyOf(stack, B);
    const body = JSON.stringify({
      rate: {
        destination: { country: 'US', postal_code: '10001' },
        currency: 'USD',
        items: [{ price: 1000, quantity: 1, grams: 100, requires_shipping: true }],
      },
    });
    const res = await raw(`${stack.carrierUrl}/carrier/rates/${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-hmac-sha256': signBody(body) },
      body,
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).rates.map((r: { total_price: string }) => r.total_price)).toEqual([
      '499',
    ]);
  }, 60_000);

  it('refuses a file over the cap with a 413 in words the Backup page shows, and writes nothing', async () => {
    const before = await call(B, '/api/config/export');
    const tooLarge = {
      ...exported.body,
      rulesets: [
        ...exported.body.rulesets,
        { ...exported.body.rulesets[1], name: 'Extra three', enabled: false },
      ],
    };
    expect(Buffer.byteLength(JSON.stringify(tooLarge))).toBeGreaterThan(LIMITS.configFileBytes);
    const reply = await stack.api('/api/config/import?dry_run=1', {
      token: stack.token(B),
      method: 'POST',
      json: tooLarge,
    });
    expect([reply.status, reply.body]).toEqual([
      413,
      {
        status: false,
        message:
          'This configuration file is larger than 4 MB, the most one import takes: remove rulesets or product rules from it, or import it as several files.',
      },
    ]);
    expect(content(await call(B, '/api/config/export'))).toEqual(content(before));
  }, 120_000);

  it('refuses to export a configuration over the cap, saying what to do', async () => {
    const { rule } = await call(A, '/api/global-rules', { name: 'Extra three' });
    await call(A, `/api/global-rules/update/${rule.id}`, {
      rules: worstFilters(LIMITS.filtersPerRuleset, 50, false),
    });
    const reply = await stack.api('/api/config/export', { token: stack.token(A) });
    expect(reply.status).toBe(413);
    expect(reply.body.message).toMatch(
      /^Your configuration is 4\.\d MB, more than the 4\.0 MB a configuration file can have, so it could not be imported again: delete rulesets or product rules you no longer use/,
    );
  }, 300_000);
});
