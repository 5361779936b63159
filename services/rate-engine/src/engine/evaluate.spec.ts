/**
 * The quote's trace and rates exactly (evaluate.ts): the shared cases match the
 * trace's steps as a subset, so these pin every key a step has, and has not.
 */
import {
  always,
  and,
  cond,
  filter,
  item,
  never,
  requestTo,
  snapshot,
} from '../../test/fixtures/cases';
import { compileSnapshot } from './compile';
import { FilterHits, Quoter, quote } from './evaluate';
import { parseSnapshot } from './input';
import { parseRateRequest } from './request';

const kg = (amount: number) => ({ amount, unit: 'kg' as const });
const LA = { country: 'US', province: 'CA', postal_code: '90210' };

describe('the trace: each step shows what its conditions read, and only that', () => {
  const plain = filter(always(), 1, 1);
  const weighs = filter(and(cond('cart_weight', 'greater_than', kg(1))), 6, 2, {
    action_weight_step: kg(1),
  });
  const region = filter(and(cond('shipping_region', 'equal', 'US-NY')), 1, 5);
  const postal = filter(and(cond('shipping_postal_code', 'starts_with', '902')), 1, 3, {
    post_processing_action_type: 0,
  });
  const unweighed = filter(never(), 6, 2, { action_weight_step: kg(1) });
  const ruled = filter(always(), 2, 1);
  const snap = snapshot({
    filters: [plain, unweighed, weighs, region, postal, filter(always(), 1, 50)],
    productRules: [{ productId: '7', filters: [ruled] }],
  });
  // 2 x 1.5 kg of product 7 (its rule), 1 x 1 kg without: 4 kg, 3 retail units.
  const cart = [
    item(1000, 2, { product_id: 7, grams: 1500 }),
    item(500, 1, { product_id: 8, grams: 1000 }),
  ];
  const names = (f: { id: string; name: string }) => ({ filterId: f.id, filterName: f.name });

  it('lists every key of every step', () => {
    const { trace, rates } = quote(
      compileSnapshot(parseSnapshot(snap)),
      parseRateRequest(requestTo(cart, LA)),
      true,
    );
    expect(trace!.steps).toEqual([
      {
        scope: 'global',
        ...names(plain),
        matched: true,
        actionType: 1,
        feeBefore: 0,
        feeAfter: 100,
        stopped: false,
      },
      {
        scope: 'global',
        ...names(unweighed),
        matched: false,
        feeBefore: 100,
        feeAfter: 100,
        stopped: false,
      },
      {
        // 4 kg at 1 kg steps: 4 x 2.00.
        scope: 'global',
        ...names(weighs),
        matched: true,
        actionType: 6,
        feeBefore: 100,
        feeAfter: 900,
        stopped: false,
        cartWeight: 4000,
        scopeWeight: 4000,
        weightSteps: 4,
      },
      {
        scope: 'global',
        ...names(region),
        matched: false,
        feeBefore: 900,
        feeAfter: 900,
        stopped: false,
        region: 'US-CA',
      },
      {
        // It stops the global list: the 50.00 filter after it never runs.
        scope: 'global',
        ...names(postal),
        matched: true,
        actionType: 1,
        feeBefore: 900,
        feeAfter: 1200,
        stopped: true,
        postalCode: '90210',
      },
      {
        // 1.00 a retail unit of the rule's own units: 2.
        scope: 'product',
        productRuleId: 'pr-1',
        productId: '7',
        ...names(ruled),
        matched: true,
        actionType: 2,
        feeBefore: 1200,
        feeAfter: 1400,
        stopped: false,
      },
    ]);
    expect(trace!.freeItems).toBeNull();
    expect(trace!.fee).toBe(1400);
    expect(rates.map((r) => r.total_price)).toEqual(['1400']);
  });
});

describe('FilterHits: one reused from quote to quote allocates only to grow', () => {
  const withFilters = (n: number) =>
    compileSnapshot(
      parseSnapshot(snapshot({ filters: Array.from({ length: n }, () => filter(always(), 1, 1)) })),
    );
  const req = parseRateRequest(requestTo([item(1000, 1)], LA));

  it('keeps its arrays while they have room for every filter (64 at the start)', () => {
    const hits = new FilterHits();
    const { filters, fees } = hits;
    expect(filters).toHaveLength(64);
    const quoter = new Quoter();
    for (const n of [1, 64]) {
      quoter.quote(withFilters(n), req, false, hits);
      expect(hits.count).toBe(n);
      expect(hits.filters).toBe(filters);
      expect(hits.fees).toBe(fees);
    }
    quoter.quote(withFilters(65), req, false, hits);
    expect(hits.count).toBe(65);
    expect(hits.filters).toHaveLength(65);
    expect(hits.fees).toHaveLength(65);
    expect(Array.from(hits.fees)).toEqual(Array<number>(65).fill(100));
  });
});

it('Quoter.quote without a trace answers the rates only, as quote() does', () => {
  const c = compileSnapshot(parseSnapshot(snapshot({ filters: [filter(always(), 1, 1)] })));
  const req = parseRateRequest(requestTo([item(1000, 1)], LA));
  const answer = new Quoter().quote(c, req);
  expect(answer).toStrictEqual({ rates: quote(c, req).rates });
  expect(Object.keys(answer)).toEqual(['rates']);
});
