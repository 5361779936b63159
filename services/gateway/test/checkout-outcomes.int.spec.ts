import { rulesV1 } from '@ratesmith/contracts';
import { RpcClient } from '@ratesmith/kit';
import { carrierRateRequest } from '@ratesmith/shopify-double';
import { ratesmithInEveryZone, SHOP_A, SHOP_B, startStack, until, type Stack } from './harness';

/**
 * The fallback rate and the checkout outcomes path end to end: Settings turn
 * the fallback on, a real carrier callback that no filter matches gets it, the
 * engine counts it and sends the count and a sample cart over NATS to the rules
 * service (FerretDB), and GET /api/checkout-outcomes shows them to the shop only.
 */
let stack: Stack;
beforeAll(async () => {
  // Outcomes go every 200 ms here (5 s in production) so the test need not wait long.
  stack = await startStack({}, {}, {}, {}, { OUTCOME_FLUSH_MS: 200 });
});
afterAll(() => stack?.stop());

const FALLBACK = {
  carrier_name: 'Post',
  fallback_enabled: true,
  fallback_name: 'Standard',
  fallback_description: 'Backup rate',
  fallback_cost: 7.5,
};
const FALLBACK_RATE = {
  service_name: 'Standard',
  service_code: 'RATESMITH_FALLBACK',
  total_price: '750',
  description: 'Backup rate',
  currency: 'USD',
};

const outcomes = async (shop: string) => {
  const res = await stack.api('/api/checkout-outcomes', { token: stack.token(shop) });
  expect(res.status).toBe(200);
  return res.body as {
    days: number;
    fallback: number;
    no_rate: number;
    fallback_enabled: boolean;
    carts: { outcome: string; country: string; currency: string; lines: unknown[] }[];
  };
};

/** One checkout of the shop through the Shopify double; the rates the app answered. */
const checkout = async (shop: string, body?: unknown) => {
  ratesmithInEveryZone(stack, shop);
  const [answer] = await stack.shopify.checkout(shop, body);
  expect(answer!.status).toBe(200);
  return (answer!.body as { rates: { service_code: string }[] }).rates;
};

const rulesDocs = (collection: string, shop: string) =>
  stack.dbs.rules.db!.collection(collection).find({ shop }).toArray();

/** Checkouts until the shop's snapshot answers the fallback; each answer tallied. */
async function checkoutsUntilFallback(shop: string) {
  const tally = { fallback: 0, no_rate: 0 };
  await until(
    async () => {
      const rates = await checkout(shop);
      if (rates.length === 0) tally.no_rate++;
      else if (rates[0]!.service_code === 'RATESMITH_FALLBACK') tally.fallback++;
      return rates;
    },
    (rates) => rates[0]?.service_code === 'RATESMITH_FALLBACK',
    'the fallback rate at checkout',
  );
  return tally;
}

describe('the fallback rate at checkout', () => {
  it('answers a cart no filter matched with the fallback; counts and samples reach the API', async () => {
    // The shop installs itself on its first call; no ruleset is active, so nothing matches.
    expect((await stack.api('/api/settings', { method: 'POST', json: FALLBACK })).status).toBe(200);
    const tally = await checkoutsUntilFallback(SHOP_A);
    expect(await checkout(SHOP_A)).toEqual([FALLBACK_RATE]);
    tally.fallback++;

    const seen = await until(
      () => outcomes(SHOP_A),
      (o) => o.fallback === tally.fallback && o.no_rate === tally.no_rate,
      'the counts at the API',
    );
    expect(seen).toMatchObject({ days: 7, fallback_enabled: true });
    // The double's cart: figures, ids and the product's vendor, nothing about the customer.
    expect(seen.carts[0]).toEqual({
      outcome: 'fallback',
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
          vendor: 'Ratesmith Demo',
        },
      ],
    });
    // No row per callback: one counter document per shop per day.
    expect(await rulesDocs('checkout_outcome_days', SHOP_A)).toHaveLength(1);
    // Nothing about the customer is stored: the request's names, city and postal code.
    const stored = JSON.stringify(await rulesDocs('checkout_sample_carts', SHOP_A));
    for (const personal of ['Short Sleeve', 'Ottawa', 'K1M', 'ON']) {
      expect(stored).not.toContain(personal);
    }
  });

  it('another shop sees none of it', async () => {
    expect(await outcomes(SHOP_B)).toEqual({
      status: true,
      message: '',
      days: 7,
      fallback: 0,
      no_rate: 0,
      blocked: 0,
      fallback_enabled: false,
      carts: [],
    });
  });

  it('with the fallback off a miss is counted as no rate', async () => {
    const shop = 'no-fallback.myshopify.com';
    // Its first call installs the shop (and registers its carrier service).
    expect((await stack.api('/api/settings', { token: stack.token(shop) })).status).toBe(200);
    expect(await checkout(shop)).toEqual([]);
    const seen = await until(
      () => outcomes(shop),
      (o) => o.no_rate === 1,
      'the no-rate count',
    );
    expect(seen).toMatchObject({ fallback: 0, fallback_enabled: false });
    expect(seen.carts[0]).toMatchObject({ outcome: 'no_rate', country: 'CA' });
  });

  it('a checkout a Block Shipping rule answered is counted as no rate and as blocked, with no cart kept', async () => {
    const shop = 'blocks-all.myshopify.com';
    const token = stack.token(shop);
    const created = await stack.api('/api/global-rules', {
      method: 'POST',
      token,
      json: { name: 'Nowhere' },
    });
    const id = created.body.rule.id as string;
    const block = {
      name: 'Nowhere',
      raw_query: { condition: 'AND', rules: [] },
      action_type: 7,
      post_processing_action_type: 0,
    };
    const saved = await stack.api(`/api/global-rules/update/${id}`, {
      method: 'POST',
      token,
      json: { rules: [block] },
    });
    expect(saved.status).toBe(200);
    expect((await stack.api(`/api/global-rules/${id}/toggle`, { token })).body.status).toBe(true);
    // Until the engine has the snapshot a checkout gets no rate too, unblocked: count both.
    type Seen = Awaited<ReturnType<typeof outcomes>> & { blocked: number };
    let checkouts = 0;
    await until(
      async () => {
        checkouts++;
        expect(await checkout(shop)).toEqual([]);
        return (await outcomes(shop)) as Seen;
      },
      (o) => o.blocked >= 1,
      'a blocked checkout counted',
    );
    const seen = await until(
      async () => (await outcomes(shop)) as Seen,
      (o) => o.no_rate === checkouts,
      'every checkout counted',
    );
    expect(seen.blocked).toBeLessThanOrEqual(seen.no_rate);
    // A blocked cart is no rate on purpose: none is kept to look at.
    expect(seen.carts.length).toBe(seen.no_rate - seen.blocked);
  });

  it('a callback does not wait for the rules service: down, callbacks stay fast and are counted once it is back', async () => {
    const before = await outcomes(SHOP_A);
    await stack.stopRules();
    try {
      for (let i = 0; i < 10; i++) {
        const started = performance.now();
        expect(await checkout(SHOP_A)).toEqual([FALLBACK_RATE]);
        // A callback over loopback; the failed sends happen on the timer, not here.
        expect(performance.now() - started).toBeLessThan(250);
      }
      // Let several flushes fail: the batches wait in the backlog.
      await new Promise((r) => setTimeout(r, 1000));
    } finally {
      await stack.startRules();
    }
    await until(
      () => outcomes(SHOP_A),
      (o) => o.fallback === before.fallback + 10,
      'the counts kept while the rules service was down',
    );
  });

  it('shop/redact deletes its counters and sample carts', async () => {
    const shop = 'redacted-outcomes.myshopify.com';
    expect(
      (
        await stack.api('/api/settings', {
          method: 'POST',
          token: stack.token(shop),
          json: FALLBACK,
        })
      ).status,
    ).toBe(200);
    await checkoutsUntilFallback(shop);
    await until(
      () => outcomes(shop),
      (o) => o.fallback >= 1,
      'the count',
    );
    stack.shopify.uninstall(shop);
    const hook = (topic: string) =>
      stack.shopify.sendWebhook(`${stack.baseUrl}/webhooks/${topic}`, topic, shop);
    expect((await hook('app/uninstalled')).status).toBe(200);
    expect((await hook('shop/redact')).status).toBe(200);
    await until(
      async () =>
        (await rulesDocs('checkout_outcome_days', shop)).length +
        (await rulesDocs('checkout_sample_carts', shop)).length,
      (n) => n === 0,
      "the shop's outcomes to go",
    );
  });

  it('lines that do not ship are left out of the sample', async () => {
    const body = carrierRateRequest({
      items: [
        { quantity: 2, price: 1000, grams: 50, requires_shipping: true, product_id: 7 },
        { quantity: 1, price: 500, grams: 0, requires_shipping: false, product_id: 8 },
      ],
    });
    const before = await outcomes(SHOP_A);
    expect(await checkout(SHOP_A, body)).toEqual([FALLBACK_RATE]);
    const seen = await until(
      () => outcomes(SHOP_A),
      (o) => o.fallback === before.fallback + 1,
      'the count',
    );
    expect(seen.carts[0]!.lines).toEqual([
      { product_id: '7', variant_id: '', quantity: 2, price: 1000, grams: 50 },
    ]);
  });

  it('a batch that counts more blocked than no-rate checkouts cannot make a negative miss', async () => {
    const rules = new RpcClient(stack.nc, rulesV1.RulesService, {
      timeoutMs: 2000,
      subjectPrefix: stack.servers.subjectPrefix,
      displayName: 'rules',
    });
    const shop = 'overblocked.myshopify.com';
    expect((await stack.api('/api/settings', { token: stack.token(shop) })).status).toBe(200);
    const day = new Date().toISOString().slice(0, 10);
    const { NO_RATE, BLOCKED } = rulesV1.CheckoutOutcome;
    await rules.call('recordCheckoutOutcomes', {
      counts: [
        { shop, day, outcome: NO_RATE, count: 1 },
        { shop, day, outcome: BLOCKED, count: 5 },
      ],
      carts: [],
    });
    expect(await outcomes(shop)).toMatchObject({ no_rate: 1, blocked: 1 });
  });

  it('the rules service refuses a malformed batch whole, writing nothing', async () => {
    const rules = new RpcClient(stack.nc, rulesV1.RulesService, {
      timeoutMs: 2000,
      subjectPrefix: stack.servers.subjectPrefix,
      displayName: 'rules',
    });
    const shop = 'malformed-batch.myshopify.com';
    const count = { shop, day: '2026-11-24', outcome: rulesV1.CheckoutOutcome.FALLBACK, count: 1 };
    const cart = {
      shop,
      outcome: rulesV1.CheckoutOutcome.FALLBACK,
      at: '2026-11-24T10:00:00.000Z',
      country: 'CA',
      currency: 'USD',
      lines: [{ productId: '1', variantId: '', quantity: 1, price: 100, grams: 1 }],
    };
    const detailFilter = {
      owner: rulesV1.FilterOwner.RULESET,
      ownerId: 'a'.repeat(24),
      filterId: 'f1',
      matched: 1,
      stopped: 1,
      fee: 100,
    };
    for (const bad of [
      { counts: [count, { ...count, shop: 'not a shop' }], carts: [] },
      { counts: [count, { ...count, outcome: rulesV1.CheckoutOutcome.UNSPECIFIED }], carts: [] },
      { counts: [count, { ...count, day: 'yesterday' }], carts: [] },
      { counts: [count], carts: [{ ...cart, lines: [{ ...cart.lines[0]!, productId: 'gid' }] }] },
      { counts: [count], carts: [{ ...cart, at: 'soon' }] },
      // Per-filter analytics (analytics.int.spec.ts): each detail is checked too.
      ...[
        { owner: rulesV1.FilterOwner.UNSPECIFIED },
        { ownerId: 'not-an-object-id' },
        { filterId: '' },
        { filterId: 'x'.repeat(129) },
        { stopped: 2 },
        { fee: 0.5 },
      ].map((bad) => ({
        counts: [count],
        carts: [],
        details: [
          {
            shop,
            day: '2026-11-24',
            feeBuckets: [1],
            filters: [{ ...detailFilter, ...bad }],
          },
        ],
      })),
      {
        counts: [count],
        carts: [],
        details: [{ shop, day: '2026-11-24', feeBuckets: [0, 0, 0, 0, 0, 0, 0, 1], filters: [] }],
      },
    ]) {
      await expect(rules.call('recordCheckoutOutcomes', bad)).rejects.toMatchObject({
        kind: 'invalid_data',
      });
    }
    expect(await rulesDocs('checkout_outcome_days', shop)).toEqual([]);
    expect(await rulesDocs('checkout_sample_carts', shop)).toEqual([]);
  });
});
