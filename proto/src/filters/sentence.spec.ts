import { ACTION_TYPES, FIELDS, type FilterScope } from './catalogue';
import type { DraftValue, FilterDraft } from './draft';
import { describeFilter, type SentenceFormat } from './sentence';
import { draftCondition as condition, draftFilter, draftGroup as group } from '../testing';

const UNIT_NAMES = { g: 'gram', kg: 'kilogram', lb: 'pound', oz: 'ounce' } as const;

/** What the admin supplies, with a shop currency and locale (names: a few, enough here). */
function formatFor(locale: string, currency: string): SentenceFormat {
  const money = new Intl.NumberFormat(locale, { style: 'currency', currency });
  const countries: Record<string, string> = { CA: 'Canada', MX: 'Mexico', US: 'United States' };
  const regions: Record<string, string> = { 'US-CA': 'California', 'US-OR': 'Oregon' };
  return {
    locale,
    money: (amount) => money.format(amount),
    weight: ({ amount, unit }) =>
      new Intl.NumberFormat(locale, { style: 'unit', unit: UNIT_NAMES[unit] }).format(amount),
    country: (code) => countries[code] ?? code,
    region: (code) => regions[code] ?? code,
  };
}

const US = formatFor('en-US', 'USD');
/** Intl's de-DE puts a no-break space before the euro sign; written plainly here. */
const plain = (text: string) => text.replace(/\u00a0/g, ' ');

/** "If <conditions> → add $4.99, then stop." with these rules. */
const withRules = (rules: FilterDraft['raw_query']['rules'], conditionWord = 'AND') =>
  draftFilter({ raw_query: group(rules, conditionWord) });

/** A value of each field and the phrase of each operator with it: every field of the catalogue needs one. */
const CONDITIONS: Record<
  string,
  { value(operator: string): DraftValue; phrases: Record<string, string> }
> = {
  shipping_country: {
    value: (operator) => (operator.endsWith('in') ? ['ca', 'MX', 'us'] : ' ca '),
    phrases: {
      equal: 'shipping to Canada',
      not_equal: 'not shipping to Canada',
      in: 'shipping to Canada, Mexico or United States',
      not_in: 'not shipping to Canada, Mexico or United States',
    },
  },
  cart_price: {
    value: () => 200,
    phrases: {
      equal: 'the cart is exactly $200.00',
      greater_than: 'the cart is more than $200.00',
      greater_or_equal: 'the cart is at least $200.00',
      less_than: 'the cart is less than $200.00',
      less_or_equal: 'the cart is at most $200.00',
    },
  },
  cart_retail_product_count: {
    value: () => 3,
    phrases: {
      equal: 'the cart has exactly 3 retail items',
      greater_than: 'the cart has more than 3 retail items',
      greater_or_equal: 'the cart has at least 3 retail items',
      less_than: 'the cart has less than 3 retail items',
      less_or_equal: 'the cart has at most 3 retail items',
    },
  },
  cart_free_product_count: {
    value: () => 1,
    phrases: {
      equal: 'the cart has exactly 1 free item',
      greater_than: 'the cart has more than 1 free item',
      greater_or_equal: 'the cart has at least 1 free item',
      less_than: 'the cart has less than 1 free item',
      less_or_equal: 'the cart has at most 1 free item',
    },
  },
  cart_product_count_of_x_price: {
    value: () => ({ count: 2, amount: 9.5 }),
    phrases: {
      equal: 'the cart has exactly 2 items priced $9.50',
      greater_than: 'the cart has more than 2 items priced $9.50',
      greater_or_equal: 'the cart has at least 2 items priced $9.50',
      less_than: 'the cart has less than 2 items priced $9.50',
      less_or_equal: 'the cart has at most 2 items priced $9.50',
    },
  },
  cart_weight: {
    value: () => ({ amount: 1.5, unit: 'kg' }),
    phrases: {
      equal: 'the cart weighs exactly 1.5 kg',
      greater_than: 'the cart weighs more than 1.5 kg',
      greater_or_equal: 'the cart weighs at least 1.5 kg',
      less_than: 'the cart weighs less than 1.5 kg',
      less_or_equal: 'the cart weighs at most 1.5 kg',
    },
  },
  shipping_region: {
    value: (operator) => (operator.endsWith('in') ? ['us-ca', 'US-OR'] : 'us-ca'),
    phrases: {
      equal: 'shipping to California',
      not_equal: 'not shipping to California',
      in: 'shipping to California or Oregon',
      not_in: 'not shipping to California or Oregon',
    },
  },
  shipping_postal_code: {
    value: (operator) =>
      operator === 'between'
        ? { from: '90000', to: '96199' }
        : operator.includes('_any') || operator.endsWith('in')
          ? ['99501', '995 02', '96801', '1', '2', '3', '4']
          : 'k2p 1l4',
    phrases: {
      equal: 'the postal code is K2P1L4',
      not_equal: 'the postal code is not K2P1L4',
      starts_with: 'the postal code starts with K2P1L4',
      not_starts_with: 'the postal code does not start with K2P1L4',
      between: 'the postal code is between 90000 and 96199',
      in: 'the postal code is 99501, 99502, 96801, 1, 2 or 2 more',
      not_in: 'the postal code is none of 99501, 99502, 96801, 1, 2 or 2 more',
      starts_with_any: 'the postal code starts with 99501, 99502, 96801, 1, 2 or 2 more',
      not_starts_with_any:
        'the postal code starts with none of 99501, 99502, 96801, 1, 2 or 2 more',
    },
  },
  cart_item_vendor: {
    value: () => ' Acme Boots ',
    phrases: {
      any_equal: 'any item is from “Acme Boots”',
      all_equal: 'every item is from “Acme Boots”',
      none_equal: 'no item is from “Acme Boots”',
    },
  },
  cart_item_product_type: {
    value: () => 'Boots',
    phrases: {
      any_equal: "any item's product type is “Boots”",
      all_equal: "every item's product type is “Boots”",
      none_equal: "no item's product type is “Boots”",
    },
  },
  cart_item_product_tag: {
    value: () => 'oversize',
    phrases: {
      any_equal: 'any item is tagged “oversize”',
      all_equal: 'every item is tagged “oversize”',
      none_equal: 'no item is tagged “oversize”',
    },
  },
  cart_item_sku: {
    value: () => 'GIFT-',
    phrases: {
      any_equal: "any item's SKU is “GIFT-”",
      all_equal: "every item's SKU is “GIFT-”",
      none_equal: "no item's SKU is “GIFT-”",
      any_starts_with: "any item's SKU starts with “GIFT-”",
      all_starts_with: "every item's SKU starts with “GIFT-”",
      none_starts_with: "no item's SKU starts with “GIFT-”",
    },
  },
};

describe('describeFilter', () => {
  it('reads the example of the issue', () => {
    const filter = draftFilter({
      raw_query: group([
        condition('shipping_country', 'equal', 'CA'),
        condition('cart_price', 'greater_or_equal', 200),
      ]),
      action_type: 0,
      action_data: null,
    });
    expect(describeFilter(filter, US)).toBe(
      "If shipping to Canada and the cart is at least $200.00 → make the cart's shipping free, replacing what the rules before it made, then stop.",
    );
  });

  it('has a phrase for every field of the catalogue and no other', () => {
    expect(Object.keys(CONDITIONS).sort()).toEqual(FIELDS.map((f) => f.key).sort());
  });

  const pairs = FIELDS.flatMap((field) => field.operators.map((op) => [field.key, op] as const));
  it.each(pairs)('%s %s', (field, operator) => {
    const entry = CONDITIONS[field];
    expect(entry).toBeDefined();
    const phrase = entry!.phrases[operator];
    expect(phrase).toBeDefined();
    const filter = withRules([condition(field, operator, entry!.value(operator))]);
    expect(describeFilter(filter, US)).toBe(`If ${phrase} → add $4.99, then stop.`);
  });

  it('has a phrase for every operator of each field and no other', () => {
    for (const field of FIELDS) {
      expect(Object.keys(CONDITIONS[field.key]!.phrases).sort()).toEqual(
        [...field.operators].sort(),
      );
    }
  });

  const ACTIONS: Record<FilterScope, Record<number, string>> = {
    ruleset: {
      0: "make the cart's shipping free, replacing what the rules before it made",
      1: 'add $5.00',
      2: 'add $5.00 per retail item',
      3: 'add $5.00 per free item',
      4: 'add $5.00 per item priced $12.00',
      5: "set the cart's shipping to $5.00, replacing what the rules before it made",
      6: 'add $5.00 for each started 2 lb of the cart weight',
      7: 'block shipping: checkout gets no rates',
    },
    product: {
      0: "this product ships free: the cart's shipping is cut by its share of the items",
      1: "add $5.00 to the cart's shipping once",
      2: 'add $5.00 per retail item of this product',
      3: 'add $5.00 per free item of this product',
      4: 'add $5.00 per item of this product priced $12.00',
      5: "set the whole cart's shipping to $5.00, replacing what the ruleset and the rules before it made",
      6: "add $5.00 for each started 2 lb of this product's weight",
      7: 'block shipping: checkout gets no rates',
    },
  };
  const actionCases = (['ruleset', 'product'] as const).flatMap((scope) =>
    ACTION_TYPES.map((type) => [scope, type] as const),
  );
  it.each(actionCases)('%s action %i', (scope, type) => {
    const filter = draftFilter({
      action_type: type,
      action_data: 5,
      rule_product_limit_amount: 12,
      action_weight_step: { amount: 2, unit: 'lb' },
    });
    expect(ACTIONS[scope][type]).toBeDefined();
    // Block Shipping always ends evaluation: "then stop" would say less.
    const then = type === 7 ? '' : ', then stop';
    expect(describeFilter(filter, US, scope)).toBe(
      `If the cart is less than $50.00 → ${ACTIONS[scope][type]}${then}.`,
    );
  });

  it.each([
    [2, 'add $5.00 per retail item without a product rule'],
    [3, 'add $5.00 per free item without a product rule'],
    [4, 'add $5.00 per item without a product rule priced $12.00'],
    [6, 'add $5.00 for each started 2 lb of the weight of items without a product rule'],
  ])('action %i applied to items without a product rule', (type, phrase) => {
    const filter = draftFilter({
      action_type: type,
      action_data: 5,
      rule_product_limit_amount: 12,
      global_rule_action: 1,
      action_weight_step: { amount: 2, unit: 'lb' },
    });
    expect(describeFilter(filter, US)).toBe(
      `If the cart is less than $50.00 → ${phrase}, then stop.`,
    );
  });

  it('says nothing of stopping when the filter continues', () => {
    expect(describeFilter(draftFilter({ post_processing_action_type: 1 }), US)).toBe(
      'If the cart is less than $50.00 → add $4.99.',
    );
  });

  describe('nesting', () => {
    const a = condition('shipping_country', 'equal', 'CA');
    const b = condition('cart_price', 'greater_than', 100);
    const c = condition('cart_retail_product_count', 'less_than', 5);
    const d = condition('shipping_postal_code', 'starts_with', 'K');
    const A = 'shipping to Canada';
    const B = 'the cart is more than $100.00';
    const C = 'the cart has less than 5 retail items';
    const D = 'the postal code starts with K';
    const conditionsOf = (rules: FilterDraft['raw_query']['rules'], word = 'AND') =>
      describeFilter(withRules(rules, word), US).replace(
        /^If (.*) → add \$4\.99, then stop\.$/,
        '$1',
      );

    it.each([
      ['one condition', [a], 'AND', A],
      ['two under AND', [a, b], 'AND', `${A} and ${B}`],
      ['three under OR', [a, b, c], 'OR', `${A}, ${B} or ${C}`],
      ['an OR ending an AND', [a, group([b, c], 'OR')], 'AND', `${A} and either ${B} or ${C}`],
      [
        'an OR inside an AND, then more',
        [group([b, c], 'OR'), a],
        'AND',
        `(${B} or ${C}) and ${A}`,
      ],
      ['an AND inside an OR', [a, group([b, c])], 'OR', `${A} or (${B} and ${C})`],
      ['a nested group of one condition', [a, group([b])], 'AND', `${A} and ${B}`],
      [
        'an OR holding a group',
        [a, group([b, group([c, d])], 'OR')],
        'AND',
        `${A} and (${B} or (${C} and ${D}))`,
      ],
      [
        'three levels',
        [group([a, group([b, group([c, d], 'OR')])], 'OR')],
        'AND',
        `${A} or (${B} and either ${C} or ${D})`,
      ],
    ])('%s', (_name, rules, word, expected) => {
      expect(conditionsOf(rules as FilterDraft['raw_query']['rules'], word)).toBe(expected);
    });

    it('reads a snapshot group that leaves out its type', () => {
      const untyped = {
        id: 'g',
        condition: 'OR',
        rules: [b, c],
      } as unknown as FilterDraft['raw_query'];
      expect(conditionsOf([a, untyped])).toBe(`${A} and either ${B} or ${C}`);
    });
  });

  describe('a filter being typed', () => {
    const typed = (
      rules: FilterDraft['raw_query']['rules'],
      overrides: Partial<FilterDraft> = {},
    ) => describeFilter(draftFilter({ raw_query: group(rules), ...overrides }), US);

    it.each([
      ['no condition: every cart', [], {}, 'For every cart → add $4.99, then stop.'],
      ['an empty nested group', [group([])], {}, 'If … → add $4.99, then stop.'],
      [
        'a value not typed',
        [condition('cart_price', 'less_than', null)],
        {},
        'If the cart is less than … → add $4.99, then stop.',
      ],
      [
        'a country not chosen',
        [condition('shipping_country', 'equal', '')],
        {},
        'If shipping to … → add $4.99, then stop.',
      ],
      ['no query at all', [], { raw_query: null }, 'If … → add $4.99, then stop.'],
      [
        'every cart, blocked, whatever it says after a match',
        [],
        { action_type: 7, post_processing_action_type: 1 },
        'For every cart → block shipping: checkout gets no rates.',
      ],
      [
        'a count not typed',
        [condition('cart_retail_product_count', 'greater_or_equal', null)],
        {},
        'If the cart has at least … retail items → add $4.99, then stop.',
      ],
      [
        'an amount that is no number',
        [condition('cart_price', 'less_than', { count: 1, amount: 2 })],
        {},
        'If the cart is less than … → add $4.99, then stop.',
      ],
      [
        'a country that is no text',
        [condition('shipping_country', 'equal', 5)],
        {},
        'If shipping to … → add $4.99, then stop.',
      ],
      [
        'a postal code that is no text',
        [condition('shipping_postal_code', 'equal', 5)],
        {},
        'If the postal code is … → add $4.99, then stop.',
      ],
      [
        'a weight half typed',
        // The editor sends what is not a number yet as typed (model.ts, numberToWire).
        [condition('cart_weight', 'less_than', { amount: ' 2. ' as never, unit: 'kg' })],
        {},
        'If the cart weighs less than 2. kg → add $4.99, then stop.',
      ],
      [
        'a weight without unit',
        [condition('cart_weight', 'less_than', { amount: 3 } as never)],
        {},
        'If the cart weighs less than 3 → add $4.99, then stop.',
      ],
      [
        'a decimal half typed',
        [condition('cart_price', 'less_than', '4.')],
        {},
        'If the cart is less than 4. → add $4.99, then stop.',
      ],
      [
        'a count and amount with no amount',
        [condition('cart_product_count_of_x_price', 'equal', { count: 2, amount: null })],
        {},
        'If the cart has exactly 2 items priced … → add $4.99, then stop.',
      ],
      [
        'a weight without amount',
        [condition('cart_weight', 'less_than', { amount: null, unit: 'kg' })],
        {},
        'If the cart weighs less than … → add $4.99, then stop.',
      ],
      [
        'a weight in an unknown unit',
        [condition('cart_weight', 'less_than', { amount: 3, unit: 'stone' })],
        {},
        'If the cart weighs less than 3 stone → add $4.99, then stop.',
      ],
      [
        'a between with one bound',
        [condition('shipping_postal_code', 'between', { from: '9', to: '' })],
        {},
        'If the postal code is between 9 and … → add $4.99, then stop.',
      ],
      [
        'no operator yet',
        [condition('cart_weight', '', null)],
        {},
        'If the cart weighs … … → add $4.99, then stop.',
      ],
      [
        'an unknown field',
        [condition('colour', 'equal', 'red')],
        {},
        'If an unknown condition (colour) → add $4.99, then stop.',
      ],
      [
        'no amount',
        [condition('cart_price', 'less_than', 50)],
        { action_data: null },
        'If the cart is less than $50.00 → add …, then stop.',
      ],
      [
        'action 6 without a step',
        [condition('cart_price', 'less_than', 50)],
        { action_type: 6, action_weight_step: null },
        'If the cart is less than $50.00 → add $4.99 for each started … of the cart weight, then stop.',
      ],
      [
        'an unknown action',
        [condition('cart_price', 'less_than', 50)],
        { action_type: 9 },
        'If the cart is less than $50.00 → apply an unknown action, then stop.',
      ],
    ])('%s', (_name, rules, overrides, expected) => {
      expect(
        typed(rules as FilterDraft['raw_query']['rules'], overrides as Partial<FilterDraft>),
      ).toBe(expected);
    });

    it('reads groups as deep as a saved filter may nest them, one level more, and no further', () => {
      const nested = (levels: number) => {
        let inner = group([condition('cart_price', 'less_than', 1)]);
        for (let level = 1; level < levels; level++) inner = group([inner]);
        return inner;
      };
      // Six levels (one past the five a saved filter may have) read; seven stop.
      expect(typed([nested(5)])).toBe('If the cart is less than $1.00 → add $4.99, then stop.');
      expect(typed([nested(6)])).toBe('If … → add $4.99, then stop.');
    });

    it('stops at groups nested past the limits instead of recursing', () => {
      let deep = group([condition('cart_price', 'less_than', 1)]);
      for (let i = 0; i < 20; i++) deep = group([deep, condition('cart_price', 'less_than', 1)]);
      expect(() => typed([deep])).not.toThrow();
      expect(typed([deep])).toContain('…');
    });
  });

  describe('locales', () => {
    const filter = draftFilter({
      raw_query: group([
        condition('cart_price', 'greater_or_equal', 1234.5),
        condition('cart_retail_product_count', 'greater_than', 1000),
        condition('cart_weight', 'less_than', { amount: 2.5, unit: 'kg' }),
      ]),
      action_type: 6,
      action_data: 2,
      action_weight_step: { amount: 0.5, unit: 'kg' },
    });

    it('writes money, counts and weights the en-US way in dollars', () => {
      expect(describeFilter(filter, US)).toBe(
        'If the cart is at least $1,234.50, the cart has more than 1,000 retail items and the cart weighs less than 2.5 kg → add $2.00 for each started 0.5 kg of the cart weight, then stop.',
      );
    });

    it('writes them the de-DE way in euros', () => {
      expect(plain(describeFilter(filter, formatFor('de-DE', 'EUR')))).toBe(
        'If the cart is at least 1.234,50 €, the cart has more than 1.000 retail items and the cart weighs less than 2,5 kg → add 2,00 € for each started 0,5 kg of the cart weight, then stop.',
      );
    });
  });
});

describe('a postal code still being typed', () => {
  it.each([
    ['an operator postal codes do not have', 'less_than', 'K2P', 'the postal code is …'],
    ['no operator yet', '', 'K2P', 'the postal code is …'],
    ['only punctuation, shown trimmed as typed', 'equal', '  - ', 'the postal code is -'],
    ['only punctuation, after starts with', 'starts_with', ' / ', 'the postal code starts with /'],
  ])('%s', (_name, operator, value, phrase) => {
    expect(
      describeFilter(withRules([condition('shipping_postal_code', operator, value)]), US),
    ).toBe(`If ${phrase} → add $4.99, then stop.`);
  });
});

describe('figures that are no finite number', () => {
  it.each([Number.NaN, Number.POSITIVE_INFINITY])('an amount of %p reads as missing', (amount) => {
    expect(describeFilter(draftFilter({ action_data: amount }), US)).toBe(
      'If the cart is less than $50.00 → add …, then stop.',
    );
  });
});

describe('a value that cannot be saved is shown as typed, never rounded', () => {
  it.each([
    ['an amount of 3 decimals', 'cart_price', '4.999', 'the cart is less than 4.999'],
    ['an amount with a decimal comma', 'cart_price', '4,99', 'the cart is less than 4,99'],
    ['an amount over the limit', 'cart_price', 2_000_000, 'the cart is less than 2000000'],
    [
      'a count with decimals',
      'cart_retail_product_count',
      '2.5',
      'the cart has less than 2.5 retail items',
    ],
    [
      'a weight of 4 decimals',
      'cart_weight',
      { amount: '1.2345', unit: 'kg' },
      'the cart weighs less than 1.2345 kg',
    ],
  ])('%s', (_name, field, value, phrase) => {
    // As the editor sends them: a number typed wrong goes as text.
    expect(describeFilter(withRules([condition(field, 'less_than', value as never)]), US)).toBe(
      `If ${phrase} → add $4.99, then stop.`,
    );
  });

  it("an action's amount of 3 decimals, and the $X price", () => {
    const typed = (text: string) => text as unknown as number;
    expect(
      describeFilter(
        draftFilter({
          action_type: 4,
          action_data: typed('4.999'),
          rule_product_limit_amount: typed('0.125'),
        }),
        US,
      ),
    ).toBe('If the cart is less than $50.00 → add 4.999 per item priced 0.125, then stop.');
  });
});
