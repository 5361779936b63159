import { fromBinary } from '@bufbuild/protobuf';
import { rateEngineV1 } from '@ratesmith/contracts';
import { carrierRateRequest, DEMO_CATALOG } from '@ratesmith/shopify-double';
import { ratesmithInEveryZone, SHOP_A, SHOP_B, startStack, until, type Stack } from './harness';
import { missingId, seedShop } from './security/helpers';

/**
 * Recent checkouts end to end: a real carrier callback through the Shopify
 * double, sampled by the engine, traced after its answer, sent over NATS with
 * the outcomes' batch, stored by the rules service (FerretDB) and shown by
 * GET /api/recent-checkouts to its shop only; nothing about the customer is
 * stored, and shop/redact deletes them.
 */
let stack: Stack;
beforeAll(async () => {
  // Batches go every 200 ms here (5 s in production).
  stack = await startStack({}, {}, {}, {}, { OUTCOME_FLUSH_MS: 200 });
}, 60_000);
afterAll(() => stack?.stop());

/** A checkout whose request names the customer in every way Shopify may. */
const PERSONAL = {
  country: 'CA',
  postal_code: 'K1M1M4',
  province: 'ON',
  city: 'Ottawa',
  name: 'Jane Roe',
  address1: '24 Sussex Drive',
  address2: 'Apt 9',
  phone: '+16135550100',
  email: 'jane.roe@example.com',
  company_name: 'Roe Holdings',
};
const PERSONAL_TEXTS = [
  'K1M',
  'Ottawa',
  'Jane',
  'Sussex',
  'Apt 9',
  '6135550100',
  'example.com',
  'Roe Holdings',
  'Short Sleeve',
  '"ON"',
];
const body = () => carrierRateRequest({ destination: PERSONAL });

interface Listed {
  id: string;
  at: string;
  country: string;
  currency: string;
  lines: { product_id: string; quantity: number; price: number; grams: number }[];
  rates: { service_code: string; total_price: string }[];
  latency_ms: number;
}

const list = async (shop: string) => {
  const res = await stack.api('/api/recent-checkouts', { token: stack.token(shop) });
  expect(res.status).toBe(200);
  return res.body as { checkouts: Listed[]; retention_days: number; kept_at_most: number };
};

const stored = (shop: string) =>
  stack.dbs.rules.db!.collection('recent_checkouts').find({ shop }).toArray();

/** Checkouts until the shop's active ruleset answers (its snapshot reached the engine). */
async function checkoutsUntilRated(shop: string) {
  ratesmithInEveryZone(stack, shop);
  return until(
    async () => {
      const [answer] = await stack.shopify.checkout(shop, body());
      expect(answer!.status).toBe(200);
      return (answer!.body as { rates: unknown[] }).rates;
    },
    (rates) => rates.length > 0,
    'a rate at checkout',
  );
}

describe('recent checkouts', () => {
  let id = '';

  it('a carrier callback appears in the list, and opens with its trace', async () => {
    await seedShop(stack, SHOP_A, 'Alpha', DEMO_CATALOG[0]!.id);
    const rates = (await checkoutsUntilRated(SHOP_A)) as { total_price: string }[];
    const seen = await until(
      () => list(SHOP_A),
      (l) => l.checkouts.some((c) => c.rates.length > 0),
      'the checkout in the list',
    );
    expect(seen).toMatchObject({ enabled: true, retention_days: 14, kept_at_most: 200 });
    const checkout = seen.checkouts.find((c) => c.rates.length > 0)!;
    expect(checkout).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      at: expect.any(String),
      country: 'CA',
      currency: 'USD',
      lines: [
        {
          product_id: '48447225880',
          variant_id: '258644705304',
          quantity: 1,
          price: 2500,
          grams: 1000,
          // Kept for item conditions; the double's line has no SKU, and an empty one is left out.
          vendor: 'Ratesmith Demo',
        },
      ],
      // The rates answered, in checkout's order (the seeded shop's regular and bump rates).
      rates: rates.map((rate) => expect.objectContaining({ total_price: rate.total_price })),
      latency_ms: expect.any(Number),
    });
    expect(checkout.latency_ms).toBeGreaterThan(0);
    expect(checkout.latency_ms).toBeLessThan(1000);
    id = checkout.id;

    const one = await stack.api(`/api/recent-checkouts/${id}`);
    expect(one.status).toBe(200);
    const trace = one.body.checkout.trace as {
      steps: { filterName: string; region?: string; postalCode?: string }[];
      matchedAny: boolean;
    };
    expect(one.body.checkout).toMatchObject({ id, country: 'CA', rates: checkout.rates });
    // The seeded ruleset's filter and the product rule's were evaluated, as the preview shows them.
    expect(trace.steps.length).toBeGreaterThan(0);
    expect(trace.steps.map((s) => s.filterName).join(' ')).toContain('Alpha');
    expect(trace.matchedAny).toBe(true);
    for (const step of trace.steps) {
      expect(step.region).toBeUndefined();
      expect(step.postalCode).toBeUndefined();
    }
  });

  it('stores nothing about the customer: no name, address, email, phone or postal code', async () => {
    const docs = await stored(SHOP_A);
    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) {
      const { trace, ...rest } = doc;
      const text = JSON.stringify(rest);
      const decoded = fromBinary(rateEngineV1.TraceSchema, trace.buffer as Uint8Array);
      const traceText = JSON.stringify(decoded, (_k, v: unknown) =>
        typeof v === 'bigint' ? String(v) : v,
      );
      for (const personal of PERSONAL_TEXTS) {
        expect(text).not.toContain(personal);
        expect(traceText).not.toContain(personal);
      }
      expect(decoded.steps.every((s) => s.region === undefined && s.postalCode === undefined)).toBe(
        true,
      );
    }
  });

  it('another shop sees none of it, not even by the id', async () => {
    expect((await list(SHOP_B)).checkouts).toEqual([]);
    const res = await stack.api(`/api/recent-checkouts/${id}`, { token: stack.token(SHOP_B) });
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('48447225880');
  });

  it('an unknown or malformed id is a clear 404 or 400', async () => {
    const missing = await stack.api(`/api/recent-checkouts/${missingId()}`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('This checkout is no longer kept.');
    const malformed = await stack.api('/api/recent-checkouts/not-an-id');
    expect(malformed.status).toBe(400);
  });

  it('samples at most 6 callbacks of a shop a minute', async () => {
    const shop = 'busy-recent.myshopify.com';
    await seedShop(stack, shop, 'Busy', DEMO_CATALOG[1]!.id);
    await checkoutsUntilRated(shop);
    for (let i = 0; i < 20; i++) await stack.shopify.checkout(shop, body());
    // A flush or two later the list holds the sampled ones only (the minute may turn once).
    await new Promise((r) => setTimeout(r, 800));
    const seen = (await list(shop)).checkouts.length;
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThanOrEqual(12);
  });

  it('Settings turn them off (none sampled or stored) and bound their sampling and days', async () => {
    const shop = 'recent-off.myshopify.com';
    await seedShop(stack, shop, 'Off', DEMO_CATALOG[3]!.id);
    const save = (json: Record<string, unknown>) =>
      stack.api('/api/settings', { method: 'POST', token: stack.token(shop), json });
    const refused = await save({ recent_checkouts_per_minute: 31, recent_checkouts_days: 15 });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(
      'Recent checkouts can sample 1 to 30 checkouts a minute.',
    );
    expect(JSON.stringify(refused.body)).toContain(
      'Recent checkouts can be kept for 1 to 14 days.',
    );
    // A typed 0 is refused too, not read as "the default" (the fields carry their presence).
    const zero = await save({ recent_checkouts_per_minute: 0, recent_checkouts_days: 0 });
    expect(zero.status).toBe(400);
    expect(JSON.stringify(zero.body)).toContain(
      'Recent checkouts can sample 1 to 30 checkouts a minute.',
    );
    expect(JSON.stringify(zero.body)).toContain('Recent checkouts can be kept for 1 to 14 days.');
    const off = await save({ recent_checkouts_enabled: false, recent_checkouts_days: 3 });
    expect(off.status).toBe(200);
    expect(off.body.settings).toMatchObject({
      recent_checkouts_enabled: false,
      recent_checkouts_per_minute: 6,
      recent_checkouts_days: 3,
    });
    // Until the engine has the new snapshot, a callback may still be sampled: the rules
    // service then refuses to store it, as the setting is off.
    await checkoutsUntilRated(shop);
    for (let i = 0; i < 5; i++) await stack.shopify.checkout(shop, body());
    await new Promise((r) => setTimeout(r, 800));
    expect(await list(shop)).toMatchObject({ enabled: false, retention_days: 3, checkouts: [] });
    expect(await stored(shop)).toEqual([]);
  });

  it('shop/redact deletes them', async () => {
    const shop = 'redacted-recent.myshopify.com';
    await seedShop(stack, shop, 'Gone', DEMO_CATALOG[2]!.id);
    await checkoutsUntilRated(shop);
    await until(
      () => list(shop),
      (l) => l.checkouts.length > 0,
      'the checkout in the list',
    );
    stack.shopify.uninstall(shop);
    const hook = (topic: string) =>
      stack.shopify.sendWebhook(`${stack.baseUrl}/webhooks/${topic}`, topic, shop);
    expect((await hook('app/uninstalled')).status).toBe(200);
    expect((await hook('shop/redact')).status).toBe(200);
    await until(
      async () => (await stored(shop)).length,
      (n) => n === 0,
      "the shop's recent checkouts to go",
    );
  });
});
