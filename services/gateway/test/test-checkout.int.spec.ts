import { ratesmithInEveryZone, SHOP_A, SHOP_B, startStack, until, type Stack } from './harness';

/**
 * POST /api/test-checkout: in demo mode, the preview's cart through the
 * Shopify double's checkout and the app's real signed carrier callback
 * (CARRIER_HMAC_MODE enforce here), so Recent checkouts fills; absent (404)
 * outside demo mode.
 */
const rate = (over: Record<string, unknown> = {}) => ({
  destination: { country: 'CA', province: 'ON', postal_code: 'K1M1M4' },
  currency: 'USD',
  items: [{ price: 2500, quantity: 2, grams: 300, product_id: 7, name: 'Tee' }],
  ...over,
});

describe('in demo mode', () => {
  let stack: Stack;
  beforeAll(async () => {
    // Batches go every 200 ms here (5 s in production).
    stack = await startStack(
      { DEMO_MODE: 'true', DEMO_SHOPS: `${SHOP_A},${SHOP_B}` },
      {},
      {},
      {},
      { OUTCOME_FLUSH_MS: 200 },
    );
    const created = await stack.api('/api/global-rules', { method: 'POST', json: { name: 'CA' } });
    const id = created.body.rule.id as string;
    const saved = await stack.api(`/api/global-rules/update/${id}`, {
      method: 'POST',
      json: {
        rules: [
          {
            name: 'Canada flat',
            raw_query: {
              condition: 'AND',
              rules: [
                { type: 'condition', field: 'shipping_country', operator: 'equal', value: 'CA' },
              ],
            },
            action_type: 1,
            action_data: 9,
          },
        ],
      },
    });
    expect(saved.status).toBe(200);
    expect((await stack.api(`/api/global-rules/${id}/toggle`)).body.status).toBe(true);
    // Shop A's carrier service takes part in every zone; shop B's in none (installed below).
    ratesmithInEveryZone(stack, SHOP_A);
    await until(
      () => stack.api('/api/rate-preview', { method: 'POST', json: { rate: rate() } }),
      (r) => r.body.rates?.[0]?.total_price === '900',
      'the rate engine to see the ruleset',
    );
  }, 90_000);
  afterAll(() => stack?.stop());

  const send = (json: unknown, token?: string) =>
    stack.api('/api/test-checkout', { method: 'POST', json, token });

  it("answers checkout's rates, equal to the preview's, and Recent checkouts lists it", async () => {
    const preview = await stack.api('/api/rate-preview', {
      method: 'POST',
      json: { rate: rate() },
    });
    const { status, body } = await send({ rate: rate() });
    expect(status).toBe(200);
    expect(body).toEqual({
      status: true,
      zone: 'Canada',
      asked: true,
      rates: preview.body.rates,
      message: 'Checkout asked Ratesmith (zone Canada) and got 1 rate.',
    });
    const listed = await until(
      () => stack.api('/api/recent-checkouts'),
      (r) => r.body.checkouts?.length > 0,
      'the test checkout in Recent checkouts',
    );
    expect(listed.body.checkouts[0]).toMatchObject({
      country: 'CA',
      currency: 'USD',
      rates: [{ total_price: '900' }],
      lines: [{ price: 2500, quantity: 2, grams: 300, product_id: '7' }],
    });
  });

  it("works in the session's shop only: naming another shop is refused, its data untouched", async () => {
    const listOf = async (shop: string) =>
      (await stack.api('/api/recent-checkouts', { token: stack.token(shop) })).body.checkouts
        .length as number;
    const before = await listOf(SHOP_B);
    // The session's own shop named in the body is the session's shop: it goes through.
    const own = await send({ shop: SHOP_A, rate: rate() });
    expect(own.status).toBe(200);
    expect(own.body.rates[0].total_price).toBe('900');
    for (const [path, json] of [
      ['/api/test-checkout', { shop: SHOP_B, rate: rate() }],
      [`/api/test-checkout?shop=${SHOP_B}`, { rate: rate() }],
    ] as const) {
      const other = await stack.api(path, { method: 'POST', json });
      expect(other.status).toBe(403);
      expect(other.body.message).toBe('This request names a different shop than your session.');
    }
    // Batches go every 200 ms: had a cart reached shop B, its list would have grown by now.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await listOf(SHOP_B)).toBe(before);
  });

  it('says in words when checkout does not ask the app', async () => {
    // Shop B: installed by this call, its carrier service in no zone.
    const { status, body } = await send({ rate: rate() }, stack.token(SHOP_B));
    expect(status).toBe(200);
    expect(body).toEqual({
      status: true,
      zone: 'Canada',
      asked: false,
      rates: [],
      message:
        'Ratesmith takes part in no rate of the zone Canada, so checkout did not ask it. Add it to that zone under Shipping zones.',
    });
    const noProvince = await send({ rate: rate({ destination: { country: 'CA' } }) });
    expect(noProvince.body).toMatchObject({ zone: null, asked: false, rates: [] });
    expect(noProvince.body.message).toBe(
      'The shop ships to no shipping zone holding this address, so checkout asked no carrier service. A zone of a country with states or provinces holds an address only with one: choose it.',
    );
    const nowhere = await send({
      rate: rate({ destination: { country: 'AQ' } }),
    });
    expect(nowhere.status).toBe(200);
    expect(nowhere.body.message).toBe(
      'Checkout asked Ratesmith (zone Rest of world) and got no rate: no rule matched, or a rule blocked shipping.',
    );
  });

  it('refuses a cart out of bounds with 400, in words', async () => {
    const cases: [unknown, string][] = [
      [{}, 'rate: Invalid input: expected object, received undefined'],
      [{ rate: rate({ items: [] }) }, 'rate.items: must hold at least one line'],
      [
        { rate: rate({ items: Array.from({ length: 51 }, () => ({ price: 1, quantity: 1 })) }) },
        'rate.items: must hold at most 50 lines',
      ],
      [{ rate: rate({ items: [{ price: 1, quantity: 0 }] }) }, 'rate.items.0.quantity'],
      [{ rate: rate({ items: [{ price: 1, quantity: 1, name: 'x'.repeat(256) }] }) }, 'name'],
      [
        { rate: rate({ destination: { country: 'Canada' } }) },
        'rate.destination.country: must be a two-letter country code such as CA',
      ],
      [{ rate: rate({ currency: 'usd' }) }, 'rate.currency'],
    ];
    for (const [json, problem] of cases) {
      const { status, body } = await send(json);
      expect(status).toBe(400);
      expect(body.message).toBe('The request is not valid.');
      expect((body.errors as string[]).join('\n')).toContain(problem);
    }
  });
});

describe('outside demo mode', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  }, 60_000);
  afterAll(() => stack?.stop());

  it('has no test checkout (404)', async () => {
    const { status, body } = await stack.api('/api/test-checkout', {
      method: 'POST',
      json: { rate: rate() },
    });
    expect(status).toBe(404);
    expect(body).toEqual({ status: false, message: 'Not found.' });
  });
});
