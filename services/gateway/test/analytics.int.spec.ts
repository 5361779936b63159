import { create, toBinary } from '@bufbuild/protobuf';
import { rulesV1 } from '@ratesmith/contracts';
import { sentCondition, sentFilter } from '@ratesmith/contracts/testing';
import { createLogger, RpcClient } from '@ratesmith/kit';
import { carrierRateRequest, DEMO_CATALOG } from '@ratesmith/shopify-double';
import { ratesmithInEveryZone, SHOP_A, SHOP_B, startStack, until, type Stack } from './harness';
import { gid, missingId } from './security/helpers';
import {
  compileSnapshot,
  FilterHits,
  parseRateRequest,
  parseSnapshot,
  Quoter,
} from '../../rate-engine/src/engine';
import { always, filter, snapshot } from '../../rate-engine/test/fixtures/cases';
import type { Batch } from '../../rate-engine/src/outcomes/entries';
import { OUTCOME_LIMITS, OutcomeRecorder } from '../../rate-engine/src/outcomes/recorder';

/**
 * Per-filter analytics end to end: real carrier callbacks through the Shopify
 * double, quoted by the engine (which counts each matched filter), sent over
 * NATS in the outcomes' batches, stored by the rules service (FerretDB) with
 * one `$inc` per shop-day, and read by GET /api/analytics and
 * /api/analytics/filters, joined with the shop's current filters, for the
 * token's shop only.
 */
let stack: Stack;
beforeAll(async () => {
  // Batches go every 200 ms here (5 s in production).
  stack = await startStack({}, {}, {}, {}, { OUTCOME_FLUSH_MS: 200 });
}, 60_000);
afterAll(() => stack?.stop());

const PRODUCT = DEMO_CATALOG[0]!.id;
const goOn = { post_processing_action_type: 1 };
const stop = { post_processing_action_type: 0 };
const when = (field: string, operator: string, value: string) => ({
  condition: 'AND',
  rules: [sentCondition(field, operator, value)],
});
/** The active ruleset: in the order the editor shows and the engine runs them. */
const RULESET_FILTERS = [
  sentFilter({ name: 'Base', raw_query: when('cart_price', 'less_than', '1000'), ...goOn }),
  sentFilter({
    name: 'Cheap carts',
    raw_query: when('cart_price', 'less_than', '30'),
    action_data: '1',
    ...stop,
  }),
  sentFilter({
    name: 'Free over 40',
    raw_query: when('cart_price', 'greater_than', '40'),
    action_type: 0,
    action_data: null,
    ...goOn,
  }),
  sentFilter({ name: 'Japan', raw_query: when('shipping_country', 'equal', 'JP'), ...goOn }),
];
const PRODUCT_FILTER = sentFilter({
  name: 'Per product',
  raw_query: when('cart_price', 'less_than', '1000'),
  action_data: '2',
  ...goOn,
});

/** A cart of one line of the product at `price` cents, shipped to Canada. */
const cart = (price: number) =>
  carrierRateRequest({
    items: [
      {
        name: 'Tee',
        quantity: 1,
        grams: 500,
        price,
        requires_shipping: true,
        product_id: PRODUCT,
        variant_id: 1,
      },
    ],
  });

async function ok(path: string, init: { method?: string; json?: unknown; token?: string } = {}) {
  const res = await stack.api(path, init);
  if (res.status !== 200) throw new Error(`${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

interface FilterRow {
  owner: string;
  ownerId: string;
  ownerName: string;
  filterId: string;
  filterName: string;
  matched: number;
  stopped: number;
  feeCents: number;
  neverMatched: boolean;
}
interface Overview {
  days: number;
  from: string;
  to: string;
  countingSince: string | null;
  checkouts: number;
  daily: { day: string; standard: number; bump: number; fallback: number; noRate: number }[];
  fees: { fromCents: number; toCents: number | null; count: number }[];
  filters: FilterRow[];
}

const overview = async (shop = SHOP_A, query = '') =>
  (await ok(`/api/analytics${query}`, { token: stack.token(shop) })) as Overview;

/** Rates answered per checkout sent, tallied as the API counts them. */
const sent = { standard: 0, bump: 0, fallback: 0, noRate: 0 };
async function checkout(price: number) {
  ratesmithInEveryZone(stack, SHOP_A);
  const [answer] = await stack.shopify.checkout(SHOP_A, cart(price));
  expect(answer!.status).toBe(200);
  const rates = (answer!.body as { rates: { service_code: string; total_price: string }[] }).rates;
  if (rates.length === 0) sent.noRate++;
  else if (rates[0]!.service_code === 'RATESMITH_FALLBACK') sent.fallback++;
  else {
    sent.standard++;
    if (rates.length > 1) sent.bump++;
  }
  return rates;
}

const seen = (o: Overview) => ({
  standard: o.daily.at(-1)!.standard,
  bump: o.daily.at(-1)!.bump,
  fallback: o.daily.at(-1)!.fallback,
  noRate: o.daily.at(-1)!.noRate,
});

describe('per-filter analytics', () => {
  let rulesetId = '';
  let otherRulesetId = '';
  let productRuleId = '';

  beforeAll(async () => {
    const token = stack.token(SHOP_A);
    rulesetId = (await ok('/api/global-rules', { method: 'POST', json: { name: 'Main' }, token }))
      .rule.id;
    await ok(`/api/global-rules/update/${rulesetId}`, {
      method: 'POST',
      json: { rules: RULESET_FILTERS },
      token,
    });
    otherRulesetId = (
      await ok('/api/global-rules', { method: 'POST', json: { name: 'Spare' }, token })
    ).rule.id;
    await ok(`/api/global-rules/update/${otherRulesetId}`, {
      method: 'POST',
      json: { rules: [sentFilter({ name: 'Spare filter' })] },
      token,
    });
    await ok(`/api/global-rules/${rulesetId}/toggle`, { token });
    await ok('/api/product-rules/add-shopify-product', {
      method: 'POST',
      json: { products: [gid(PRODUCT)] },
      token,
    });
    productRuleId = (await ok('/api/product-rules', { token })).products.data[0].id;
    await ok(`/api/product-rules/update/${productRuleId}`, {
      method: 'POST',
      json: { rules: [PRODUCT_FILTER] },
      token,
    });
    await ok('/api/settings', {
      method: 'POST',
      json: {
        carrier_name: 'Post',
        bump_shipping_enabled: true,
        bump_shipping_name: 'Faster',
        bump_shipping_action: 2,
        bump_shipping_cost: 3,
      },
      token,
    });
    // Until the engine has the product rule's snapshot: Base + Cheap carts + Per product.
    await until(
      () => checkout(2500),
      (rates) => rates[0]?.total_price === '799' && rates.length === 2,
      'the saved rules at checkout',
    );
  }, 60_000);

  it('counts matched, stopped and the fee change per filter, rates per day and fee buckets', async () => {
    const before = await until(
      () => overview(),
      (o) => o.checkouts === sent.standard + sent.fallback + sent.noRate,
      'the warm-up checkouts at the API',
    );
    const rowOf = (o: Overview, name: string) => o.filters.find((f) => f.filterName === name)!;
    const base = (name: string) => rowOf(before, name);
    // $25: Base +4.99, Cheap carts +1.00 and stops the ruleset, Per product +2.00: 7.99.
    for (let i = 0; i < 3; i++) expect((await checkout(2500))[0]!.total_price).toBe('799');
    // $50: Base +4.99, Free over 40 to 0, Per product +2.00: 2.00.
    for (let i = 0; i < 2; i++) expect((await checkout(5000))[0]!.total_price).toBe('200');

    const o = await until(
      () => overview(),
      (x) => x.checkouts === before.checkouts + 5,
      'the five checkouts at the API',
    );
    const today = new Date().toISOString().slice(0, 10);
    expect(o).toMatchObject({ days: 30, to: today, countingSince: today });
    expect(o.daily).toHaveLength(30);
    expect(o.daily[0]!.day).toBe(o.from);
    expect(o.daily.at(-1)!.day).toBe(today);
    expect(o.daily.slice(0, -1).every((d) => d.standard + d.fallback + d.noRate === 0)).toBe(true);
    expect(seen(o)).toEqual(sent);

    const delta = (name: string) => {
      const now = rowOf(o, name);
      return {
        matched: now.matched - base(name).matched,
        stopped: now.stopped - base(name).stopped,
        feeCents: now.feeCents - base(name).feeCents,
      };
    };
    expect(delta('Base')).toEqual({ matched: 5, stopped: 0, feeCents: 5 * 499 });
    expect(delta('Cheap carts')).toEqual({ matched: 3, stopped: 3, feeCents: 3 * 100 });
    expect(delta('Free over 40')).toEqual({ matched: 2, stopped: 0, feeCents: 2 * -499 });
    expect(delta('Per product')).toEqual({ matched: 5, stopped: 0, feeCents: 5 * 200 });
    expect(rowOf(o, 'Japan')).toMatchObject({ matched: 0, stopped: 0, feeCents: 0 });
    expect(rowOf(o, 'Japan').neverMatched).toBe(true);
    expect(rowOf(o, 'Base').neverMatched).toBe(false);

    // Editor order: the enabled ruleset's filters, then the active product rule's; not the spare ruleset.
    expect(o.filters.map((f) => [f.owner, f.ownerName, f.filterName])).toEqual([
      ['ruleset', 'Main', 'Base'],
      ['ruleset', 'Main', 'Cheap carts'],
      ['ruleset', 'Main', 'Free over 40'],
      ['ruleset', 'Main', 'Japan'],
      ['product_rule', DEMO_CATALOG[0]!.title, 'Per product'],
    ]);
    expect(o.filters[0]!.ownerId).toBe(rulesetId);
    expect(o.filters[4]!.ownerId).toBe(productRuleId);

    // The standard rate's totals: 7.99 three times more (501-1000), 2.00 twice more (1-500).
    const added = o.fees.map((b, i) => b.count - before.fees[i]!.count);
    expect(added).toEqual([0, 2, 3, 0, 0, 0, 0]);
    expect(o.fees.map((b) => [b.fromCents, b.toCents])).toEqual([
      [0, 0],
      [1, 500],
      [501, 1000],
      [1001, 2000],
      [2001, 5000],
      [5001, 10000],
      [10001, null],
    ]);
    // Counts, not rows: one document for the shop's day.
    const docs = await stack.dbs.rules
      .db!.collection('checkout_outcome_days')
      .find({ shop: SHOP_A })
      .toArray();
    expect(docs).toHaveLength(1);
  });

  it('answers one owner for its editor, in use or not', async () => {
    const token = stack.token(SHOP_A);
    const main = await ok(`/api/analytics/filters?owner=ruleset&id=${rulesetId}`, { token });
    const o = await overview();
    expect(main).toMatchObject({ days: 30, inUse: true, checkouts: o.checkouts });
    expect(main.filters).toEqual(
      o.filters
        .filter((f) => f.owner === 'ruleset')
        .map(({ filterId, matched, stopped, feeCents, neverMatched }) => ({
          filterId,
          matched,
          stopped,
          feeCents,
          neverMatched,
        })),
    );
    const spare = await ok(`/api/analytics/filters?owner=ruleset&id=${otherRulesetId}`, { token });
    expect(spare.inUse).toBe(false);
    expect(spare.filters).toEqual([
      {
        filterId: expect.any(String),
        matched: 0,
        stopped: 0,
        feeCents: 0,
        neverMatched: false,
      },
    ]);
    const product = await ok(`/api/analytics/filters?owner=product_rule&id=${productRuleId}`, {
      token,
    });
    expect(product.inUse).toBe(true);
    expect(product.filters[0].matched).toBe(
      o.filters.find((f) => f.filterName === 'Per product')!.matched,
    );
    // A product rule's id is not a ruleset's.
    const mixed = await stack.api(`/api/analytics/filters?owner=ruleset&id=${productRuleId}`, {
      token,
    });
    expect(mixed.status).toBe(404);
  });

  it('refuses days outside 1..30 and other owners with a 400', async () => {
    const token = stack.token(SHOP_A);
    for (const bad of ['0', '31', 'abc', '1.5', '-1', '', '007']) {
      const res = await stack.api(`/api/analytics?days=${bad}`, { token });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain('days is a whole number from 1 to 30');
    }
    const week = await overview(SHOP_A, '?days=7');
    expect(week.days).toBe(7);
    expect(week.daily).toHaveLength(7);
    for (const bad of ['owner=shop&id=' + rulesetId, 'owner=ruleset&id=nope', 'owner=ruleset']) {
      expect((await stack.api(`/api/analytics/filters?${bad}`, { token })).status).toBe(400);
    }
  });

  it('another shop sees none of it, and not the first shop’s owners', async () => {
    const o = await overview(SHOP_B);
    expect(o).toMatchObject({ checkouts: 0, countingSince: null, filters: [] });
    expect(o.daily.every((d) => d.standard + d.bump + d.fallback + d.noRate === 0)).toBe(true);
    expect(o.fees.every((b) => b.count === 0)).toBe(true);
    const token = stack.token(SHOP_B);
    for (const path of [
      `/api/analytics/filters?owner=ruleset&id=${rulesetId}`,
      `/api/analytics/filters?owner=product_rule&id=${productRuleId}`,
      `/api/analytics/filters?owner=ruleset&id=${missingId()}`,
    ]) {
      const res = await stack.api(path, { token });
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain('Main');
    }
  });

  it('a removed filter disappears; its counts are never shown again', async () => {
    const token = stack.token(SHOP_A);
    const saved = await ok(`/api/global-rules/rules?globalRuleId=${rulesetId}`, { token });
    const kept = (saved.rules as { name: string }[]).filter((f) => f.name !== 'Cheap carts');
    await ok(`/api/global-rules/update/${rulesetId}`, {
      method: 'POST',
      json: { rules: kept },
      token,
    });
    const o = await overview();
    expect(o.filters.map((f) => f.filterName)).toEqual([
      'Base',
      'Free over 40',
      'Japan',
      'Per product',
    ]);
    // The others keep their counts.
    expect(o.filters[0]!.matched).toBeGreaterThanOrEqual(5);
  });

  it('a callback neither waits nor fails while the rules service is down; its counts arrive after', async () => {
    const before = await overview();
    const baseBefore = before.filters.find((f) => f.filterName === 'Base')!.matched;
    await stack.stopRules();
    try {
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        expect((await checkout(5000))[0]!.total_price).toBe('200');
        expect(performance.now() - started).toBeLessThan(250);
      }
      // Several flushes fail meanwhile: the batches wait in the backlog.
      await new Promise((r) => setTimeout(r, 1000));
    } finally {
      await stack.startRules();
    }
    const after = await until(
      () => overview(),
      (o) => o.checkouts === before.checkouts + 5,
      'the counts kept while the rules service was down',
    );
    expect(after.filters.find((f) => f.filterName === 'Base')!.matched).toBe(baseBefore + 5);
    expect(seen(after)).toEqual(sent);
  });

  it('shop/redact deletes the counts', async () => {
    const docs = () =>
      stack.dbs.rules.db!.collection('checkout_outcome_days').find({ shop: SHOP_A }).toArray();
    const [doc] = await docs();
    // The per-filter counts are in the shop's day document.
    expect(Object.keys(doc!.filters as object).length).toBeGreaterThan(0);
    stack.shopify.uninstall(SHOP_A);
    const hook = (topic: string) =>
      stack.shopify.sendWebhook(`${stack.baseUrl}/webhooks/${topic}`, topic, SHOP_A);
    expect((await hook('app/uninstalled')).status).toBe(200);
    expect((await hook('shop/redact')).status).toBe(200);
    await until(
      async () => (await docs()).length,
      (n) => n === 0,
      "the shop's counts to go",
    );
  });

  it('a window of 60 shops x 100 filters goes in batches under 1 MB, each taken by the rules service, every count stored once', async () => {
    const rules = new RpcClient(stack.nc, rulesV1.RulesService, {
      timeoutMs: 10_000,
      subjectPrefix: stack.servers.subjectPrefix,
      displayName: 'rules',
    });
    const sizes: number[] = [];
    const recorder = new OutcomeRecorder({
      sink: (batch: Batch) => {
        const request = create(rulesV1.RecordCheckoutOutcomesRequestSchema, batch);
        sizes.push(toBinary(rulesV1.RecordCheckoutOutcomesRequestSchema, request).length);
        return rules.call('recordCheckoutOutcomes', batch);
      },
      logger: createLogger('test', 'silent'),
      flushMs: 60_000,
    });
    // 100 filters every cart matches, with 60-character ids, in a ruleset of a real id's form.
    const big = snapshot({
      filters: Array.from({ length: 100 }, (_, i) =>
        filter(always(), 1, 1, { id: `filter-${String(i).padStart(3, '0')}-${'x'.repeat(49)}` }),
      ),
    });
    big.globalRuleset!.id = missingId();
    const compiled = compileSnapshot(parseSnapshot(big));
    const request = parseRateRequest(cart(2500));
    const quoter = new Quoter();
    const hits = new FilterHits();
    const shops = Array.from({ length: 60 }, (_, i) => `split-${i}.myshopify.com`);
    for (const shop of shops) {
      const { rates } = quoter.quote(compiled, request, false, hits);
      recorder.record(shop, rates, request, compiled, hits);
    }
    await recorder.stop();
    expect(recorder.stats()).toMatchObject({ backlog: 0, droppedFilterCounts: 0 });
    expect(sizes.length).toBeGreaterThan(1);
    expect(Math.max(...sizes)).toBeLessThan(OUTCOME_LIMITS.batchBytes);
    const docs = await stack.dbs.rules
      .db!.collection('checkout_outcome_days')
      .find({ shop: { $in: shops } })
      .toArray();
    expect(docs).toHaveLength(60);
    for (const doc of docs) {
      const counts = Object.values(doc.filters as Record<string, { m: number }>);
      expect(counts).toHaveLength(100);
      expect(counts.every((c) => c.m === 1)).toBe(true);
      expect(doc.standard).toBe(1);
    }
  }, 60_000);
});
