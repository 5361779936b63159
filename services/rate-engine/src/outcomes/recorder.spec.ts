import { createLogger } from '@ratesmith/kit';
import { rulesV1 } from '@ratesmith/contracts';
import { parseRateRequest } from '../engine';
import { OUTCOME_LIMITS, OutcomeRecorder, type Batch } from './recorder';

const NOON = Date.UTC(2026, 10, 24, 12);
const request = parseRateRequest({
  rate: {
    destination: { country: 'CA', postal_code: 'K1M 1M4', province: 'ON', city: 'Ottawa' },
    currency: 'USD',
    items: [
      { name: 'Shirt', quantity: 2, price: 2500, grams: 300, product_id: 11, variant_id: 12 },
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
      sent.push(batch);
    },
    logger: createLogger('test', 'silent'),
    flushMs: 60_000,
    now: () => state.now,
  });
  return { r, sent, state };
}

describe('the checkout outcome recorder', () => {
  it('sends per shop per day counts and figure-only sample carts in one batch', async () => {
    const { r, sent } = recorder();
    for (let i = 0; i < 3; i++) r.record('a.myshopify.com', 'fallback', request);
    r.record('a.myshopify.com', 'no_rate', request);
    r.record('b.myshopify.com', 'no_rate', request);
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
    // Two samples a shop a window; only lines that ship; nothing about the customer.
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
      lines: [{ productId: '11', variantId: '12', quantity: 2, price: 2500, grams: 300 }],
    });
    expect(JSON.stringify(sent)).not.toMatch(/Ottawa|K1M|Shirt|ON/);
    // The window is empty afterwards: nothing is sent twice.
    await r.flush();
    expect(sent).toHaveLength(1);
  });

  it('counts a callback after midnight on its own day', async () => {
    const { r, sent, state } = recorder();
    r.record('a.myshopify.com', 'fallback', request);
    state.now = NOON + 12 * 3600_000;
    r.record('a.myshopify.com', 'fallback', request);
    await r.flush();
    expect(sent[0]!.counts.map((c) => c.day)).toEqual(['2026-11-24', '2026-11-25']);
  });

  it('keeps batches while the rules service is down and sends them in order once it is back', async () => {
    const { r, sent, state } = recorder();
    state.down = true;
    r.record('a.myshopify.com', 'fallback', request);
    await r.flush();
    r.record('a.myshopify.com', 'no_rate', request);
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
      r.record(`shop-${i}.myshopify.com`, 'fallback', request);
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
      r.record(`shop-${i}.myshopify.com`, 'no_rate', request);
    expect(r.stats()).toMatchObject({
      pendingKeys: OUTCOME_LIMITS.keys,
      droppedCallbacks: 3,
    });
    await r.flush();
    expect(sent[0]!.counts).toHaveLength(OUTCOME_LIMITS.keys);
    expect(sent[0]!.carts).toHaveLength(OUTCOME_LIMITS.samplesPerWindow);
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
    r.record('a.myshopify.com', 'fallback', big);
    await r.flush();
    expect(sent[0]!.carts[0]!.lines).toHaveLength(OUTCOME_LIMITS.lines);
  });
});
