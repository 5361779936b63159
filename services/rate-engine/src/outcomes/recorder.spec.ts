import { create, toBinary } from '@bufbuild/protobuf';
import { createLogger } from '@ratesmith/kit';
import { rulesV1 } from '@ratesmith/contracts';
import { always, filter, never, snapshot } from '../../test/fixtures/cases';
import {
  compileSnapshot,
  FilterHits,
  parseRateRequest,
  parseSnapshot,
  Quoter,
  type CompiledSnapshot,
  type Rate,
} from '../engine';
import { splitBatch } from './batches';
import type { Batch } from './entries';
import { OUTCOME_LIMITS, OutcomeRecorder } from './recorder';
import { plainBatch } from './testing';

const rate = (code: Rate['service_code'], cents: number): Rate => ({
  service_name: 'x',
  service_code: code,
  total_price: String(cents),
  description: '',
  currency: 'USD',
});
const FALLBACK = [rate('RATESMITH_FALLBACK', 750)];
const NONE: Rate[] = [];

const NOON = Date.UTC(2026, 10, 24, 12);
const request = parseRateRequest({
  rate: {
    destination: { country: 'CA', postal_code: 'K1M 1M4', province: 'ON', city: 'Ottawa' },
    currency: 'USD',
    items: [
      {
        name: 'Shirt',
        quantity: 2,
        price: 2500,
        grams: 300,
        product_id: 11,
        variant_id: 12,
        vendor: 'Acme',
        sku: 'TEE-1',
      },
      { name: 'Gift card', quantity: 1, price: 1000, requires_shipping: false },
    ],
  },
});

/** A recorder whose sink keeps what it is sent, or fails while `down` is set. */
function recorder() {
  const sent: Batch[] = [];
  const state = { down: false, now: NOON };
  const r = new OutcomeRecorder({
    sink: async (batch) => {
      if (state.down) throw new Error('no responders');
      sent.push(plainBatch(batch));
    },
    logger: createLogger('test', 'silent'),
    flushMs: 60_000,
    now: () => state.now,
  });
  return { r, sent, state };
}

describe('the checkout outcome recorder', () => {
  it('counts a blocked answer as no rate and as blocked, and keeps no cart of it', async () => {
    const { r, sent } = recorder();
    r.record('a.myshopify.com', NONE, request, null, null, true);
    r.record('a.myshopify.com', NONE, request, null, null, true);
    await r.flush();
    const { NO_RATE, BLOCKED } = rulesV1.CheckoutOutcome;
    expect(sent[0]!.counts).toEqual([
      { shop: 'a.myshopify.com', day: '2026-11-24', outcome: NO_RATE, count: 2 },
      { shop: 'a.myshopify.com', day: '2026-11-24', outcome: BLOCKED, count: 2 },
    ]);
    expect(sent[0]!.carts).toEqual([]);
  });

  it('sends per shop per day counts and sample carts of figures and product texts in one batch', async () => {
    const { r, sent } = recorder();
    for (let i = 0; i < 3; i++) r.record('a.myshopify.com', FALLBACK, request);
    r.record('a.myshopify.com', NONE, request);
    r.record('b.myshopify.com', NONE, request);
    await r.flush();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.counts).toEqual([
      {
        shop: 'a.myshopify.com',
        day: '2026-11-24',
        outcome: rulesV1.CheckoutOutcome.FALLBACK,
        count: 3,
      },
      {
        shop: 'a.myshopify.com',
        day: '2026-11-24',
        outcome: rulesV1.CheckoutOutcome.NO_RATE,
        count: 1,
      },
      {
        shop: 'b.myshopify.com',
        day: '2026-11-24',
        outcome: rulesV1.CheckoutOutcome.NO_RATE,
        count: 1,
      },
    ]);
    // Two samples a shop a window; only lines that ship; their vendor and SKU (item
    // conditions replay them) but nothing about the customer.
    expect(sent[0]!.carts.map((c) => c.shop)).toEqual([
      'a.myshopify.com',
      'a.myshopify.com',
      'b.myshopify.com',
    ]);
    expect(sent[0]!.carts[0]).toEqual({
      shop: 'a.myshopify.com',
      outcome: rulesV1.CheckoutOutcome.FALLBACK,
      at: '2026-11-24T12:00:00.000Z',
      country: 'CA',
      currency: 'USD',
      lines: [
        {
          productId: '11',
          variantId: '12',
          quantity: 2,
          price: 2500,
          grams: 300,
          noShipping: false,
          vendor: 'Acme',
          sku: 'TEE-1',
        },
      ],
    });
    expect(JSON.stringify(sent)).not.toMatch(/Ottawa|K1M|Shirt|ON/);
    // The window is empty afterwards: nothing is sent twice.
    await r.flush();
    expect(sent).toHaveLength(1);
  });

  it('counts a callback after midnight on its own day', async () => {
    const { r, sent, state } = recorder();
    r.record('a.myshopify.com', FALLBACK, request);
    state.now = NOON + 12 * 3600_000;
    r.record('a.myshopify.com', FALLBACK, request);
    await r.flush();
    expect(sent[0]!.counts.map((c) => c.day)).toEqual(['2026-11-24', '2026-11-25']);
  });

  it('keeps batches while the rules service is down and sends them in order once it is back', async () => {
    const { r, sent, state } = recorder();
    state.down = true;
    r.record('a.myshopify.com', FALLBACK, request);
    await r.flush();
    r.record('a.myshopify.com', NONE, request);
    await r.flush();
    expect(r.stats()).toMatchObject({ backlog: 2, sent: 0 });
    state.down = false;
    await r.flush();
    expect(sent.map((b) => b.counts[0]!.outcome)).toEqual([
      rulesV1.CheckoutOutcome.FALLBACK,
      rulesV1.CheckoutOutcome.NO_RATE,
    ]);
    expect(r.stats()).toMatchObject({ backlog: 0, sent: 2 });
  });

  it('bounds the backlog, dropping the oldest batches first', async () => {
    const { r, sent, state } = recorder();
    state.down = true;
    const batches = OUTCOME_LIMITS.backlogBatches + 5;
    for (let i = 0; i < batches; i++) {
      r.record(`shop-${i}.myshopify.com`, FALLBACK, request);
      await r.flush();
    }
    expect(r.stats()).toMatchObject({ backlog: OUTCOME_LIMITS.backlogBatches, droppedBatches: 5 });
    state.down = false;
    await r.flush();
    expect(sent[0]!.counts[0]!.shop).toBe('shop-5.myshopify.com');
    expect(sent).toHaveLength(OUTCOME_LIMITS.backlogBatches);
  });

  it('bounds a window: shops past the cap are not counted, samples stop at their cap', async () => {
    const { r, sent } = recorder();
    for (let i = 0; i < OUTCOME_LIMITS.keys + 3; i++)
      r.record(`shop-${i}.myshopify.com`, NONE, request);
    expect(r.stats()).toMatchObject({
      pendingKeys: OUTCOME_LIMITS.keys,
      droppedCallbacks: 3,
    });
    await r.flush();
    // More than one batch holds (splitBatch keeps each well under NATS's limit).
    expect(sent.length).toBeGreaterThan(1);
    expect(sent.flatMap((b) => b.counts)).toHaveLength(OUTCOME_LIMITS.keys);
    expect(sent.flatMap((b) => b.carts)).toHaveLength(OUTCOME_LIMITS.samplesPerWindow);
  });

  it('keeps at most the line cap of a large cart', async () => {
    const { r, sent } = recorder();
    const big = parseRateRequest({
      rate: {
        destination: { country: 'US' },
        currency: 'USD',
        items: Array.from({ length: 80 }, (_, i) => ({ quantity: 1, price: i, grams: 1 })),
      },
    });
    r.record('a.myshopify.com', FALLBACK, big);
    await r.flush();
    expect(sent[0]!.carts[0]!.lines).toHaveLength(OUTCOME_LIMITS.lines);
  });
});

describe('per-filter analytics in the recorder', () => {
  const { RULESET, PRODUCT_RULE } = rulesV1.FilterOwner;
  /** Ruleset: +5.00 goes on, +1.00 stops, one never matches; a product rule on product 7: +2.00. */
  const compile = (filters = 3) =>
    compileSnapshot(
      parseSnapshot(
        snapshot({
          filters: [
            filter(always(), 1, 5, { id: 'plus-five' }),
            filter(always(), 1, 1, { id: 'plus-one-stop', post_processing_action_type: 0 }),
            ...Array.from({ length: filters - 2 }, (_, i) =>
              filter(never(), 1, 9, { id: `never-${i}-${'x'.repeat(50)}` }),
            ),
          ],
          productRules: [{ productId: '7', filters: [filter(always(), 1, 2, { id: 'per-item' })] }],
          settings: { bump_shipping_enabled: true, bump_shipping_action: 2, bump_shipping_cost: 1 },
        }),
      ),
    );
  const cart = parseRateRequest({
    rate: {
      destination: { country: 'CA' },
      currency: 'USD',
      items: [{ quantity: 1, price: 1000, grams: 10, product_id: 7 }],
    },
  });
  const quoter = new Quoter();
  const hits = new FilterHits();
  const callback = (r: OutcomeRecorder, shop: string, c: CompiledSnapshot) => {
    const { rates } = quoter.quote(c, cart, false, hits);
    r.record(shop, rates, cart, c, hits);
    return rates;
  };

  it('counts standard, bump, fallback and no rate, and the standard total in its fee bucket', async () => {
    const { r, sent } = recorder();
    const shop = 'a.myshopify.com';
    r.record(shop, [rate('RATESMITH_STANDARD', 0), rate('RATESMITH_BUMP', 100)], request);
    r.record(shop, [rate('RATESMITH_STANDARD', 500)], request);
    r.record(shop, [rate('RATESMITH_STANDARD', 501), rate('RATESMITH_BUMP', 600)], request);
    r.record(shop, [rate('RATESMITH_STANDARD', 10_001)], request);
    r.record(shop, FALLBACK, request);
    r.record(shop, NONE, request);
    await r.flush();
    const { STANDARD, BUMP, FALLBACK: FB, NO_RATE } = rulesV1.CheckoutOutcome;
    expect(sent[0]!.counts.map((c) => [c.outcome, c.count])).toEqual([
      [STANDARD, 4],
      [BUMP, 2],
      [FB, 1],
      [NO_RATE, 1],
    ]);
    expect(sent[0]!.details).toEqual([
      { shop, day: '2026-11-24', feeBuckets: [1, 1, 1, 0, 0, 0, 1], filters: [] },
    ]);
    // Sample carts are of the fallback and no-rate answers only.
    expect(sent[0]!.carts.map((c) => c.outcome)).toEqual([FB, NO_RATE]);
  });

  it('counts each matched filter: matched, stopped, fee change, by owner and filter id', async () => {
    const { r, sent } = recorder();
    const c = compile();
    for (let i = 0; i < 4; i++)
      expect(callback(r, 'a.myshopify.com', c)[0]!.total_price).toBe('800');
    await r.flush();
    expect(sent[0]!.details[0]!.filters).toEqual([
      {
        owner: RULESET,
        ownerId: 'ruleset-1',
        filterId: 'plus-five',
        matched: 4,
        stopped: 0,
        fee: 2000,
      },
      {
        owner: RULESET,
        ownerId: 'ruleset-1',
        filterId: 'plus-one-stop',
        matched: 4,
        stopped: 4,
        fee: 400,
      },
      {
        owner: PRODUCT_RULE,
        ownerId: 'pr-1',
        filterId: 'per-item',
        matched: 4,
        stopped: 0,
        fee: 800,
      },
    ]);
    expect(sent[0]!.details[0]!.feeBuckets).toEqual([0, 0, 4, 0, 0, 0, 0]);
  });

  it('a snapshot replaced mid-window adds to the same filters by id', async () => {
    const { r, sent } = recorder();
    callback(r, 'a.myshopify.com', compile());
    callback(r, 'a.myshopify.com', compile());
    callback(r, 'a.myshopify.com', compile());
    await r.flush();
    const five = sent[0]!.details[0]!.filters.find((f) => f.filterId === 'plus-five');
    expect(five).toMatchObject({ matched: 3, fee: 1500 });
    expect(sent[0]!.details[0]!.filters).toHaveLength(3);
  });

  it('bounds the filter counters a window: past the cap a callback’s rate is counted, its filters not', async () => {
    const { r, sent } = recorder();
    const c = compile(100);
    const shops = OUTCOME_LIMITS.filterCounters / 101;
    for (let i = 0; i < Math.floor(shops) + 2; i++) callback(r, `s${i}.myshopify.com`, c);
    expect(r.stats()).toMatchObject({ droppedFilterCounts: 2, droppedCallbacks: 0 });
    expect(r.stats().filterCounters).toBeLessThanOrEqual(OUTCOME_LIMITS.filterCounters);
    await r.flush();
    const standard = sent
      .flatMap((b) => b.counts)
      .filter((x) => x.outcome === rulesV1.CheckoutOutcome.STANDARD);
    expect(standard).toHaveLength(Math.floor(shops) + 2);
  });

  it('splits a large window into batches each well under NATS’s 1 MB, adding up to the window', async () => {
    const { r, sent } = recorder();
    // 2,000 shops of 100 filters (64-character ids), every filter matched: the counter cap.
    const c = compileSnapshot(
      parseSnapshot(
        snapshot({
          filters: Array.from({ length: 100 }, (_, i) =>
            filter(always(), 1, 1, { id: `${String(i).padStart(3, '0')}-${'f'.repeat(60)}` }),
          ),
        }),
      ),
    );
    const shops = OUTCOME_LIMITS.filterCounters / 100;
    for (let i = 0; i < shops; i++) callback(r, `shop-${i}.myshopify.com`, c);
    await r.flush();
    expect(sent.length).toBeGreaterThan(1);
    for (const batch of sent) {
      const bytes = toBinary(
        rulesV1.RecordCheckoutOutcomesRequestSchema,
        create(rulesV1.RecordCheckoutOutcomesRequestSchema, batch),
      ).length;
      expect(bytes).toBeLessThan(OUTCOME_LIMITS.batchBytes);
    }
    const filters = sent.flatMap((b) => b.details.flatMap((d) => d.filters));
    expect(filters).toHaveLength(shops * 100);
    expect(r.stats().droppedFilterCounts).toBe(0);
    expect(filters.every((f) => f.matched === 1 && f.fee === 100)).toBe(true);
    const buckets = sent.flatMap((b) => b.details.flatMap((d) => d.feeBuckets));
    // Every shop's one standard total (100.00) counted once.
    expect(buckets.reduce((n, x) => n + x, 0)).toBe(shops);
  });

  it('splits one shop-day too large for a batch, its fee buckets in the first part only', () => {
    const filters = Array.from({ length: 20_000 }, (_, i) => ({
      owner: RULESET,
      ownerId: 'a'.repeat(24),
      filterId: `f${i}`,
      matched: 1,
      stopped: 0,
      fee: 1,
    }));
    const day = { shop: 'a.myshopify.com', day: '2026-11-24' };
    const parts = splitBatch(
      {
        counts: [],
        carts: [],
        recent: [],
        shadow: [],
        details: [{ ...day, feeBuckets: [1, 0, 0, 0, 0, 0, 0], filters }],
      },
      OUTCOME_LIMITS.batchBytes,
    );
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.flatMap((p) => p.details.flatMap((d) => d.filters))).toEqual(filters);
    expect(parts.map((p) => p.details.map((d) => d.feeBuckets.length))).toEqual([
      [7],
      ...parts.slice(1).map(() => [0]),
    ]);
    for (const part of parts)
      expect(
        toBinary(
          rulesV1.RecordCheckoutOutcomesRequestSchema,
          create(rulesV1.RecordCheckoutOutcomesRequestSchema, part),
        ).length,
      ).toBeLessThan(OUTCOME_LIMITS.batchBytes);
  });
});
