import { Kvm, type KV } from '@nats-io/kv';
import { rateEngineV1 } from '@ratesmith/contracts';
import { startNatsServer, type RunningServer } from '@ratesmith/devstack';
import { connectNats, createLogger, RpcClient, type NatsConnection } from '@ratesmith/kit';
import { startRateEngine } from '../src/service';
import {
  CART_A,
  CASES,
  MAX_SAFE_CENTS,
  MILLION_UNITS,
  REJECTED,
  always,
  bump,
  filter,
  nearMaxFee,
  request,
  snapshot,
  standard,
} from './fixtures/cases';
import {
  callCarrier,
  newRateKey,
  previewRequest,
  ratesJson,
  runQuoteCommand,
  SECRET,
  sign,
  traceJson,
  waitFor,
} from './helpers';

/**
 * The three callers of the engine (the quote command, Shopify's carrier
 * callback over HTTP, the admin preview over NATS) agree on every shared case.
 */
const BUCKET = 'snapshots_callers';
const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
let nats: RunningServer;
let nc: NatsConnection;
let kv: KV;
let engine: Awaited<ReturnType<typeof startRateEngine>>;
let baseUrl: string;
let preview: RpcClient<(typeof rateEngineV1.RateEngineService)['method']>;
const keys: string[] = [];
const shopOf = (i: number) => `case-${i}.myshopify.com`;
const engineConfig = {
  NATS_SUBJECT_PREFIX: '',
  CARRIER_PORT: 0,
  SHOPIFY_API_SECRET: SECRET,
  CARRIER_HMAC_MODE: 'enforce' as const,
  CARRIER_BODY_LIMIT: 64 * 1024,
  CARRIER_MAX_ITEMS: 100,
  SNAPSHOT_BUCKET: BUCKET,
  SNAPSHOT_CACHE_SIZE: 20,
  SNAPSHOT_FETCH_TIMEOUT_MS: 1000,
  // Generated code from a shop's 2nd quote, with no compile budget to speak of, so the
  // third answer of every case below comes from the hot tier.
  COMPILE_AFTER_QUOTES: 2,
  COMPILES_PER_SECOND: 1000,
};

/**
 * The callback's clock: a case with a request time sets it just before calling, so the
 * callback's own arrival reading is that instant (the quote command gets it as `now`,
 * the preview as its order time); otherwise the real time.
 */
let clockAt: number | undefined;
const clock = () => clockAt ?? Date.now();

async function put(shop: string, snap: Record<string, unknown>) {
  await kv.put(shop, JSON.stringify({ ...snap, shop }));
}

beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connectNats({ url: nats.url, name: 'test', logger });
  kv = await new Kvm(nc).create(BUCKET, { history: 1 });
  for (let i = 0; i < CASES.length; i++) {
    keys.push(newRateKey());
    await put(shopOf(i), { ...CASES[i]!.snapshot, rateKey: keys[i] });
  }
  engine = await startRateEngine({
    config: engineConfig,
    logger,
    nc,
    host: '127.0.0.1',
    clock,
  });
  baseUrl = `http://127.0.0.1:${engine.port}`;
  preview = new RpcClient(nc, rateEngineV1.RateEngineService, {
    timeoutMs: 3000,
    displayName: 'rate engine',
  });
  await waitFor(() => engine.ready(), 10_000);
}, 60_000);

afterAll(async () => {
  await engine?.stop();
  await nc?.close();
  await nats?.stop();
});

describe('every shared case gives the same rates through all three callers', () => {
  let commandOutput: any[];
  beforeAll(async () => {
    const input = CASES.map((c) => ({ snapshot: c.snapshot, request: c.request, now: c.now }));
    const { code, stdout, stderr } = await runQuoteCommand(JSON.stringify(input));
    expect([code, stderr]).toEqual([0, '']);
    commandOutput = JSON.parse(stdout);
  }, 60_000);

  it.each(CASES.map((c, i) => [c.name, i] as const))('%s', async (_name, i) => {
    const c = CASES[i]!;
    const fromCommand = commandOutput[i];
    clockAt = c.now === undefined ? undefined : Date.parse(c.now);
    const http = await callCarrier(baseUrl, keys[i]!, c.request);
    const fromPreview = await preview.call(
      'previewRates',
      previewRequest(shopOf(i), c.request, c.now),
    );
    // By now the shop was quoted twice: this answer comes from the hot tier (generated code).
    const hot = await callCarrier(baseUrl, keys[i]!, c.request);
    clockAt = undefined;
    expect(engine.hotTier.stats()).toMatchObject({ deferred: 0 });
    expect(engine.hotTier.stats().held).toBeGreaterThan(0);
    expect(hot).toEqual(http);
    expect(fromCommand.rates).toEqual(c.rates);
    expect(http).toMatchObject({ status: 200, json: { rates: c.rates } });
    expect(Object.keys(http.json)).toEqual(['rates']);
    expect(ratesJson(fromPreview.rates)).toEqual(c.rates);
    expect(traceJson(fromPreview.trace)).toEqual(fromCommand.trace);
  });
});

describe('delivery dates without a set clock', () => {
  // Every day a business day and a 0-day window: the date is the day the request arrives.
  const snap = snapshot({
    filters: [filter(always(), 1, 1)],
    settings: { business_days: [1, 2, 3, 4, 5, 6, 7], delivery_min_days: 0, delivery_max_days: 0 },
  });

  it("the callback dates a quote by the time it arrived; the quote command's missing now is the current time", async () => {
    const key = newRateKey();
    await put('dated-now.myshopify.com', { ...snap, rateKey: key });
    await waitFor(() => engine.store.shopForKey(key) !== undefined, 5000);
    const before = new Date().toISOString();
    const http = await callCarrier(baseUrl, key, request(CART_A));
    const command = await runQuoteCommand(
      JSON.stringify({ snapshot: snap, request: request(CART_A) }),
    );
    const after = new Date().toISOString();
    // The same quote at the instants around the calls: the answers are one of these.
    const around = await runQuoteCommand(
      JSON.stringify(
        [before, after].map((now) => ({ snapshot: snap, request: request(CART_A), now })),
      ),
    );
    const expected = (JSON.parse(around.stdout) as { rates: unknown[] }[]).map((o) => o.rates);
    expect(expected).toContainEqual(http.json.rates);
    expect(expected).toContainEqual(JSON.parse(command.stdout).rates);
    expect(http.json.rates[0].min_delivery_date).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00 \+0000$/);
  });

  it('the preview refuses an order time that is not an instant, with one line', async () => {
    await expect(
      preview.call(
        'previewRates',
        previewRequest(shopOf(0), request(CART_A), '2026-02-30T10:00:00Z'),
      ),
    ).rejects.toMatchObject({
      kind: 'invalid_data',
      message: expect.stringMatching(/^The order time must be an ISO 8601 instant/),
    });
  });

  it('the quote command refuses a bad now with one line on stderr', async () => {
    const { code, stdout, stderr } = await runQuoteCommand(
      JSON.stringify({ snapshot: snap, request: request(CART_A), now: '2026-12-01T10:00:00' }),
    );
    expect([code, stdout]).toEqual([1, '']);
    expect(stderr).toBe(
      'quote: now must be an ISO 8601 instant with Z or an offset, such as 2026-11-27T15:30:00-05:00\n',
    );
  });
});

describe('every shared rejected input is refused by all three callers with the same message', () => {
  const rejectedKeys: string[] = [];
  beforeAll(async () => {
    for (let i = 0; i < REJECTED.length; i++) {
      rejectedKeys.push(newRateKey());
      await put(`rejected-${i}.myshopify.com`, {
        ...REJECTED[i]!.snapshot,
        rateKey: rejectedKeys[i],
      });
    }
    await waitFor(
      () => rejectedKeys.every((key) => engine.store.shopForKey(key) !== undefined),
      5000,
    );
  });

  it.each(REJECTED.map((c, i) => [c.name, i] as const))('%s', async (_name, i) => {
    const c = REJECTED[i]!;
    const command = await runQuoteCommand(
      JSON.stringify({ snapshot: c.snapshot, request: c.request }),
    );
    expect(command.code).toBe(1);
    expect(command.stderr.trim()).toMatch(new RegExp(`^quote: request: ${c.error.source}$`));
    const http = await callCarrier(baseUrl, rejectedKeys[i]!, c.request);
    expect(http.status).toBe(400);
    expect(http.json.error).toMatch(c.error);
    await expect(
      preview.call('previewRates', previewRequest(`rejected-${i}.myshopify.com`, c.request)),
    ).rejects.toMatchObject({ kind: 'invalid_data', message: expect.stringMatching(c.error) });
  });
});

describe('a bump past 2^53 cents is exact in all three callers', () => {
  // The bump rate is F + cents(cost), exactly (docs/rates.md). With F = 2^53 - 1
  // (see nearMaxFee) and a static bump of 0.02: 9,007,199,254,740,991 + 2 =
  // 9,007,199,254,740,993, which a float sum would round to ...992.
  it('a bump on top of a fee near 2^53 is exact', async () => {
    const snap = nearMaxFee(7_409.91, {
      bump_shipping_enabled: true,
      bump_shipping_action: 2,
      bump_shipping_cost: 0.02,
      bump_shipping_name: 'Bump',
    });
    const expected = [
      { ...standard(0), total_price: MAX_SAFE_CENTS },
      { ...bump(0, 'Bump'), total_price: '9007199254740993' },
    ];
    const key = newRateKey();
    await put('bump-near-max.myshopify.com', { ...snap, rateKey: key });
    await waitFor(() => engine.store.shopForKey(key) !== undefined, 5000);
    const command = await runQuoteCommand(
      JSON.stringify({ snapshot: snap, request: request(MILLION_UNITS) }),
    );
    const http = await callCarrier(baseUrl, key, request(MILLION_UNITS));
    const fromPreview = await preview.call(
      'previewRates',
      previewRequest('bump-near-max.myshopify.com', request(MILLION_UNITS)),
    );
    expect({
      command: JSON.parse(command.stdout).rates,
      http: http.json.rates,
      preview: ratesJson(fromPreview.rates),
    }).toEqual({ command: expected, http: expected, preview: expected });
  });
});

describe('the quote command', () => {
  it('answers a single object with a single object', async () => {
    const c = CASES[0]!;
    const { code, stdout } = await runQuoteCommand(
      JSON.stringify({ snapshot: c.snapshot, request: c.request }),
    );
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ rates: c.rates, trace: expect.any(Object) });
  });

  it.each([
    ['not JSON', '{', /^quote: the input is not valid JSON/],
    [
      'a bad snapshot',
      JSON.stringify({ snapshot: { shop: 1 }, request: {} }),
      /^quote: snapshot\.shop/,
    ],
    [
      'a bad request inside an array',
      JSON.stringify([
        { snapshot: CASES[0]!.snapshot, request: CASES[0]!.request },
        { snapshot: CASES[0]!.snapshot, request: { rate: { currency: 'USD' } } },
      ]),
      /^quote: input\[1\]: request: rate.items must be an array/,
    ],
  ])('exits non-zero with one line on stderr for %s', async (_name, input, message) => {
    const { code, stdout, stderr } = await runQuoteCommand(input);
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  });
});

describe('the carrier callback', () => {
  const body = JSON.stringify(request(CART_A));

  it('refuses unsigned and badly signed requests with 401 and no body', async () => {
    for (const signature of [null, '', sign(body, 'another-secret'), 'bm90IGEgc2lnbmF0dXJl']) {
      const res = await callCarrier(baseUrl, keys[0]!, body, { signature });
      expect([res.status, res.text]).toEqual([401, '']);
    }
  });

  it('in monitor mode answers unsigned and badly signed requests (they are only counted)', async () => {
    const monitor = await startRateEngine({
      config: { ...engineConfig, CARRIER_HMAC_MODE: 'monitor' },
      logger,
      nc,
      host: '127.0.0.1',
    });
    try {
      await waitFor(() => monitor.ready(), 10_000);
      const url = `http://127.0.0.1:${monitor.port}`;
      for (const signature of [null, sign(body, 'another-secret'), sign(body)]) {
        const res = await callCarrier(url, keys[0]!, body, { signature });
        expect(res.status).toBe(200);
        expect(res.json.rates).toEqual(CASES[0]!.rates);
      }
    } finally {
      await monitor.stop();
    }
  });

  it('answers an unknown key with 404 and no body', async () => {
    const res = await callCarrier(baseUrl, newRateKey(), body);
    expect([res.status, res.text]).toEqual([404, '']);
    const short = await callCarrier(baseUrl, 'abc', body);
    expect([short.status, short.text]).toEqual([404, '']);
  });

  it('answers 404 to other methods and paths', async () => {
    expect((await fetch(`${baseUrl}/carrier/rates/${keys[0]}`)).status).toBe(404);
    expect((await fetch(`${baseUrl}/`, { method: 'POST', body })).status).toBe(404);
  });

  it('answers malformed bodies with 400 and a message', async () => {
    for (const [raw, message] of [
      ['{', /not valid JSON/],
      ['[]', /"rate" object/],
      [JSON.stringify({ rate: { currency: 'USD', items: [{ price: -5, quantity: 1 }] } }), /price/],
      [
        JSON.stringify({
          rate: { currency: 'USD', items: Array(101).fill({ price: 1, quantity: 1 }) },
        }),
        /more than 100 items/,
      ],
    ] as const) {
      const res = await callCarrier(baseUrl, keys[0]!, raw);
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(message);
    }
  });

  it('refuses a body over the limit with 413, and keeps serving', async () => {
    const huge = JSON.stringify({ rate: { currency: 'USD', items: [], pad: 'x'.repeat(70_000) } });
    const res = await callCarrier(baseUrl, keys[0]!, huge);
    expect(res.status).toBe(413);
    const ok = await callCarrier(baseUrl, keys[0]!, body);
    expect(ok.status).toBe(200);
  });

  it('ignores nesting in fields it does not read, in a signed body of a usual size', async () => {
    const deep = `{"rate":{"currency":"USD","items":[],"origin":${'['.repeat(2_000)}${']'.repeat(2_000)}}}`;
    const res = await callCarrier(baseUrl, keys[0]!, deep);
    expect(res.status).toBe(200);
    // Past 8 KB even a signed body is scanned first (no cart of Shopify's nests past 5).
    const deeper = `{"rate":{"currency":"USD","items":[],"origin":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`;
    const refused = await callCarrier(baseUrl, keys[0]!, deeper);
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ error: 'The request body nests too deeply.' });
  });

  it('a shop with a key but no matching rule gets an empty list', async () => {
    const key = newRateKey();
    await put('empty.myshopify.com', { ...snapshot({ filters: null }), rateKey: key, version: 1 });
    await waitFor(() => engine.store.shopForKey(key) !== undefined, 5000);
    expect((await callCarrier(baseUrl, key, body)).json).toEqual({ rates: [] });
  });
});

describe('snapshots', () => {
  const shop = 'versions.myshopify.com';
  const body = request(CART_A);
  const version = (v: number, cents: number, rateKey: string) => ({
    ...snapshot({ filters: [filter(always(), 1, cents / 100)] }),
    version: v,
    rateKey,
  });

  it('a newer version replaces the old; an older one never overwrites it', async () => {
    const key = newRateKey();
    await put(shop, version(5, 500, key));
    await waitFor(async () => (await callCarrier(baseUrl, key, body)).status === 200, 5000);
    expect((await callCarrier(baseUrl, key, body)).json.rates).toEqual([standard(500)]);
    await put(shop, version(6, 600, key));
    await waitFor(
      async () => (await callCarrier(baseUrl, key, body)).json?.rates?.[0]?.total_price === '600',
      5000,
    );
    await put(shop, version(4, 400, key));
    // Barrier: the watch applies the bucket's entries in the order they were
    // written, so once a later write (another shop's) is applied, version 4 was
    // seen too, and ignored.
    const barrier = newRateKey();
    await put('barrier.myshopify.com', version(1, 100, barrier));
    await waitFor(() => engine.store.shopForKey(barrier) !== undefined, 5000);
    expect(engine.store.cached(shop)?.compiled.version).toBe(6);
    expect((await callCarrier(baseUrl, key, body)).json.rates).toEqual([standard(600)]);
  });

  it('a new rate key replaces the old one', async () => {
    const oldKey = newRateKey();
    const newKey = newRateKey();
    await put('rekeyed.myshopify.com', version(1, 100, oldKey));
    await waitFor(() => engine.store.shopForKey(oldKey) !== undefined, 5000);
    await put('rekeyed.myshopify.com', version(2, 100, newKey));
    await waitFor(() => engine.store.shopForKey(newKey) !== undefined, 5000);
    expect((await callCarrier(baseUrl, oldKey, body)).status).toBe(404);
    expect((await callCarrier(baseUrl, newKey, body)).status).toBe(200);
  });

  it('a deleted snapshot forgets the shop and its key', async () => {
    const key = newRateKey();
    await put('deleted.myshopify.com', version(1, 100, key));
    await waitFor(() => engine.store.shopForKey(key) !== undefined, 5000);
    await kv.delete('deleted.myshopify.com');
    await waitFor(() => engine.store.shopForKey(key) === undefined, 5000);
    expect((await callCarrier(baseUrl, key, body)).status).toBe(404);
  });

  it('keeps at most SNAPSHOT_CACHE_SIZE compiled; an evicted shop is read back from the bucket', async () => {
    expect(engine.store.cachedCount).toBeLessThanOrEqual(20);
    // Every case was quoted above, more cases than the cache holds: the first ones were evicted.
    expect(CASES.length).toBeGreaterThan(20);
    const res = await callCarrier(baseUrl, keys[0]!, CASES[0]!.request);
    expect(res.json.rates).toEqual(CASES[0]!.rates);
  });
});

describe('the preview', () => {
  it('quotes a draft in place of the active ruleset, without saving it', async () => {
    const shop = shopOf(0);
    const draft = {
      globalRuleId: 'ruleset-1',
      filters: [
        {
          id: 'd1',
          name: 'Draft',
          rawQuery: {
            id: 'q',
            condition: 'and',
            rules: [
              {
                kind: {
                  case: 'condition' as const,
                  value: {
                    id: 'c',
                    field: 'cart_price',
                    operator: 'greater_than',
                    value: { kind: { case: 'number' as const, value: 10 } },
                  },
                },
              },
            ],
          },
          actionType: 1,
          actionData: 9.99,
          globalRuleAction: 0,
          isShippingOverridden: 'No',
          postProcessingActionType: 1,
        },
      ],
    };
    const reply = await preview.call('previewRates', {
      ...previewRequest(shop, request(CART_A)),
      draft,
    });
    expect(reply.rates.map((r) => r.totalPrice)).toEqual(['999']);
    expect(traceJson(reply.trace).steps).toEqual([
      expect.objectContaining({ filterId: 'd1', matched: true, feeAfter: 999 }),
    ]);
    const again = await preview.call('previewRates', previewRequest(shop, request(CART_A)));
    expect(again.rates.map((r) => r.totalPrice)).toEqual(CASES[0]!.rates.map((r) => r.total_price));
  });

  it('refuses an incomplete draft with every problem', async () => {
    const draft = {
      filters: [
        {
          id: 'x',
          name: 'Empty',
          rawQuery: { id: 'q', condition: 'AND', rules: [] },
          actionType: 1,
          actionData: 1,
        },
        { id: 'y', name: 'Bad', rawQuery: { id: 'q', condition: 'XOR', rules: [] }, actionType: 9 },
      ],
    };
    await expect(
      preview.call('previewRates', { ...previewRequest(shopOf(0), request(CART_A)), draft }),
    ).rejects.toMatchObject({
      kind: 'invalid_data',
      details: expect.arrayContaining([expect.stringMatching(/Rule #2/)]),
    });
  });

  it('refuses a bad cart with a clear message', async () => {
    await expect(
      preview.call('previewRates', { shop: shopOf(0), currency: 'dollars', lines: [] }),
    ).rejects.toMatchObject({ kind: 'invalid_data', message: expect.stringMatching(/currency/) });
  });

  it('quotes no rates for a shop without a snapshot', async () => {
    const reply = await preview.call(
      'previewRates',
      previewRequest('nobody.myshopify.com', request(CART_A)),
    );
    expect(reply.rates).toEqual([]);
    expect(reply.snapshotVersion).toBe(0n);
  });
});
