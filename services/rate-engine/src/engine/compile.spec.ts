/**
 * The compiler's own choices (compile.ts) that the shared rate cases do not pin:
 * how regions are numbered, which postal tests share a slot, what the compiled
 * snapshot keeps of the settings. Quotes go through the public engine.
 */
import { and, always, cond, filter, item, requestTo, snapshot } from '../../test/fixtures/cases';
import { compileSnapshot, regionCode } from './compile';
import { quote } from './evaluate';
import { parseSnapshot } from './input';
import { F_STOPS, F_UNRULED, FILTER_WORDS, FIRST_X } from './program-layout';
import { parseRateRequest } from './request';

const compile = (snap: unknown, options = {}) => compileSnapshot(parseSnapshot(snap), options);
const to = (destination: Record<string, unknown>, items = [item(1000, 1)]) =>
  parseRateRequest(requestTo(items, destination));

describe('region codes: the country, then three base-37 digits (0-9 are 1-10, A-Z 11-36)', () => {
  const country = (c: string) => (c.charCodeAt(0) - 65) * 26 + (c.charCodeAt(1) - 65);
  const digit = (ch: string | undefined) =>
    ch === undefined ? 0 : ch <= '9' ? ch.charCodeAt(0) - 47 : ch.charCodeAt(0) - 54;
  const expected = (region: string) =>
    [3, 4, 5].reduce((code, i) => code * 37 + digit(region[i]), country(region));

  it.each(['AA-0', 'AA-9', 'AA-A', 'AA-Z', 'US-CA', 'US-C0', 'ZZ-Z9A', 'GB-LND', 'AB-1'])(
    '%p',
    (region) => {
      expect(regionCode(region)).toBe(expected(region));
    },
  );

  it('pins a few by hand', () => {
    // AA-0: digit 1 in the first place: 1 x 37^2.
    expect(regionCode('AA-0')).toBe(1369);
    // AA-Z: 36 x 37^2; AA-00: 1 x 37^2 + 1 x 37.
    expect(regionCode('AA-Z')).toBe(49_284);
    expect(regionCode('AA-00')).toBe(1406);
    // AB-A: country 1 (x 37^3 = 50,653) + 11 x 37^2.
    expect(regionCode('AB-A')).toBe(65_712);
  });

  it.each(['AA-/', 'AA-:', 'AA-@', 'AA-[', 'AA-a', 'AA-0/', 'AA-00:', 'AA- '])(
    'a character outside 0-9 and A-Z: %p is -2',
    (region) => {
      expect(regionCode(region)).toBe(-2);
    },
  );
});

describe('postal-code tests', () => {
  it('each distinct test has its own slot; the same test twice shares one', () => {
    const c = compile(
      snapshot({
        filters: [
          filter(and(cond('shipping_postal_code', 'equal', '90210')), 1, 1),
          filter(and(cond('shipping_postal_code', 'starts_with', '90210')), 1, 10),
          filter(
            and(cond('shipping_postal_code', 'between', { from: '90000', to: '90100' })),
            1,
            100,
          ),
          filter(
            and(cond('shipping_postal_code', 'between', { from: '90000', to: '90300' })),
            1,
            1000,
          ),
          filter(and(cond('shipping_postal_code', 'not_equal', '90210')), 1, 10_000),
          filter(and(cond('shipping_postal_code', 'not_starts_with', '902')), 1, 100_000),
        ],
      }),
    );
    expect(c.postalTests).toEqual([
      { slot: FIRST_X, test: 'equal', a: '90210', b: '' },
      { slot: FIRST_X + 1, test: 'starts_with', a: '90210', b: '' },
      { slot: FIRST_X + 2, test: 'between', a: '90000', b: '90100' },
      { slot: FIRST_X + 3, test: 'between', a: '90000', b: '90300' },
      { slot: FIRST_X + 4, test: 'starts_with', a: '902', b: '' },
    ]);
    expect(c.width).toBe(FIRST_X + 5);
    const fee = (postal_code: string) =>
      quote(c, to({ country: 'US', postal_code })).rates[0]?.total_price;
    // equal, starts_with 90210, between 90000 and 90300: 1 + 10 + 1,000.
    expect(fee('90210')).toBe('101100');
    // starts_with 90210, between 90000 and 90300, not_equal: 10 + 1,000 + 10,000.
    expect(fee('902101234')).toBe('1101000');
    // both betweens, not_equal, not_starts_with 902: 100 + 1,000 + 10,000 + 100,000.
    expect(fee('90050')).toBe('11110000');
  });
});

describe('what the compiled snapshot keeps of the settings', () => {
  const withSettings = (settings: Record<string, unknown>) =>
    compile(snapshot({ filters: [filter(always(), 1, 1)], settings }));

  it('a bump rate needs the setting on and an action', () => {
    const bump = { bump_shipping_name: 'Fast', bump_shipping_cost: 2 };
    expect(
      withSettings({ ...bump, bump_shipping_enabled: true, bump_shipping_action: null }).bump,
    ).toBeNull();
    expect(
      withSettings({ ...bump, bump_shipping_enabled: false, bump_shipping_action: 2 }).bump,
    ).toBeNull();
    expect(
      withSettings({ ...bump, bump_shipping_enabled: true, bump_shipping_action: 1 }).bump,
    ).toEqual({
      action: 1,
      cost: 200,
      name: 'Fast',
      description: '',
      window: null,
    });
    // Off, its cost is never checked.
    expect(
      withSettings({
        ...bump,
        bump_shipping_enabled: false,
        bump_shipping_action: 2,
        bump_shipping_cost: -1,
      }).bump,
    ).toBeNull();
  });

  it('names the limits of the bump cost and the fallback amount in full', () => {
    expect(() =>
      withSettings({
        bump_shipping_enabled: true,
        bump_shipping_action: 2,
        bump_shipping_cost: -1,
      }),
    ).toThrow('The bump shipping cost must be from 0 to 1,000,000');
    expect(() => withSettings({ fallback_enabled: true, fallback_cost: -1 })).toThrow(
      "The fallback rate's amount must be from 0 to 1,000,000",
    );
    // Off, the fallback amount is never checked.
    expect(withSettings({ fallback_enabled: false, fallback_cost: -1 }).fallback).toBeNull();
  });

  it('recent checkouts a minute: the setting when on, else 0', () => {
    expect(
      withSettings({ recent_checkouts_enabled: true, recent_checkouts_per_minute: 9 })
        .recentPerMinute,
    ).toBe(9);
    expect(
      withSettings({ recent_checkouts_enabled: false, recent_checkouts_per_minute: 9 })
        .recentPerMinute,
    ).toBe(0);
  });

  it('keeps the shop, version, rate key and carrier texts', () => {
    const c = compile({
      ...snapshot({
        filters: [],
        settings: { carrier_name: 'Ratesmith', carrier_description: 'By weight' },
      }),
      version: 7,
      rateKey: 'key-1',
    });
    expect(c).toMatchObject({
      shop: 'case.myshopify.com',
      version: 7,
      rateKey: 'key-1',
      carrierName: 'Ratesmith',
      carrierDescription: 'By weight',
      quotes: 0,
      countedSince: 0,
      hot: null,
    });
  });
});

describe('whose problems: the owner a filter list is named by', () => {
  const problems = (snap: ReturnType<typeof snapshot>, options = {}) => {
    try {
      compile(snap, options);
    } catch (err) {
      return (err as { problems: string[] }).problems;
    }
    throw new Error('compiled');
  };
  const bad = () => [filter(always(), 2, null)];

  it('the active ruleset unless told; the draft when told', () => {
    expect(problems(snapshot({ filters: bad() }))).toEqual([
      expect.stringMatching(/^The enabled ruleset rule #1 /),
    ]);
    expect(problems(snapshot({ filters: bad() }), { globalOwner: 'The draft' })).toEqual([
      expect.stringMatching(/^The draft rule #1 /),
    ]);
  });

  it('a product rule by its product id, the draft rule as the draft', () => {
    const snap = snapshot({
      filters: [],
      productRules: [
        { productId: '5', filters: bad() },
        { productId: '6', filters: [filter(always(), 1, 1), ...bad()] },
      ],
    });
    expect(problems(snap)).toEqual([
      expect.stringMatching(/^Product rule 5 rule #1 /),
      expect.stringMatching(/^Product rule 6 rule #2 /),
    ]);
    expect(problems(snap, { draftProductRuleId: 'pr-2' })).toEqual([
      expect.stringMatching(/^Product rule 5 rule #1 /),
      expect.stringMatching(/^The draft rule #2 /),
    ]);
  });

  it('an inactive product rule is not compiled, nor checked', () => {
    const c = compile(
      snapshot({
        filters: [],
        productRules: [
          { productId: '5', active: false, filters: bad() },
          { productId: '6', filters: [filter(always(), 1, 1)] },
        ],
      }),
    );
    expect(c.productRules.map((r) => r.productId)).toEqual(['6']);
    expect([...c.byProduct]).toEqual([['6', [0]]]);
  });
});

describe('product rules', () => {
  it('two rules of one product are both listed under it, in order', () => {
    const c = compile(
      snapshot({
        filters: [filter(always(), 1, 1)],
        productRules: [
          { productId: '5', variantIds: ['51'], filters: [filter(always(), 1, 2)] },
          { productId: '6', filters: [filter(always(), 1, 3)] },
          {
            productId: 'gid://shopify/Product/5',
            variantIds: ['52'],
            filters: [filter(always(), 1, 4)],
          },
        ],
      }),
    );
    expect([...c.byProduct]).toEqual([
      ['5', [0, 2]],
      ['6', [1]],
    ]);
    expect(c.productRules.map(({ offset, count, scope }) => [offset, count, scope])).toEqual([
      [1, 1, 2],
      [2, 1, 3],
      [3, 1, 4],
    ]);
    expect(c.global).toEqual({ id: 'ruleset-1', offset: 0, count: 1 });
    // Variant 52 of product 5: the global filter and the third rule's.
    const fee = quote(c, to({ country: 'US' }, [item(1000, 1, { product_id: 5, variant_id: 52 })]));
    expect(fee.rates[0]!.total_price).toBe('500');
  });

  it('no global ruleset: no global list', () => {
    const c = compile(snapshot({ filters: null, productRules: [{ productId: '5', filters: [] }] }));
    expect(c.global).toBeNull();
    expect(c.productRules[0]).toMatchObject({ offset: 0, count: 0, variantIds: null });
  });
});

describe('the filter table and texts follow program-layout.ts', () => {
  it('[root, action, amount, $X slot or -1, flags, override or -1, step or 0] a filter', () => {
    const filters = [
      filter(always(), 0, null),
      filter(always(), 4, 1.5, { rule_product_limit_amount: 20 }),
      filter(always(), 6, 2, {
        action_weight_step: { amount: 1, unit: 'kg' },
        global_rule_action: 1,
        post_processing_action_type: 0,
      }),
      filter(always(), 1, 3, {
        is_shipping_overridden: 'Yes',
        shipping_name: 'Own',
        shipping_description: 'Own text',
        bump_shipping_name: 'Own bump',
        bump_shipping_description: 'Own bump text',
      }),
    ];
    const c = compile(snapshot({ filters }));
    const rows = Array.from({ length: filters.length }, (_, k) =>
      Array.from(c.code.subarray(c.table + k * FILTER_WORDS, c.table + (k + 1) * FILTER_WORDS)),
    );
    // Each always() is [AND, end, GE | PRICE << 3, 0]: four words.
    expect(rows).toStrictEqual([
      [0, 0, 0, -1, 0, -1, 0],
      [4, 4, 150, FIRST_X, 0, -1, 0],
      [8, 6, 200, -1, F_UNRULED | F_STOPS, -1, 1000],
      [12, 1, 300, -1, 0, 8, 0],
    ]);
    expect(c.texts).toStrictEqual([
      ...filters.flatMap((f) => [f.id, f.name]),
      'Own',
      'Own text',
      'Own bump',
      'Own bump text',
    ]);
    expect([...c.xIndex]).toStrictEqual([[2000, 0]]);
  });

  it('variant ids that are not numeric are left out of the set, not kept as undefined', () => {
    const c = compile(
      snapshot({ productRules: [{ productId: '1', variantIds: ['x9', '7'], filters: [] }] }),
    );
    expect(c.productRules[0]!.variantIds).toStrictEqual(new Set(['7']));
  });
});
