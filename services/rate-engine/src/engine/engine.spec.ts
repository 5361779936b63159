import fc from 'fast-check';
import { ACTION_TYPES, FIELDS } from '@ratesmith/contracts';
import {
  always,
  and,
  CART_A,
  CASES,
  cond,
  filter,
  item,
  never,
  or,
  REJECTED,
  type RateCase,
  upgradeSetting,
  request,
  snapshot,
  standard,
} from '../../test/fixtures/cases';
import {
  compileSnapshot,
  COUNTRY,
  countryCode,
  F_ROOT,
  FilterHits,
  FILTER_WORDS,
  FREE,
  generateMatcher,
  HOT_AFTER,
  HotTier,
  matches,
  postalHolds,
  PRICE,
  regionCode,
  RETAIL,
  parseRateRequest,
  parseSnapshot,
  quote,
  Quoter,
  QuoteInputError,
  quoteInput,
  SnapshotCompileError,
} from '.';

/** A case's request as the callback parses it, at the case's request time. */
const requestOf = (c: RateCase) =>
  parseRateRequest(c.request, undefined, c.now === undefined ? undefined : Date.parse(c.now));

describe('the shared rate cases', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const result = quoteInput({ snapshot: c.snapshot, request: c.request, now: c.now });
    expect(result.rates).toEqual(c.rates);
    if (c.fee !== undefined) expect(result.trace.fee).toBe(c.fee);
    if (c.steps) expect(result.trace.steps).toMatchObject(c.steps);
    // The fallback rate answers only when nothing matched; a block answers nothing at all.
    if (!result.trace.blocked) {
      expect(result.trace.matchedAny).toBe(
        c.rates.some((r) => r.service_code !== 'RATESMITH_FALLBACK'),
      );
    } else expect([result.trace.matchedAny, result.rates]).toEqual([true, []]);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s (hot tier: generated code)', (_name, c) => {
    const quoter = new Quoter(new HotTier({ size: 1000 }));
    const compiled = compileSnapshot(parseSnapshot(c.snapshot));
    const req = requestOf(c);
    const byLoop = quoter.quote(compiled, req, true);
    for (let i = 1; i < HOT_AFTER; i++) quoter.quote(compiled, req, true);
    expect(compiled.hot?.fn).toBeInstanceOf(Function);
    const hot = quoter.quote(compiled, req, true);
    expect(hot).toEqual(byLoop);
    expect(hot.rates).toEqual(c.rates);
  });

  it.each(CASES.map((c) => [c.name, c] as const))(
    '%s (counted for analytics: same rates, the hits the trace shows)',
    (_name, c) => {
      const compiled = compileSnapshot(parseSnapshot(c.snapshot));
      const req = requestOf(c);
      const hits = new FilterHits();
      // A stale hit of an earlier quote must not survive the next one.
      hits.count = 3;
      const counted = new Quoter().quote(compiled, req, false, hits);
      expect(counted.rates).toEqual(c.rates);
      const { trace } = new Quoter().quote(compiled, req, true);
      const matched = trace!.steps.filter((step) => step.matched);
      expect(
        Array.from({ length: hits.count }, (_, i) => ({
          filterId: compiled.texts[2 * (hits.filters[i]! >> 1)],
          stopped: (hits.filters[i]! & 1) === 1,
          change: hits.fees[i],
        })),
      ).toEqual(
        matched.map((step) => ({
          filterId: step.filterId,
          stopped: step.stopped,
          change: step.feeAfter - step.feeBefore,
        })),
      );
    },
  );

  it('collects nothing unless asked (the preview and traces pass no hits)', () => {
    const c = CASES.find((x) => x.rates.some((r) => r.service_code === 'RATESMITH_STANDARD'))!;
    const compiled = compileSnapshot(parseSnapshot(c.snapshot));
    const hits = new FilterHits();
    const quoter = new Quoter();
    quoter.quote(compiled, parseRateRequest(c.request), false, hits);
    expect(hits.count).toBeGreaterThan(0);
    const before = hits.count;
    quoter.quote(compiled, parseRateRequest(c.request), true);
    expect(hits.count).toBe(before);
  });

  it.each(REJECTED.map((c) => [c.name, c] as const))('refuses %s', (_name, c) => {
    expect(() => quoteInput({ snapshot: c.snapshot, request: c.request })).toThrow(
      new RegExp(`^request: ${c.error.source}`),
    );
  });

  it('has a case for every field, operator and action of the catalogue', () => {
    const text = JSON.stringify(CASES.map((c) => c.snapshot));
    const used = new Set<string>();
    JSON.stringify(
      CASES.map((c) => c.snapshot),
      (key, value: unknown) => {
        const node = value as { type?: unknown; field?: unknown; operator?: unknown };
        if (node && node.type === 'condition') used.add(`${node.field} ${node.operator}`);
        return value;
      },
    );
    for (const field of FIELDS)
      for (const op of field.operators) expect(used).toContain(`${field.key} ${op}`);
    for (const action of ACTION_TYPES) expect(text).toContain(`"action_type":${action}`);
  });
});

describe('the trace', () => {
  it('lists every evaluated filter with the fee before and after, and stops where the rules stop', () => {
    const snap = snapshot({
      filters: [
        filter(never(), 1, 9, { id: 'a', name: 'Never' }),
        filter(always(), 1, 5, { id: 'b', name: 'Add five' }),
        filter(always(), 2, 1, { id: 'c', name: 'Per unit', post_processing_action_type: 0 }),
        filter(always(), 1, 7, { id: 'd', name: 'Not reached' }),
      ],
      productRules: [
        { productId: '1', filters: [filter(always(), 0, null, { id: 'e', name: 'Free hats' })] },
      ],
    });
    const { trace } = quoteInput({ snapshot: snap, request: request(CART_A) });
    expect(trace.steps).toEqual([
      {
        scope: 'global',
        filterId: 'a',
        filterName: 'Never',
        matched: false,
        feeBefore: 0,
        feeAfter: 0,
        stopped: false,
      },
      {
        scope: 'global',
        filterId: 'b',
        filterName: 'Add five',
        matched: true,
        actionType: 1,
        feeBefore: 0,
        feeAfter: 500,
        stopped: false,
      },
      {
        scope: 'global',
        filterId: 'c',
        filterName: 'Per unit',
        matched: true,
        actionType: 2,
        feeBefore: 500,
        feeAfter: 800,
        stopped: true,
      },
      {
        scope: 'product',
        productRuleId: 'pr-1',
        productId: '1',
        filterId: 'e',
        filterName: 'Free hats',
        matched: true,
        actionType: 0,
        feeBefore: 800,
        feeAfter: 800,
        stopped: false,
      },
    ]);
    // 4 shipping units, 2 of them free: 800 x 2 / 4.
    expect(trace.freeItems).toEqual({ totalUnits: 4, freeUnits: 2, feeBefore: 800, feeAfter: 400 });
    expect(trace.fee).toBe(400);
    expect(trace.matchedAny).toBe(true);
  });

  it('reports no free items when no product rule made any free', () => {
    const result = quoteInput({
      snapshot: snapshot({ filters: [filter(always(), 1, 1)] }),
      request: request(CART_A),
    });
    expect(result.trace.freeItems).toBeNull();
  });
});

describe('compiling refuses what cannot be evaluated, naming every problem', () => {
  const refused = (filters: ReturnType<typeof filter>[]) => {
    try {
      compileSnapshot(parseSnapshot(snapshot({ filters })));
    } catch (err) {
      expect(err).toBeInstanceOf(SnapshotCompileError);
      return (err as SnapshotCompileError).problems;
    }
    throw new Error('compiled');
  };

  it.each([
    ['an unknown field', and(cond('cart_colour', 'equal', 1)), /unknown field/],
    ['an operator of another field', and(cond('shipping_country', 'less_than', 'US')), /operator/],
    ['a missing value', and(cond('cart_price', 'equal', null)), /1 incomplete condition/],
    ['a negative amount', and(cond('cart_price', 'equal', -1)), /Cart Price/],
    ['an amount above 1,000,000', and(cond('cart_price', 'equal', 1_000_001)), /Cart Price/],
    ['a fractional count', and(cond('cart_retail_product_count', 'equal', 1.5)), /whole number/],
    ['a count above 100,000', and(cond('cart_free_product_count', 'equal', 100_001)), /whole/],
    [
      'a country that is not two letters',
      and(cond('shipping_country', 'equal', 'USA')),
      /two-letter/,
    ],
    ['a country that would be code', and(cond('shipping_country', 'equal', "U'")), /two-letter/],
    ['a letter that upper-cases to two', and(cond('shipping_country', 'equal', 'ß')), /two-letter/],
    [
      'an incomplete $X pair',
      and(cond('cart_product_count_of_x_price', 'equal', { count: 1, amount: null })),
      /1 incomplete condition/,
    ],
    ['an empty group', and(cond('cart_price', 'equal', 1), or()), /1 incomplete condition/],
    ['a root holding only an empty group', and(or()), /1 incomplete condition/],
  ])('%s', (_name, query, message) => {
    expect(refused([filter(query, 1, 1)]).join('\n')).toMatch(message);
  });

  it('groups nested more than 5 deep', () => {
    const deep = and(or(and(or(and(or(cond('cart_price', 'equal', 1)))))));
    expect(refused([filter(deep, 1, 1)])).toEqual([expect.stringMatching(/more than 5 deep/)]);
    const five = and(or(and(or(and(cond('cart_price', 'equal', 1))))));
    expect(() =>
      compileSnapshot(parseSnapshot(snapshot({ filters: [filter(five, 1, 1)] }))),
    ).not.toThrow();
  });

  it('more than 50 conditions in a filter, more than 100 filters in a ruleset', () => {
    const many = and(...Array.from({ length: 51 }, () => cond('cart_price', 'equal', 1)));
    expect(refused([filter(many, 1, 1)])).toEqual([
      expect.stringMatching(/more than 50 conditions/),
    ]);
    const filters = Array.from({ length: 101 }, () => filter(always(), 1, 1));
    expect(refused(filters)).toEqual(['The enabled ruleset can have at most 100 rules.']);
  });

  it('more than 50 filters in a product rule', () => {
    const filters = Array.from({ length: 51 }, () => filter(always(), 1, 1));
    expect(() =>
      compileSnapshot(parseSnapshot(snapshot({ productRules: [{ productId: '1', filters }] }))),
    ).toThrow(/at most 50 rules/);
  });

  it.each([
    ['an action amount', [filter(always(), 1, 1_000_000.01)], /rule #1 amount must be from 0/],
    [
      'a $X of an action',
      [filter(always(), 4, 1, { rule_product_limit_amount: 1_000_000.01 })],
      /product cost/,
    ],
    [
      'a $X amount of a condition',
      [
        filter(
          and(cond('cart_product_count_of_x_price', 'equal', { count: 1, amount: 1_000_000.01 })),
          1,
          1,
        ),
      ],
      /\$X/,
    ],
    [
      'a $X count of a condition',
      [
        filter(
          and(cond('cart_product_count_of_x_price', 'equal', { count: 100_001, amount: 1 })),
          1,
          1,
        ),
      ],
      /\$X/,
    ],
    [
      'a retail count',
      [filter(and(cond('cart_retail_product_count', 'equal', 100_001)), 1, 1)],
      /whole number/,
    ],
    ['a cart price', [filter(and(cond('cart_price', 'equal', 1_000_000.01)), 1, 1)], /Cart Price/],
  ])('one past the limit: %s', (_name, filters, message) => {
    expect(refused(filters).join('\n')).toMatch(message);
  });

  it('one past the limit: a bump cost of 1,000,000.01 (1,000,000 is taken)', () => {
    const withBump = (cost: number) =>
      snapshot({
        filters: [filter(always(), 1, 1)],
        settings: {
          bump_shipping_enabled: true,
          bump_shipping_action: 2,
          bump_shipping_cost: cost,
          bump_shipping_name: 'Bump',
        },
      });
    expect(() => compileSnapshot(parseSnapshot(withBump(1_000_000.01)))).toThrow(
      /bump shipping cost/,
    );
    expect(compileSnapshot(parseSnapshot(withBump(1_000_000))).bump).toEqual({
      action: 2,
      cost: 100_000_000,
      name: 'Bump',
      description: '',
      window: null,
    });
  });

  /** The problems a compile of these settings (and filters) names, joined. */
  const settingsRefused = (
    settings: Record<string, unknown>,
    filters = [filter(always(), 1, 1)],
  ) => {
    try {
      compileSnapshot(parseSnapshot(snapshot({ filters, settings })));
    } catch (err) {
      return (err as SnapshotCompileError).problems;
    }
    return [];
  };

  it.each([
    [
      'a time zone that is not one',
      { timezone: 'Mars/Olympus' },
      '"Mars/Olympus" is not a time zone name, such as America/New_York.',
    ],
    ['no business day', { business_days: [] }, 'Choose at least one business day.'],
    [
      'a holiday that is no date',
      { holidays: ['2026-02-30'] },
      'Holiday "2026-02-30" is not a real date written YYYY-MM-DD.',
    ],
    [
      'a cutoff of 24:00',
      { cutoff_time: '24:00' },
      'The order cutoff time must be HH:MM on a 24-hour clock, 00:00 to 23:59, or none; "24:00" is not.',
    ],
    [
      '31 processing days',
      { processing_days: 31 },
      'Processing days must be a whole number from 0 to 30.',
    ],
    [
      'a regular window of 5 to 2 days',
      { delivery_min_days: 5, delivery_max_days: 2 },
      "The regular rate's delivery window has a minimum of 5 days, more than its maximum of 2 days.",
    ],
    [
      'a bump window with a minimum only',
      { bump_delivery_min_days: 1 },
      "The bump rate's delivery window needs both a minimum and a maximum number of days, or neither.",
    ],
    [
      'a window of 61 days',
      { delivery_min_days: 0, delivery_max_days: 61 },
      "The regular rate's delivery window must have a maximum of 0 to 60 whole days.",
    ],
    [
      'four upgrades',
      { upgrades: ['A', 'B', 'C', 'D'].map((n) => upgradeSetting(n, 2, 1)) },
      'At most 3 extra services can be offered; there are 4.',
    ],
    [
      'an upgrade without a name',
      { upgrades: [upgradeSetting('', 2, 1)] },
      'Service 1 needs a name.',
    ],
    [
      'an upgrade name of 101 characters',
      { upgrades: [upgradeSetting('x'.repeat(101), 2, 1)] },
      "Service 1's name must be at most 100 characters.",
    ],
    [
      'an upgrade cost past 1,000,000',
      { upgrades: [upgradeSetting('A', 2, 1_000_000.01)] },
      "Service 1's cost must be a number from 0 to 1,000,000.",
    ],
    [
      'an upgrade window of 3 to 1 days',
      {
        upgrades: [
          upgradeSetting('A', 2, 1),
          upgradeSetting('B', 1, 1, { delivery_min_days: 3, delivery_max_days: 1 }),
        ],
      },
      "Service 2's delivery window has a minimum of 3 days, more than its maximum of 1 day.",
    ],
  ])('refuses a snapshot with %s in its settings', (_name, settings, problem) => {
    expect(settingsRefused(settings)).toEqual([problem]);
  });

  it("refuses a filter's window of 2 days to none with the filter language's message", () => {
    expect(
      settingsRefused({}, [
        filter(always(), 1, 1, { is_shipping_overridden: 'Yes', delivery_min_days: 2 }),
      ]),
    ).toEqual([
      'The enabled ruleset rule #1 delivery window needs both a minimum and a maximum number of days, or neither.',
    ]);
  });

  it('compiles no calendar for a shop without a window, and one for a shop with any', () => {
    const compiled = (settings: Record<string, unknown>, over = {}) =>
      compileSnapshot(
        parseSnapshot(snapshot({ filters: [filter(always(), 1, 1, over)], settings })),
      );
    expect(compiled({ timezone: 'Asia/Kolkata', cutoff_time: '10:00' }).calendar).toBeNull();
    expect(compiled({ bump_delivery_min_days: 1, bump_delivery_max_days: 2 }).calendar).toBeNull();
    const calendar = {
      timezone: 'Asia/Kolkata',
      business_days: [1, 2, 3],
      holidays: ['2026-12-25'],
      cutoff_time: '10:00',
      processing_days: 1,
    };
    expect(compiled({ ...calendar, delivery_min_days: 1, delivery_max_days: 2 }).calendar).toEqual(
      calendar,
    );
    expect(
      compiled(calendar, {
        is_shipping_overridden: 'Yes',
        delivery_min_days: 0,
        delivery_max_days: 0,
      }).calendar,
    ).toEqual(calendar);
    expect(
      compiled({
        ...calendar,
        upgrades: [upgradeSetting('A', 2, 1, { delivery_min_days: 1, delivery_max_days: 1 })],
      }).calendar,
    ).toEqual(calendar);
  });

  it("one compiled shop's dates follow the request time across the cutoff and each quote's override", () => {
    // Cutoff 14:00 UTC; settings' window 0 to 0, the override's (postal code K...) 1 to 1.
    const c = compileSnapshot(
      parseSnapshot(
        snapshot({
          filters: [
            filter(always(), 1, 1),
            filter(and(cond('shipping_postal_code', 'starts_with', 'K')), 1, 1, {
              is_shipping_overridden: 'Yes',
              delivery_min_days: 1,
              delivery_max_days: 1,
            }),
          ],
          settings: { cutoff_time: '14:00', delivery_min_days: 0, delivery_max_days: 0 },
        }),
      ),
    );
    const quoter = new Quoter();
    const dateAt = (at: string, postal = '90210') => {
      const body = request(CART_A);
      body.rate.destination.postal_code = postal;
      const rates = quoter.quote(c, parseRateRequest(body, undefined, Date.parse(at))).rates;
      return rates[0]!.min_delivery_date;
    };
    // Tue 1 Dec 2026: before the cutoff the ship day is Tue 1, from it Wed 2.
    expect(dateAt('2026-12-01T13:59:59.999Z')).toBe('2026-12-01 00:00:00 +0000');
    expect(dateAt('2026-12-01T13:59:00Z', 'K1A0B1')).toBe('2026-12-02 00:00:00 +0000');
    expect(dateAt('2026-12-01T14:00:00Z')).toBe('2026-12-02 00:00:00 +0000');
    expect(dateAt('2026-12-01T14:00:59Z', 'K1A0B1')).toBe('2026-12-03 00:00:00 +0000');
    // An earlier time again (the preview's order time, the quote command's now).
    expect(dateAt('2026-12-01T13:30:00Z')).toBe('2026-12-01 00:00:00 +0000');
  });

  it('a quote of a shop with windows reads the clock once, only when it has no request time', () => {
    const c = compileSnapshot(
      parseSnapshot(
        snapshot({
          filters: [filter(always(), 1, 1)],
          settings: {
            delivery_min_days: 0,
            delivery_max_days: 0,
            upgrades: [upgradeSetting('A', 2, 1, { delivery_min_days: 0, delivery_max_days: 0 })],
          },
        }),
      ),
    );
    const spy = jest.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-12-01T10:00:00Z'));
    try {
      const rates = quote(c, parseRateRequest(request(CART_A))).rates;
      expect(rates.map((r) => r.min_delivery_date)).toEqual([
        '2026-12-01 00:00:00 +0000',
        '2026-12-01 00:00:00 +0000',
      ]);
      expect(spy).toHaveBeenCalledTimes(1);
      spy.mockClear();
      quote(c, parseRateRequest(request(CART_A), undefined, Date.parse('2026-12-01T10:00:00Z')));
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('one past the limit: a fallback amount of 1,000,000.01 (1,000,000 is taken)', () => {
    const withFallback = (cost: number) =>
      snapshot({
        filters: [filter(never(), 1, 1)],
        settings: { fallback_enabled: true, fallback_name: 'Backup', fallback_cost: cost },
      });
    expect(() => compileSnapshot(parseSnapshot(withFallback(1_000_000.01)))).toThrow(
      /fallback rate's amount/,
    );
    expect(compileSnapshot(parseSnapshot(withFallback(1_000_000))).fallback).toEqual({
      cost: 100_000_000,
      name: 'Backup',
      description: '',
    });
  });

  it('a snapshot written before the fallback setting answers no rate when nothing matched', () => {
    const old = snapshot({ filters: [filter(never(), 1, 1)] });
    for (const key of Object.keys(old.settings))
      if (key.startsWith('fallback_')) delete (old.settings as Record<string, unknown>)[key];
    expect(compileSnapshot(parseSnapshot(old)).fallback).toBeNull();
  });

  it.each([
    // A string is not an amount, even one that reads as a number.
    ['a cart price given as a string', and(cond('cart_price', 'equal', '45')), /Cart Price/],
    ['a negative count', and(cond('cart_free_product_count', 'equal', -1)), /whole number/],
    ['a country that is not a string', and(cond('shipping_country', 'equal', 12)), /two-letter/],
    [
      'a country that is not a code (AA is code 0, "A1" none)',
      and(cond('shipping_country', 'equal', 'A1')),
      /two-letter/,
    ],
  ])('refuses %s', (_name, query, message) => {
    expect(refused([filter(query, 1, 1)]).join('\n')).toMatch(message);
  });

  it('takes AA, the country code 0', () => {
    const c = compileSnapshot(
      parseSnapshot(
        snapshot({ filters: [filter(and(cond('shipping_country', 'equal', 'AA')), 1, 1)] }),
      ),
    );
    expect(c.code[3]).toBe(0);
  });

  it('names the product rule whose filters are over the limit', () => {
    const filters = Array.from({ length: 51 }, () => filter(always(), 1, 1));
    expect(() =>
      compileSnapshot(parseSnapshot(snapshot({ productRules: [{ productId: '42', filters }] }))),
    ).toThrow('Product rule 42 can have at most 50 rules.');
  });

  it('lists the first 10 problems in its message and keeps them all', () => {
    const filters = Array.from({ length: 11 }, () => filter(always(), 2, null));
    try {
      compileSnapshot(parseSnapshot(snapshot({ filters })));
      throw new Error('compiled');
    } catch (err) {
      const e = err as SnapshotCompileError;
      expect(e.name).toBe('SnapshotCompileError');
      expect(e.problems).toHaveLength(11);
      expect(e.message).toBe(
        `The rules cannot be evaluated: ${e.problems.slice(0, 10).join('; ')}`,
      );
      expect(e.message).not.toContain('rule #11');
    }
  });

  it('product ids: digits or a Shopify gid, trimmed, kept as decimal text; anything else is refused', () => {
    const productIds = (productId: string) =>
      compileSnapshot(parseSnapshot(snapshot({ productRules: [{ productId, filters: [] }] })))
        .byProduct;
    expect([...productIds(' 0123 ').keys()]).toEqual(['123']);
    expect([...productIds('gid://shopify/Product/1234567890123456').keys()]).toEqual([
      '1234567890123456',
    ]);
    for (const bad of [
      'x123',
      '123x',
      '12345678901234567',
      'gid://shopify/Product/',
      'gid://x/Product/1',
    ]) {
      expect(() => productIds(bad)).toThrow(/has no numeric product id/);
    }
  });

  it('variant ids: digits or a gid; others name no variant', () => {
    const variants = compileSnapshot(
      parseSnapshot(
        snapshot({
          productRules: [
            {
              productId: '1',
              variantIds: ['7', 'gid://shopify/ProductVariant/8', 'x9'],
              filters: [],
            },
          ],
        }),
      ),
    ).productRules[0]!.variantIds;
    expect([...variants!]).toEqual(['7', '8']);
  });

  it('a country value is trimmed and upper-cased', () => {
    const c = compileSnapshot(
      parseSnapshot(
        snapshot({ filters: [filter(and(cond('shipping_country', 'equal', ' za ')), 1, 1)] }),
      ),
    );
    // Z = 25, A = 0: 25 x 26 + 0 = 650, the condition's constant (after [AND, end, op]).
    expect(c.code[3]).toBe(650);
    expect(countryCode('ZA')).toBe(650);
    expect(countryCode('AA')).toBe(0);
    expect(countryCode('ZZ')).toBe(675);
    for (const bad of ['', 'A', 'AAA', '@A', 'A@', '[A', 'A[', 'za'])
      expect(countryCode(bad)).toBe(-1);
  });

  it('a product rule without a numeric product id', () => {
    expect(() =>
      compileSnapshot(
        parseSnapshot(
          snapshot({ productRules: [{ productId: 'gid://shopify/Collection/x', filters: [] }] }),
        ),
      ),
    ).toThrow(/Product rule gid:\/\/shopify\/Collection\/x has no numeric product id/);
  });

  it('actions without their amount', () => {
    expect(refused([filter(always(), 2, null)])).toEqual([
      expect.stringMatching(/needs an amount/),
    ]);
    expect(refused([filter(always(), 4, 1)])).toEqual([expect.stringMatching(/product cost/)]);
  });

  it('lists every problem at once', () => {
    const problems = refused([
      filter(and(cond('cart_colour', 'equal', 1)), 1, 1),
      filter(always(), 3, null),
    ]);
    expect(problems).toHaveLength(2);
  });

  it('never turns merchant text into code', () => {
    const hostile = "'); globalThis.pwned = true; ('";
    const snap = snapshot({
      filters: [filter(always(), 1, 1, { id: hostile, name: hostile, shipping_name: hostile })],
    });
    const result = quoteInput({ snapshot: { ...snap, shop: hostile }, request: request(CART_A) });
    expect(result.trace.steps[0]!.filterName).toBe(hostile);
    expect((globalThis as { pwned?: boolean }).pwned).toBeUndefined();
  });
});

describe('rate requests', () => {
  it.each([
    ['not an object', [], /"rate" object/],
    ['no rate', {}, /"rate" object/],
    ['no items', { rate: { currency: 'USD' } }, /items must be an array/],
    ['no currency', { rate: { items: [] } }, /currency/],
    [
      'a negative price',
      { rate: { currency: 'USD', items: [{ price: -1, quantity: 1 }] } },
      /price/,
    ],
    [
      'a fractional price',
      { rate: { currency: 'USD', items: [{ price: 1.5, quantity: 1 }] } },
      /price/,
    ],
    [
      'a zero quantity',
      { rate: { currency: 'USD', items: [{ price: 1, quantity: 0 }] } },
      /quantity/,
    ],
    [
      'a string quantity',
      { rate: { currency: 'USD', items: [{ price: 1, quantity: '2' }] } },
      /quantity/,
    ],
    [
      'a bad product id',
      { rate: { currency: 'USD', items: [{ price: 1, quantity: 1, product_id: 'x' }] } },
      /product_id/,
    ],
    [
      'a bad requires_shipping',
      { rate: { currency: 'USD', items: [{ price: 1, quantity: 1, requires_shipping: 'no' }] } },
      /requires_shipping/,
    ],
    [
      'a destination that is not an object',
      { rate: { currency: 'USD', items: [], destination: 'US' } },
      /destination/,
    ],
  ])('refuses %s with one line', (_name, body, message) => {
    expect(() => parseRateRequest(body)).toThrow(message);
  });

  it('refuses more items than the cap', () => {
    const items = Array.from({ length: 3 }, () => ({ price: 1, quantity: 1 }));
    expect(() => parseRateRequest({ rate: { currency: 'USD', items } }, 2)).toThrow(
      /more than 2 items/,
    );
    expect(parseRateRequest({ rate: { currency: 'USD', items } }, 3).items).toHaveLength(3);
  });

  it('takes product and variant ids as numbers or decimal strings', () => {
    const parsed = parseRateRequest({
      rate: {
        currency: 'USD',
        items: [{ price: 1, quantity: 1, product_id: '12', variant_id: 34 }],
      },
    });
    expect(parsed.items[0]).toMatchObject({ productId: '12', variantId: '34', ships: true });
  });

  it('the quote command input names the part that is wrong', () => {
    expect(() => quoteInput({ snapshot: {}, request: request(CART_A) })).toThrow(QuoteInputError);
    expect(() => quoteInput({ snapshot: {}, request: request(CART_A) })).toThrow(/^snapshot\.shop/);
    expect(() =>
      quoteInput({ snapshot: snapshot({}), request: { rate: { currency: 'USD' } } }),
    ).toThrow(/^request: rate.items/);
  });
});

// ---- Properties ---------------------------------------------------------------

const countries = ['US', 'CA', 'DE', 'FR'];
const amount = fc.integer({ min: 0, max: 5000 }).map((cents) => cents / 100);
const count = fc.integer({ min: 0, max: 6 });
const condition = fc.oneof(
  fc.record({
    field: fc.constant('shipping_country'),
    operator: fc.constantFrom('equal', 'not_equal'),
    value: fc.constantFrom(...countries),
  }),
  fc.record({
    field: fc.constant('cart_price'),
    operator: fc.constantFrom(
      'equal',
      'greater_than',
      'greater_or_equal',
      'less_than',
      'less_or_equal',
    ),
    value: amount,
  }),
  fc.record({
    field: fc.constantFrom('cart_retail_product_count', 'cart_free_product_count'),
    operator: fc.constantFrom(
      'equal',
      'greater_than',
      'greater_or_equal',
      'less_than',
      'less_or_equal',
    ),
    value: count,
  }),
  fc.record({
    field: fc.constant('cart_product_count_of_x_price'),
    operator: fc.constantFrom(
      'equal',
      'greater_than',
      'greater_or_equal',
      'less_than',
      'less_or_equal',
    ),
    value: fc.record({ count, amount: fc.constantFrom(0, 5, 10, 12.5) }),
  }),
);
const query = fc
  .array(fc.oneof(condition, fc.array(condition, { minLength: 1, maxLength: 3 })), {
    minLength: 1,
    maxLength: 4,
  })
  .chain((parts) =>
    fc.constantFrom('AND', 'OR').map((combinator) => ({
      id: 'q',
      condition: combinator as 'AND' | 'OR',
      rules: parts.map((part, i) =>
        Array.isArray(part)
          ? {
              id: `g${i}`,
              type: 'group' as const,
              condition: 'OR' as const,
              rules: part.map((c, j) => ({ id: `c${i}-${j}`, type: 'condition' as const, ...c })),
            }
          : { id: `c${i}`, type: 'condition' as const, ...part },
      ),
    })),
  );
const anyFilter = fc
  .record({
    raw_query: query,
    action_type: fc.integer({ min: 0, max: 5 }),
    action_data: amount,
    rule_product_limit_amount: fc.constantFrom(0, 5, 10, 12.5),
    global_rule_action: fc.constantFrom(0, 1),
    post_processing_action_type: fc.constantFrom(0, 1),
    is_shipping_overridden: fc.constantFrom('Yes', 'No'),
    shipping_name: fc.constantFrom('', 'Override'),
  })
  .map((f) => filter(f.raw_query as never, f.action_type, f.action_data, f as never));
const cartItem = fc.record({
  price: fc.constantFrom(0, 500, 1000, 1250, 1999),
  quantity: fc.integer({ min: 1, max: 4 }),
  product_id: fc.constantFrom(1, 2, 3),
  variant_id: fc.constantFrom(11, 12),
  requires_shipping: fc.boolean(),
});
const productRuleArb = fc.record({
  productId: fc.constantFrom('1', '2', 'gid://shopify/Product/3'),
  variantIds: fc.constantFrom([], ['11']),
  active: fc.boolean(),
  filters: fc.array(anyFilter, { maxLength: 3 }),
});
const scenario = fc.record({
  filters: fc.array(anyFilter, { maxLength: 8 }),
  productRules: fc.array(productRuleArb, { maxLength: 3 }),
  bumpAction: fc.constantFrom(null, 1, 2),
  bumpCost: amount,
  items: fc.array(cartItem, { maxLength: 6 }),
  country: fc.constantFrom(...countries),
});

function scenarioInput(s: any, filters = s.filters) {
  return {
    snapshot: snapshot({
      filters,
      productRules: s.productRules,
      settings: {
        bump_shipping_enabled: s.bumpAction !== null,
        bump_shipping_action: s.bumpAction,
        bump_shipping_cost: s.bumpCost,
        bump_shipping_name: 'Bump',
      },
    }),
    request: request(s.items, s.country),
  };
}

describe('properties', () => {
  it('the fee is never negative, and every price is whole cents', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const result = quoteInput(scenarioInput(s));
        expect(result.trace.fee).toBeGreaterThanOrEqual(0);
        for (const rate of result.rates) expect(rate.total_price).toMatch(/^\d+$/);
      }),
      { numRuns: 400 },
    );
  });

  it('where unmatched global filters sit does not change the rates', () => {
    fc.assert(
      fc.property(scenario, fc.array(fc.nat(), { maxLength: 8 }), (s, positions) => {
        const input = scenarioInput(s);
        const alone = (f: ReturnType<typeof filter>) =>
          quoteInput({ ...scenarioInput({ ...s, productRules: [] }, [f]) }).trace.matchedAny;
        const matching = s.filters.filter((f: ReturnType<typeof filter>) => alone(f));
        const unmatched = s.filters.filter((f: ReturnType<typeof filter>) => !alone(f));
        const moved = [...matching];
        unmatched.forEach((f: ReturnType<typeof filter>, i: number) =>
          moved.splice((positions[i] ?? 0) % (moved.length + 1), 0, f),
        );
        expect(quoteInput(scenarioInput(s, moved)).rates).toEqual(quoteInput(input).rates);
        expect(quoteInput(scenarioInput(s, matching)).rates).toEqual(quoteInput(input).rates);
      }),
      { numRuns: 300 },
    );
  });

  it('the same input always gives the same output, whatever was quoted in between', () => {
    // One quoter for the whole run, as the service has: shared scratch space and hot tier.
    const quoter = new Quoter(new HotTier({ size: 1000 }));
    const quote = quoter.quote.bind(quoter);
    fc.assert(
      fc.property(
        scenario,
        fc.array(fc.array(cartItem, { maxLength: 5 }), { maxLength: 3 }),
        (s, others) => {
          const input = scenarioInput(s);
          const compiled = compileSnapshot(parseSnapshot(input.snapshot));
          const first = quote(compiled, parseRateRequest(input.request), true);
          for (const other of others) quote(compiled, parseRateRequest(request(other)), true);
          expect(quote(compiled, parseRateRequest(input.request), true)).toEqual(first);
          expect(quoteInput(input)).toEqual(first);
        },
      ),
      { numRuns: 300 },
    );
  });
});

it('quote() without a trace answers the rates only', () => {
  const compiled = compileSnapshot(parseSnapshot(snapshot({ filters: [filter(always(), 1, 1)] })));
  expect(quote(compiled, parseRateRequest(request(CART_A)))).toEqual({ rates: [standard(100)] });
});

it('a unit without a variant id is not owned by a rule that lists variants', () => {
  // Product 1 has no variant id; the rule lists variant 1 only, so it owns nothing,
  // does not run, and the global per-unit fee on units without a rule counts both: 2 x 1.00.
  const result = quoteInput({
    snapshot: snapshot({
      filters: [filter(always(), 2, 1, { global_rule_action: 1 })],
      productRules: [{ productId: '1', variantIds: ['1'], filters: [filter(always(), 1, 50)] }],
    }),
    request: request([item(1000, 2, { product_id: 1 })]),
  });
  expect(result.rates).toEqual([standard(200)]);
});

it('a unit without a variant id is not freed by a rule that lists variants', () => {
  // The rule (variant 1 only) runs for its one unit and frees it: T = 2, N = 1,
  // round(1000 x 1 / 2) = 500.
  const result = quoteInput({
    snapshot: snapshot({
      filters: [filter(always(), 1, 10)],
      productRules: [{ productId: '1', variantIds: ['1'], filters: [filter(always(), 0, null)] }],
    }),
    request: request([
      item(1000, 1, { product_id: 1, variant_id: 1 }),
      item(1000, 1, { product_id: 1 }),
    ]),
  });
  expect(result.rates).toEqual([standard(500)]);
});

it('a unit that does not ship is not counted among the units a product rule freed', () => {
  // Shipping units: 1 of product 1 (freed) and 2 of product 2, T = 3, N = 2:
  // round(300 x 2 / 3) = 200. The non-shipping unit of product 1 is ignored everywhere.
  const result = quoteInput({
    snapshot: snapshot({
      filters: [filter(always(), 1, 3)],
      productRules: [{ productId: '1', filters: [filter(always(), 0, null)] }],
    }),
    request: request([
      item(1000, 1, { product_id: 1, requires_shipping: false }),
      item(1000, 1, { product_id: 1 }),
      item(500, 2, { product_id: 2 }),
    ]),
  });
  expect(result.rates).toEqual([standard(200)]);
});

it('a sanity check of the builders: standard() is the regular rate', () => {
  expect(
    quoteInput({
      snapshot: snapshot({ filters: [filter(always(), 1, 1)] }),
      request: request([item(1, 1)]),
    }).rates,
  ).toEqual([standard(100)]);
});

describe('the condition program and its generated code (the hot tier)', () => {
  // Reference: a group's meaning (docs/rates.md), written directly on the snapshot's
  // conditions and the cart's figures (not_equal applies only to the country).
  type Leaf = [field: string, operator: string, value: number | string];
  type Tree = { op: 'AND' | 'OR'; rules: (Tree | Leaf)[] };
  interface Figures {
    price: number;
    retail: number;
    free: number;
    country: string;
  }
  const compare = (operator: string, a: number | string, b: number | string): boolean =>
    ({
      equal: a === b,
      not_equal: a !== b,
      greater_than: a > b,
      greater_or_equal: a >= b,
      less_than: a < b,
      less_or_equal: a <= b,
    })[operator]!;
  const figureOf = (field: string, fig: Figures): number | string =>
    field === 'cart_price'
      ? fig.price
      : field === 'cart_retail_product_count'
        ? fig.retail
        : field === 'cart_free_product_count'
          ? fig.free
          : fig.country;
  const reference = (tree: Tree, fig: Figures): boolean => {
    const results = tree.rules.map((r) =>
      Array.isArray(r) ? compare(r[1], figureOf(r[0], fig), r[2]) : reference(r, fig),
    );
    return tree.op === 'AND' ? results.every(Boolean) : results.some(Boolean);
  };
  const toGroup = (tree: Tree): ReturnType<typeof and> =>
    (tree.op === 'AND' ? and : or)(
      ...tree.rules.map((r) =>
        Array.isArray(r)
          ? cond(r[0], r[1], r[0] === 'cart_price' ? (r[2] as number) / 100 : r[2])
          : toGroup(r),
      ),
    );
  const NUMERIC = ['equal', 'greater_than', 'greater_or_equal', 'less_than', 'less_or_equal'];
  const leaf: fc.Arbitrary<Leaf> = fc.oneof(
    fc.tuple(
      fc.constant('cart_price'),
      fc.constantFrom(...NUMERIC),
      fc.constantFrom(0, 4499, 4500, 4501, 9000),
    ),
    fc.tuple(
      fc.constantFrom('cart_retail_product_count', 'cart_free_product_count'),
      fc.constantFrom(...NUMERIC),
      fc.constantFrom(0, 1, 2, 3, 4),
    ),
    fc.tuple(
      fc.constant('shipping_country'),
      fc.constantFrom('equal', 'not_equal'),
      fc.constantFrom('US', 'CA'),
    ),
  );
  const tree = fc.letrec<{ tree: Tree }>((tie) => ({
    tree: fc.record({
      op: fc.constantFrom('AND' as const, 'OR' as const),
      rules: fc.array(fc.oneof({ depthSize: 'small', maxDepth: 3 }, leaf, tie('tree')), {
        minLength: 1,
        maxLength: 3,
      }),
    }),
  })).tree;
  const figures = fc.record({
    price: fc.constantFrom(0, 4499, 4500, 4501, 9000),
    retail: fc.constantFrom(0, 1, 3, 4),
    free: fc.constantFrom(0, 1, 2),
    country: fc.constantFrom('US', 'CA', 'DE'),
  });
  // CART_A: 45.00, 3 retail units, 1 free unit, to the US.
  const CART_A_FIGURES: Figures = { price: 4500, retail: 3, free: 1, country: 'US' };

  // At most 3 x 3 x 3 x 3 conditions a filter, under the limit of 50.
  it('the loop and the generated code match exactly when the nested AND / OR groups hold', () => {
    fc.assert(
      fc.property(fc.array(tree, { minLength: 1, maxLength: 5 }), figures, (trees, fig) => {
        const compiled = compileSnapshot(
          parseSnapshot(snapshot({ filters: trees.map((t) => filter(toGroup(t), 1, 1)) })),
        );
        const f = new Float64Array(compiled.width);
        f[PRICE] = fig.price;
        f[RETAIL] = fig.retail;
        f[FREE] = fig.free;
        f[COUNTRY] = countryCode(fig.country);
        const generated = generateMatcher(compiled);
        const expected = trees.map((t) => reference(t, fig));
        const code = compiled.code;
        const roots = trees.map((_, k) => code[compiled.table + k * FILTER_WORDS + F_ROOT]!);
        expect(roots.map((root) => matches(code, root, f))).toEqual(expected);
        expect(trees.map((_, k) => generated(code, f, k))).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('whole quotes are the same from the loop and from the hot tier', () => {
    fc.assert(
      fc.property(fc.array(tree, { minLength: 1, maxLength: 5 }), (trees) => {
        const snap = parseSnapshot(
          snapshot({ filters: trees.map((t) => filter(toGroup(t), 1, 1)) }),
        );
        const req = parseRateRequest(request(CART_A));
        const loop = new Quoter(new HotTier({ size: 0 }));
        const cold = compileSnapshot(snap);
        const byLoop = loop.quote(cold, req, true);
        expect(cold.hot).toBeNull();
        const hot = new Quoter(new HotTier({ size: 1000 }));
        const warm = compileSnapshot(snap);
        for (let i = 0; i < HOT_AFTER; i++) hot.quote(warm, req, true);
        expect(warm.hot?.fn).toBeInstanceOf(Function);
        expect(hot.quote(warm, req, true)).toEqual(byLoop);
        expect(byLoop.trace!.steps.map((s) => s.matched)).toEqual(
          trees.map((t) => reference(t, CART_A_FIGURES)),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('shops whose rules have the same shape share one generated function; the LRU is bounded', () => {
    const tier = new HotTier({ size: 2 });
    const quoter = new Quoter(tier);
    const quote = quoter.quote.bind(quoter);
    const req = parseRateRequest(request(CART_A));
    const shop = (amount: number, country: string) =>
      compileSnapshot(
        parseSnapshot(
          snapshot({
            filters: [
              filter(
                and(
                  cond('cart_price', 'greater_than', amount),
                  or(cond('shipping_country', 'equal', country)),
                ),
                1,
                1,
              ),
            ],
          }),
        ),
      );
    const a = shop(10, 'US');
    const b = shop(99, 'CA');
    for (let i = 0; i < HOT_AFTER; i++) {
      quote(a, req);
      quote(b, req);
    }
    expect(a.hot).not.toBeNull();
    expect(a.hot).toBe(b.hot);
    expect(quote(a, req).rates).toEqual([standard(100)]);
    expect(quote(b, req).rates).toEqual([]);
    expect(tier.stats().held).toBe(1);
    // Three shapes in a tier of two: the least recently quoted loses its code.
    const shapes = [1, 2, 3].map((n) =>
      compileSnapshot(
        parseSnapshot(
          snapshot({
            filters: Array.from({ length: n }, () => filter(always(), 1, 1)),
          }),
        ),
      ),
    );
    for (const c of shapes) for (let i = 0; i < HOT_AFTER; i++) quote(c, req);
    expect(tier.stats().held).toBe(2);
    expect(a.hot!.fn).toBeNull();
    expect(quote(a, req).rates).toEqual([standard(100)]);
  });
});

describe('region codes and postal tests', () => {
  it('numbers regions so that equal numbers are equal regions', () => {
    const regions = ['US-CA', 'US-C', 'US-C0', 'US-CA0', 'CA-US', 'US-ZZZ', 'AA-0', 'ZZ-999'];
    const codes = regions.map(regionCode);
    expect(new Set(codes).size).toBe(regions.length);
    for (const code of codes) expect(code).toBeGreaterThanOrEqual(0);
    expect(Math.max(...codes)).toBeLessThan(2 ** 31);
  });

  it.each([
    ['', -1],
    ['US', -2],
    ['US-', -2],
    ['US-CALI', -2],
    ['USCA', -2],
    ['US_CA', -2],
    ['US-C-', -2],
    ['U1-CA', -2],
  ])('an empty or malformed region %p is %p, which no rule region equals', (region, code) => {
    expect(regionCode(region)).toBe(code);
  });

  const test = (kind: 'equal' | 'starts_with' | 'between', a: string, b = '') => ({
    slot: 0,
    test: kind,
    a,
    b,
  });
  it.each([
    [test('equal', '90210'), '90210', true],
    [test('equal', '90210'), '902101234', false],
    [test('equal', '90210'), '', false],
    [test('starts_with', '902'), '902101234', true],
    [test('starts_with', '902'), '90', false],
    [test('starts_with', '902'), '', false],
    [test('between', '90000', '96199'), '902101234', true],
    [test('between', '90000', '96199'), '90000', true],
    [test('between', '90000', '96199'), '96199', true],
    [test('between', '90000', '96199'), '961999999', true],
    [test('between', '90000', '96199'), '96200', false],
    [test('between', '90000', '96199'), '89999', false],
    [test('between', '90000', '96199'), '9021', false],
    [test('between', '90000', '96199'), '', false],
    [test('between', 'K', 'K'), 'K2P1L4', true],
    [test('between', '0', '9'), 'A1', false],
    [test('between', 'A', 'Z'), '9', false],
  ])('%p holds for %p: %p', (t, code, expected) => {
    expect(postalHolds(t, code)).toBe(expected);
  });
});
