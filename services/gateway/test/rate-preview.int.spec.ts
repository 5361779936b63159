import { sentCondition, sentFilter } from '@ratesmith/contracts/testing';
import { createHmac, randomBytes } from 'node:crypto';
import { API_SECRET, SHOP_A, SHOP_B, startStack, type Stack } from './harness';

/** POST /api/rate-preview: the gateway, the rules service's snapshot and the rate engine together. */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const condition = sentCondition;
const saver = sentFilter({ action_type: 2, action_data: '1.25' });
const cart = (price: number, country = 'US') => ({
  destination: { country },
  currency: 'USD',
  items: [
    { price, quantity: 2, product_id: 123, variant_id: 456, name: 'Hat' },
    { price: 500, quantity: 1, requires_shipping: false, name: 'Gift card' },
  ],
});
const preview = (json: unknown, token?: string, query = '') =>
  stack.api(`/api/rate-preview${query}`, { method: 'POST', json, token });

beforeAll(async () => {
  const created = await stack.api('/api/global-rules', { method: 'POST', json: { name: 'Main' } });
  const id = created.body.rule.id;
  const saved = await stack.api(`/api/global-rules/update/${id}`, {
    method: 'POST',
    json: { rules: [saver] },
  });
  expect(saved.status).toBe(200);
  expect((await stack.api(`/api/global-rules/${id}/toggle`)).body.status).toBe(true);
  // The snapshot reaches the rate engine through the bucket.
  const deadline = Date.now() + 10_000;
  while ((await preview({ rate: cart(1250) })).body.rates?.length !== 1) {
    if (Date.now() > deadline) throw new Error('the rate engine never saw the snapshot');
    await new Promise((r) => setTimeout(r, 100));
  }
});

describe('POST /api/rate-preview', () => {
  it("quotes a cart against the shop's active ruleset, with the trace", async () => {
    const { status, body } = await preview({ rate: cart(1250) }, undefined, `?shop=${SHOP_A}`);
    expect(status).toBe(200);
    // 2 retail units x 1.25 (the gift card does not ship).
    expect(body).toEqual({
      status: true,
      rates: [
        {
          service_name: 'Saver',
          service_code: 'RATESMITH_STANDARD',
          total_price: '250',
          description: '',
          currency: 'USD',
        },
      ],
      trace: {
        steps: [
          {
            scope: 'global',
            filterId: expect.any(String),
            filterName: 'Cheap carts',
            matched: true,
            actionType: 2,
            feeBefore: 0,
            feeAfter: 250,
            stopped: false,
          },
        ],
        freeItems: null,
        matchedAny: true,
        blocked: false,
        fee: 250,
      },
    });
  });

  it('answers no rates when nothing matches', async () => {
    const { status, body } = await preview({ rate: cart(2500, 'DE') });
    expect(status).toBe(200);
    expect(body.rates).toEqual([]);
    expect(body.trace).toMatchObject({ matchedAny: false, fee: 0 });
  });

  it('quotes unsaved draft filters instead of the active ones, and saves nothing', async () => {
    const draft = { rules: [{ ...saver, action_type: 1, action_data: 7.5 }] };
    const { body } = await preview({ rate: cart(1250), draft });
    expect(body.rates.map((r: any) => r.total_price)).toEqual(['750']);
    const after = await preview({ rate: cart(1250) });
    expect(after.body.rates.map((r: any) => r.total_price)).toEqual(['250']);
  });

  it('previews a draft that blocks shipping for every cart: no rates, the trace says blocked', async () => {
    const everyCart = { condition: 'AND', rules: [] };
    const draft = {
      rules: [
        { ...saver, post_processing_action_type: 1 },
        sentFilter({ name: 'Nowhere', raw_query: everyCart, action_type: 7, action_data: '' }),
        saver,
      ],
    };
    const { status, body } = await preview({ rate: cart(1250), draft });
    expect(status).toBe(200);
    expect(body.rates).toEqual([]);
    expect(body.trace).toMatchObject({ matchedAny: true, blocked: true, fee: 0 });
    expect(body.trace.steps).toEqual([
      expect.objectContaining({ matched: true, actionType: 2, feeAfter: 250, stopped: false }),
      expect.objectContaining({ filterName: 'Nowhere', actionType: 7, stopped: true }),
    ]);
  });

  it('refuses an incomplete draft with every problem', async () => {
    const draft = {
      rules: [
        {
          ...saver,
          raw_query: { condition: 'AND', rules: [condition('cart_price', 'less_than', null)] },
        },
      ],
    };
    const { status, body } = await preview({ rate: cart(1250), draft });
    expect(status).toBe(400);
    expect(body).toEqual({
      status: false,
      message: 'The draft rules cannot be previewed yet.',
      // The editor's own message for it: one validation for save, preview and editor.
      errors: ['Rule #1 has 1 incomplete condition(s)'],
    });
  });

  it('refuses a bad cart with 400', async () => {
    const bad = await preview({ rate: { ...cart(1250), items: [{ price: -1, quantity: 1 }] } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status: false, message: 'The request is not valid.' });
    const currency = await preview({ rate: { ...cart(1250), currency: 'dollars' } });
    expect(currency.status).toBe(400);
    expect(currency.body).toEqual({
      status: false,
      message: 'rate.currency must be a three-letter currency code',
    });
  });

  it('gives a shop with no rules no rates', async () => {
    const { status, body } = await preview({ rate: cart(1250) }, stack.token(SHOP_B));
    expect(status).toBe(200);
    expect(body.rates).toEqual([]);
  });

  it("needs a session token, and refuses a shop other than the token's", async () => {
    expect((await preview({ rate: cart(1250) }, null as never)).status).toBe(401);
    expect((await preview({ rate: cart(1250) }, undefined, `?shop=${SHOP_B}`)).status).toBe(403);
  });

  it('keeps quoting, at checkout and in the preview, with the rules service stopped', async () => {
    // The auth service gives each shop its rate key; here it is put in the snapshot directly.
    const entry = await stack.kv.get(SHOP_A);
    const current = entry!.json() as Record<string, unknown>;
    const rateKey = randomBytes(16).toString('hex');
    await stack.kv.put(
      SHOP_A,
      JSON.stringify({ ...current, version: (current.version as number) + 1, rateKey }),
    );
    await stack.stopRules();
    try {
      const body = JSON.stringify({ rate: cart(1250) });
      const signature = createHmac('sha256', API_SECRET).update(body).digest('base64');
      let res: Response | undefined;
      const deadline = Date.now() + 5000;
      do {
        res = await fetch(`${stack.carrierUrl}/carrier/rates/${rateKey}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-shopify-hmac-sha256': signature },
          body,
        });
      } while (res.status === 404 && Date.now() < deadline);
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).rates.map((r: any) => r.total_price)).toEqual(['250']);
      expect((await preview({ rate: cart(1250) })).body.rates[0].total_price).toBe('250');
    } finally {
      await stack.startRules();
    }
  });

  it('answers 503 with Retry-After when the rate engine is down', async () => {
    await stack.stopRateEngine();
    const { status, body, headers } = await preview({ rate: cart(1250) });
    expect(status).toBe(503);
    expect(headers.get('retry-after')).toBe('5');
    expect(body).toEqual({ status: false, message: expect.stringMatching(/rate engine/) });
  });
});
