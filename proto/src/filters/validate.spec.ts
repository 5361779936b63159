import type { DraftGroup } from './draft';
import { LIMITS } from './limits';
import { actionAmount, conditionValue, idGenerator, validateFilters } from './validate';

import { draftCondition as condition, draftFilter as draft, draftGroup as group } from '../testing';

describe('validateFilters', () => {
  it('accepts a complete filter and normalises it for storage', () => {
    const { errors, filters } = validateFilters(
      [
        draft({
          name: '  Cheap carts ',
          raw_query: group([condition('shipping_country', 'equal', ' us ')], 'or'),
        }),
      ],
      'ruleset',
    );
    expect(errors).toEqual([]);
    expect(filters[0]).toMatchObject({
      name: 'Cheap carts',
      action_data: 4.99,
      raw_query: { type: 'group', condition: 'OR', rules: [{ type: 'condition', value: 'US' }] },
    });
    expect(filters[0]!.id).toMatch(/^id-/);
  });

  it.each([
    ['a blank name', draft({ name: '   ' }), 'Rule #1 needs a name'],
    [
      'a name over 200 characters',
      draft({ name: 'x'.repeat(201) }),
      'Rule #1 name must be at most 200 characters',
    ],
    [
      'a root holding only an empty group',
      draft({ raw_query: group([group([])]) }),
      'Rule #1 has 1 incomplete condition(s)',
    ],
    [
      'an empty value and an empty nested group',
      draft({ raw_query: group([condition('cart_price', 'equal', ''), group([])]) }),
      'Rule #1 has 2 incomplete condition(s)',
    ],
    [
      'a $X condition missing its amount',
      draft({
        raw_query: group([
          condition('cart_product_count_of_x_price', 'equal', { count: 2, amount: null }),
        ]),
      }),
      'Rule #1 has 1 incomplete condition(s)',
    ],
    [
      'an action without amount',
      draft({ action_type: 2, action_data: null }),
      'Rule #1 needs an amount',
    ],
    [
      'an amount with three decimals',
      draft({ action_data: 1.005 }),
      'Rule #1 amount must be from 0 to 1,000,000 with at most 2 decimals',
    ],
    [
      'action 4 without the product cost',
      draft({ action_type: 4 }),
      'Rule #1 needs the product cost ($X)',
    ],
    ['an unknown action', draft({ action_type: 8 }), 'Rule #1 has an unknown action type'],
    ['action 6 without a step', draft({ action_type: 6 }), 'Rule #1 needs a weight step'],
    [
      'action 6 with a step without an amount',
      draft({ action_type: 6, action_weight_step: { amount: null, unit: 'kg' } }),
      'Rule #1 needs a weight step',
    ],
    [
      'action 6 with a step in stones',
      draft({ action_type: 6, action_weight_step: { amount: 1, unit: 'st' } }),
      'Rule #1 weight step must be a weight from 0 to 100,000 with at most 3 decimals, in g, kg, lb or oz',
    ],
    [
      'action 6 with a step of 4 decimals',
      draft({ action_type: 6, action_weight_step: { amount: 1.0005, unit: 'kg' } }),
      'Rule #1 weight step must be a weight from 0 to 100,000 with at most 3 decimals, in g, kg, lb or oz',
    ],
    [
      'action 6 with a step of 0.001 lb (0 g)',
      draft({ action_type: 6, action_weight_step: { amount: 0.001, unit: 'lb' } }),
      'Rule #1 weight step must be at least 1 g',
    ],
    [
      'action 6 without an amount',
      draft({ action_type: 6, action_data: null, action_weight_step: { amount: 1, unit: 'kg' } }),
      'Rule #1 needs an amount',
    ],
    [
      'a weight over 100,000',
      draft({
        raw_query: group([condition('cart_weight', 'equal', { amount: 100_000.001, unit: 'g' })]),
      }),
      'Rule #1: Cart Weight must be a weight from 0 to 100,000 with at most 3 decimals, in g, kg, lb or oz',
    ],
    [
      'a negative weight',
      draft({ raw_query: group([condition('cart_weight', 'equal', { amount: -1, unit: 'kg' })]) }),
      'Rule #1: Cart Weight must be a weight from 0 to 100,000 with at most 3 decimals, in g, kg, lb or oz',
    ],
    [
      'a weight without a unit',
      draft({ raw_query: group([condition('cart_weight', 'equal', { amount: 1, unit: '' })]) }),
      'Rule #1: Cart Weight must be a weight from 0 to 100,000 with at most 3 decimals, in g, kg, lb or oz',
    ],
    [
      'a weight given as a bare number',
      draft({ raw_query: group([condition('cart_weight', 'equal', 5)]) }),
      'Rule #1: Cart Weight must be a weight from 0 to 100,000 with at most 3 decimals, in g, kg, lb or oz',
    ],
    [
      'a weight without an amount',
      draft({
        raw_query: group([condition('cart_weight', 'equal', { amount: null, unit: 'kg' })]),
      }),
      'Rule #1 has 1 incomplete condition(s)',
    ],
    [
      'a string operator on the weight',
      draft({
        raw_query: group([condition('cart_weight', 'starts_with', { amount: 1, unit: 'kg' })]),
      }),
      'Rule #1 uses an operator that does not apply to Cart Weight',
    ],
    [
      'a region without its country',
      draft({ raw_query: group([condition('shipping_region', 'equal', 'CA')]) }),
      'Rule #1: Shipping State/Province needs a state or province code like US-CA (two letters, a hyphen, 1 to 3 letters or digits)',
    ],
    [
      'a region of 4 characters',
      draft({ raw_query: group([condition('shipping_region', 'equal', 'US-CALI')]) }),
      'Rule #1: Shipping State/Province needs a state or province code like US-CA (two letters, a hyphen, 1 to 3 letters or digits)',
    ],
    [
      'a numeric operator on the region',
      draft({ raw_query: group([condition('shipping_region', 'greater_than', 'US-CA')]) }),
      'Rule #1 uses an operator that does not apply to Shipping State/Province',
    ],
    [
      'a postal code of 21 characters',
      draft({ raw_query: group([condition('shipping_postal_code', 'equal', '1'.repeat(21))]) }),
      'Rule #1: Shipping Postal Code needs a postal code of 1 to 20 letters or digits',
    ],
    [
      'a postal code of punctuation only',
      draft({ raw_query: group([condition('shipping_postal_code', 'starts_with', ' - ')]) }),
      'Rule #1: Shipping Postal Code needs a postal code of 1 to 20 letters or digits',
    ],
    [
      'a postal range for equal',
      draft({
        raw_query: group([condition('shipping_postal_code', 'equal', { from: '1', to: '2' })]),
      }),
      'Rule #1: Shipping Postal Code needs a postal code of 1 to 20 letters or digits',
    ],
    [
      'a single code for between',
      draft({ raw_query: group([condition('shipping_postal_code', 'between', '90000')]) }),
      'Rule #1: Shipping Postal Code between needs two postal codes of 1 to 10 letters or digits, of the same length, the first not after the second',
    ],
    [
      'between bounds of different lengths',
      draft({
        raw_query: group([
          condition('shipping_postal_code', 'between', { from: '9000', to: '96199' }),
        ]),
      }),
      'Rule #1: Shipping Postal Code between needs two postal codes of 1 to 10 letters or digits, of the same length, the first not after the second',
    ],
    [
      'between bounds the wrong way round',
      draft({
        raw_query: group([
          condition('shipping_postal_code', 'between', { from: '96199', to: '90000' }),
        ]),
      }),
      'Rule #1: Shipping Postal Code between needs two postal codes of 1 to 10 letters or digits, of the same length, the first not after the second',
    ],
    [
      'between bounds of 11 characters',
      draft({
        raw_query: group([
          condition('shipping_postal_code', 'between', {
            from: '1'.repeat(11),
            to: '2'.repeat(11),
          }),
        ]),
      }),
      'Rule #1: Shipping Postal Code between needs two postal codes of 1 to 10 letters or digits, of the same length, the first not after the second',
    ],
    [
      'between with one bound',
      draft({
        raw_query: group([
          condition('shipping_postal_code', 'between', { from: '90000', to: ' ' }),
        ]),
      }),
      'Rule #1 has 1 incomplete condition(s)',
    ],
    [
      'a postal code without a value',
      draft({ raw_query: group([condition('shipping_postal_code', 'equal', '')]) }),
      'Rule #1 has 1 incomplete condition(s)',
    ],
    [
      'an unknown field',
      draft({ raw_query: group([condition('weight', 'equal', 3)]) }),
      'Rule #1 has a condition on an unknown field',
    ],
    [
      'a numeric operator on the country',
      draft({ raw_query: group([condition('shipping_country', 'greater_than', 'US')]) }),
      'Rule #1 uses an operator that does not apply to Shipping Country',
    ],
    [
      'a fractional count',
      draft({ raw_query: group([condition('cart_retail_product_count', 'equal', 1.5)]) }),
      'Rule #1: Cart Retail Product Count must be a whole number from 0 to 100,000',
    ],
    [
      'an amount over the limit',
      draft({ raw_query: group([condition('cart_price', 'equal', 1_000_001)]) }),
      'Rule #1: Cart Price must be an amount from 0 to 1,000,000 with at most 2 decimals',
    ],
    [
      'a shipping name over 160 characters',
      draft({ shipping_name: 'n'.repeat(161) }),
      'Rule #1 shipping name must be at most 160 characters',
    ],
  ])('refuses %s', (_label, filter, message) => {
    expect(validateFilters([filter], 'ruleset').errors).toContain(message);
  });

  it('reports every problem of every filter at once, numbered from 1', () => {
    const { errors } = validateFilters(
      [draft(), draft({ name: '' }), draft({ raw_query: group([group([])]) })],
      'ruleset',
    );
    expect(errors).toEqual(['Rule #2 needs a name', 'Rule #3 has 1 incomplete condition(s)']);
  });

  it('says to type a dot for a decimal comma, not the range ("4,99" is not out of range)', () => {
    // As the editor sends them: a number typed wrong goes as text, for the check to refuse.
    const typed = (text: string) => text as unknown as number;
    const { errors } = validateFilters(
      [
        draft({
          raw_query: group([
            condition('cart_price', 'less_than', '4,99'),
            condition('cart_weight', 'less_than', { amount: typed('1,5'), unit: 'kg' }),
            condition('cart_product_count_of_x_price', 'equal', {
              count: 2,
              amount: typed('9,9'),
            }),
          ]),
          action_data: typed(' 12,50 '),
        }),
        draft({ action_type: 4, action_data: 1, rule_product_limit_amount: typed('3,5') }),
        // A thousands separator is not taken for a decimal comma: the range is said.
        draft({ action_data: typed('1,000') }),
      ],
      'ruleset',
    );
    expect(errors).toEqual([
      'Rule #1: Cart Price must use a dot for decimals: 4.99, not 4,99',
      'Rule #1: Cart Weight must use a dot for decimals: 1.5, not 1,5',
      'Rule #1: Cart Product Count of $X Price must use a dot for decimals: 9.9, not 9,9',
      'Rule #1 amount must use a dot for decimals: 12.50, not 12,50',
      'Rule #2 product cost must use a dot for decimals: 3.5, not 3,5',
      'Rule #3 amount must be from 0 to 1,000,000 with at most 2 decimals',
    ]);
  });

  it('takes lists of 1 to 500 values, each normalised as its single form and kept once', () => {
    const one = (field: string, operator: string, value: unknown) =>
      validateFilters(
        [draft({ raw_query: group([condition(field, operator, value as never)]) })],
        'ruleset',
      );
    const valueOf = (result: ReturnType<typeof one>) =>
      (result.filters[0]!.raw_query.rules[0] as { value: unknown }).value;
    expect(valueOf(one('shipping_country', 'in', [' ca', 'MX', 'CA']))).toEqual(['CA', 'MX']);
    expect(valueOf(one('shipping_region', 'not_in', ['us-ca ']))).toEqual(['US-CA']);
    expect(valueOf(one('shipping_postal_code', 'starts_with_any', ['995 01', 'k2p']))).toEqual([
      '99501',
      'K2P',
    ]);
    const most = Array.from({ length: 500 }, (_, i) => String(10000 + i));
    expect(one('shipping_postal_code', 'in', most).errors).toEqual([]);
    expect(one('shipping_postal_code', 'in', [...most, '99999']).errors).toEqual([
      'Rule #1: Shipping Postal Code needs 1 to 500 postal codes of 1 to 20 letters or digits each',
    ]);
    expect(one('shipping_country', 'in', ['CA', 'Canada']).errors).toEqual([
      'Rule #1: Shipping Country needs 1 to 500 two-letter country codes',
    ]);
    expect(one('shipping_region', 'in', ['CA']).errors).toEqual([
      'Rule #1: Shipping State/Province needs 1 to 500 state or province codes like US-CA',
    ]);
    // One value typed with commas is not a list: a single code of the joined digits is refused.
    expect(one('shipping_postal_code', 'equal', ['99501']).errors).toEqual([
      'Rule #1: Shipping Postal Code needs a postal code of 1 to 20 letters or digits',
    ]);
    expect(one('shipping_country', 'in', []).errors).toEqual([
      'Rule #1 has 1 incomplete condition(s)',
    ]);
    expect(one('shipping_country', 'in', 'CA').errors).toEqual([
      'Rule #1: Shipping Country needs 1 to 500 two-letter country codes',
    ]);
  });

  it('takes a filter without conditions: it matches every cart, AND or OR alike', () => {
    for (const condition of ['AND', 'OR']) {
      const { errors, filters } = validateFilters(
        [draft({ raw_query: group([], condition) })],
        'ruleset',
      );
      expect(errors).toEqual([]);
      expect(filters[0]!.raw_query.rules).toEqual([]);
    }
  });

  it('takes Block Shipping (7) without an amount, and no action past it', () => {
    const block = validateFilters([draft({ action_type: 7, action_data: null })], 'product');
    expect(block.errors).toEqual([]);
    expect(block.filters[0]).toMatchObject({ action_type: 7, action_data: null });
    // An amount given to a block is not kept: it does nothing.
    expect(
      validateFilters([draft({ action_type: 7, action_data: 5 })], 'ruleset').filters[0],
    ).toMatchObject({ action_data: null });
    expect(validateFilters([draft({ action_type: 8 })], 'ruleset').errors).toEqual([
      'Rule #1 has an unknown action type',
    ]);
  });

  it('refuses more than 50 conditions and nesting deeper than 5 groups', () => {
    const many = group(Array.from({ length: 51 }, () => condition('cart_price', 'equal', 1)));
    let deep: DraftGroup = group([condition('cart_price', 'equal', 1)]);
    for (let i = 0; i < 5; i++) deep = group([deep]);
    expect(validateFilters([draft({ raw_query: many })], 'ruleset').errors).toContain(
      'Rule #1 has more than 50 conditions',
    );
    expect(validateFilters([draft({ raw_query: deep })], 'ruleset').errors).toContain(
      'Rule #1 nests groups more than 5 deep',
    );
  });

  it('walks groups one level past the depth limit and no deeper', () => {
    // The root is depth 1: wrapping the depth-6 group five times puts it at depth 6.
    let deep: DraftGroup = group([
      condition('cart_price', 'equal', 1),
      group([condition('cart_price', 'equal', 2)]),
    ]);
    for (let i = 0; i < 5; i++) deep = group([deep]);
    const result = validateFilters([draft({ raw_query: deep })], 'ruleset');
    expect(result.errors).toEqual(['Rule #1 nests groups more than 5 deep']);
    let sixth = result.filters[0]!.raw_query;
    for (let i = 0; i < 5; i++) sixth = sixth.rules[0] as typeof sixth;
    expect(sixth.rules).toHaveLength(2);
    expect(sixth.rules[0]).toMatchObject({ type: 'condition', value: 1 });
    expect(sixth.rules[1]).toMatchObject({ type: 'group', rules: [] });
  });

  it('allows groups nested exactly 5 deep', () => {
    let deep: DraftGroup = group([condition('cart_price', 'equal', 1)]);
    for (let i = 0; i < 4; i++) deep = group([deep]);
    expect(validateFilters([draft({ raw_query: deep })], 'ruleset').errors).toEqual([]);
  });

  it('caps the number of filters per ruleset (100) and per product rule (50)', () => {
    expect(
      validateFilters(
        Array.from({ length: 101 }, () => draft()),
        'ruleset',
      ).errors,
    ).toEqual(['A ruleset can have at most 100 rules.']);
    expect(
      validateFilters(
        Array.from({ length: 51 }, () => draft()),
        'product',
      ).errors,
    ).toEqual(['A product rule can have at most 50 rules.']);
    expect(
      validateFilters(
        Array.from({ length: 100 }, () => draft()),
        'ruleset',
      ).errors,
    ).toEqual([]);
  });

  it('accepts numbers typed as text and stores them as numbers', () => {
    const { errors, filters } = validateFilters(
      [
        draft({
          action_data: '2.50' as unknown as number,
          raw_query: group([
            condition('cart_product_count_of_x_price', 'greater_or_equal', { count: 2, amount: 0 }),
          ]),
        }),
      ],
      'ruleset',
    );
    expect(errors).toEqual([]);
    expect(filters[0]!.action_data).toBe(2.5);
    expect(filters[0]!.raw_query.rules[0]).toMatchObject({ value: { count: 2, amount: 0 } });
  });

  it('keeps well-formed client ids and replaces duplicates', () => {
    const { filters } = validateFilters(
      [draft({ id: 'f-1' }), draft({ id: 'f-1' }), draft({ id: 'bad id!' })],
      'ruleset',
    );
    expect(filters[0]!.id).toBe('f-1');
    expect(filters[1]!.id).not.toBe('f-1');
    expect(filters[2]!.id).toMatch(/^id-/);
  });

  it('drops the amount of "Make Shipping Free" and the product cost of other actions', () => {
    const { filters } = validateFilters(
      [draft({ action_type: 0, action_data: 3, rule_product_limit_amount: 9 })],
      'ruleset',
    );
    expect(filters[0]).toMatchObject({ action_data: null, rule_product_limit_amount: null });
  });
});

describe('validateFilters: the canonical form and every limit at its edge', () => {
  const one = (overrides: Parameters<typeof draft>[0]) =>
    validateFilters([draft(overrides)], 'ruleset');

  it('stores choices as the only values they may take, and texts trimmed', () => {
    const { errors, filters } = one({
      global_rule_action: 1,
      post_processing_action_type: 1,
      is_shipping_overridden: 'Yes',
      shipping_name: ' Saver ',
      shipping_description: ' 2 days ',
      bump_shipping_name: ' Fast ',
      bump_shipping_description: ' 1 day ',
      raw_query: group([condition('cart_price', 'less_than', 50)], 'or'),
    });
    expect(errors).toEqual([]);
    expect(filters[0]).toMatchObject({
      global_rule_action: 1,
      post_processing_action_type: 1,
      is_shipping_overridden: 'Yes',
      shipping_name: 'Saver',
      shipping_description: '2 days',
      bump_shipping_name: 'Fast',
      bump_shipping_description: '1 day',
      raw_query: { condition: 'OR' },
    });
    // A blank override means "No", not a mistake.
    expect(one({ is_shipping_overridden: '' }).errors).toEqual([]);
    const defaults = one({ is_shipping_overridden: '' }).filters[0]!;
    expect(defaults).toMatchObject({
      global_rule_action: 0,
      post_processing_action_type: 0,
      is_shipping_overridden: 'No',
      raw_query: { condition: 'AND' },
    });
  });

  it.each([
    [{ global_rule_action: 2 }, 'Rule #1 has an unknown Apply To choice'],
    [{ post_processing_action_type: 2 }, 'Rule #1 must either stop or continue after it matches'],
    [{ is_shipping_overridden: 'Maybe' }, 'Rule #1 override must be Yes or No'],
    [
      { raw_query: group([condition('cart_price', 'less_than', 50)], 'XOR') },
      'Rule #1 has a group that is neither AND nor OR',
    ],
    [{ action_type: 4, rule_product_limit_amount: null }, 'Rule #1 needs the product cost ($X)'],
    [
      { action_type: 4, rule_product_limit_amount: 1.005 },
      'Rule #1 product cost must be from 0 to 1,000,000 with at most 2 decimals',
    ],
  ])('refuses %p', (overrides, message) => {
    expect(one(overrides).errors).toEqual([message]);
  });

  it('takes a product cost of action 4 and texts exactly at their limits', () => {
    const atLimit = one({
      name: 'n'.repeat(LIMITS.filterName),
      shipping_name: 's'.repeat(LIMITS.shortText),
      action_type: 4,
      rule_product_limit_amount: 10,
    });
    expect(atLimit.errors).toEqual([]);
    expect(atLimit.filters[0]!.rule_product_limit_amount).toBe(10);
    expect(one({ name: 'n'.repeat(LIMITS.filterName + 1) }).errors).toEqual([
      'Rule #1 name must be at most 200 characters',
    ]);
    expect(one({ shipping_name: ` ${'s'.repeat(LIMITS.shortText)} ` }).errors).toEqual([]);
    expect(one({ shipping_name: 's'.repeat(LIMITS.shortText + 1) }).errors).toEqual([
      'Rule #1 shipping name must be at most 160 characters',
    ]);
  });

  it('takes exactly 50 conditions, and walks no further than the limits', () => {
    const conditions = (n: number) =>
      Array.from({ length: n }, () => condition('cart_price', 'less_than', 50));
    expect(one({ raw_query: group(conditions(LIMITS.conditionsPerFilter)) }).errors).toEqual([]);
    const over = one({ raw_query: group(conditions(LIMITS.conditionsPerFilter + 5)) });
    expect(over.errors).toEqual(['Rule #1 has more than 50 conditions']);
    // A group met after the limit is not walked: its conditions are not stored.
    const nested = (before: number) =>
      one({ raw_query: group([...conditions(before), group(conditions(2))]) }).filters[0]!.raw_query
        .rules[before] as { rules: unknown[] };
    expect(nested(LIMITS.conditionsPerFilter).rules).toHaveLength(2);
    expect(nested(LIMITS.conditionsPerFilter + 1).rules).toHaveLength(0);
  });

  it.each([
    ['country', condition('shipping_country', 'equal', ' us '), 'US'],
    ['amount as text', condition('cart_price', 'less_than', '12.50'), 12.5],
    ['count', condition('cart_retail_product_count', 'equal', 3), 3],
    [
      'pair',
      condition('cart_product_count_of_x_price', 'equal', { count: 2, amount: 0 }),
      { count: 2, amount: 0 },
    ],
  ])('stores a valid %s value normalised', (_name, c, stored) => {
    const { errors, filters } = one({ raw_query: group([c]) });
    expect(errors).toEqual([]);
    expect(filters[0]!.raw_query.rules[0]).toMatchObject({ type: 'condition', value: stored });
  });

  it.each([
    [
      'a three-letter country',
      condition('shipping_country', 'equal', 'USA'),
      'Shipping Country needs a two-letter country code',
    ],
    [
      'a country with a digit',
      condition('shipping_country', 'equal', 'U1'),
      'Shipping Country needs a two-letter country code',
    ],
    [
      'a country hidden in text',
      condition('shipping_country', 'equal', 'xUS'),
      'Shipping Country needs a two-letter country code',
    ],
    [
      'a country as a number',
      condition('shipping_country', 'equal', 12),
      'Shipping Country needs a two-letter country code',
    ],
    [
      'an amount with 3 decimals',
      condition('cart_price', 'less_than', 5.555),
      'Cart Price must be an amount from 0 to 1,000,000 with at most 2 decimals',
    ],
    [
      'a pair as text',
      condition('cart_product_count_of_x_price', 'equal', 'two'),
      'Cart Product Count of $X Price needs a whole count from 0 to 100,000 and an amount from 0 to 1,000,000',
    ],
    [
      'a pair with a bad count',
      condition('cart_product_count_of_x_price', 'equal', { count: 1.5, amount: 2 }),
      'Cart Product Count of $X Price needs a whole count from 0 to 100,000 and an amount from 0 to 1,000,000',
    ],
    [
      'a pair with a bad amount',
      condition('cart_product_count_of_x_price', 'equal', { count: 1, amount: -2 }),
      'Cart Product Count of $X Price needs a whole count from 0 to 100,000 and an amount from 0 to 1,000,000',
    ],
  ])('refuses %s and stores no value for it', (_name, c, problem) => {
    const { errors, filters } = one({ raw_query: group([c]) });
    expect(errors).toEqual([`Rule #1: ${problem}`]);
    expect(filters[0]!.raw_query.rules[0]).toMatchObject({ value: null });
  });

  it('counts a blank pair as incomplete, and stores an unknown field with its operator', () => {
    const blank = one({
      raw_query: group([condition('cart_product_count_of_x_price', 'equal', '')]),
    });
    expect(blank.errors).toEqual(['Rule #1 has 1 incomplete condition(s)']);
    expect(blank.filters[0]!.raw_query.rules[0]).toMatchObject({ value: null });
    const unknown = one({ raw_query: group([condition('cart_colour', 'equal', 'red')]) });
    expect(unknown.errors).toEqual(['Rule #1 has a condition on an unknown field']);
    expect(unknown.filters[0]!.raw_query.rules[0]).toMatchObject({
      field: 'cart_colour',
      operator: 'equal',
      value: null,
    });
  });

  it('keeps an id only when it is wholly well formed', () => {
    const ids = (id: string) => validateFilters([draft({ id })], 'ruleset').filters[0]!.id;
    expect(ids('ok_id-1')).toBe('ok_id-1');
    expect(ids('a'.repeat(64))).toBe('a'.repeat(64));
    for (const bad of ['a'.repeat(65), 'bad id', '!ok', 'ok!', ''])
      expect(ids(bad)).toMatch(/^id-[0-9a-f-]{36}$/);
  });

  it('answers only the count problem, and no filters, above the filter limit', () => {
    expect(
      validateFilters(
        Array.from({ length: 101 }, () => draft()),
        'ruleset',
      ),
    ).toEqual({
      errors: ['A ruleset can have at most 100 rules.'],
      filters: [],
    });
  });
});

describe('validateFilters on a snapshot (what the rate engine admits)', () => {
  const snapshotOf = (overrides: Parameters<typeof draft>[0]) =>
    validateFilters([draft(overrides)], 'product', {
      source: 'snapshot',
      owner: 'Product rule 7',
      ruleLabel: (index) => `Product rule 7 rule #${index + 1}`,
    });

  it('leaves names and texts to the merchant: blank or long, they are taken', () => {
    expect(snapshotOf({ name: '', shipping_name: 'x'.repeat(161) }).errors).toEqual([]);
    expect(validateFilters([draft({ name: '' })], 'product').errors).toEqual([
      'Rule #1 needs a name',
    ]);
  });

  it('rounds amounts of more than 2 decimals later, but takes numbers written as text nowhere', () => {
    expect(snapshotOf({ action_data: 4.999 }).errors).toEqual([]);
    expect(snapshotOf({ action_data: '4.99' as unknown as number }).errors).toEqual([
      'Product rule 7 rule #1 amount must be from 0 to 1,000,000 with at most 2 decimals',
    ]);
    expect(
      snapshotOf({ raw_query: group([condition('cart_price', 'equal', '50')]) }).errors,
    ).toEqual([
      'Product rule 7 rule #1: Cart Price ' +
        'must be an amount from 0 to 1,000,000 with at most 2 decimals',
    ]);
    expect(
      snapshotOf({
        raw_query: group([
          condition('cart_product_count_of_x_price', 'equal', { count: 1, amount: 0.015 }),
        ]),
      }).errors,
    ).toEqual([]);
  });

  it('names the owner when a list is over its limit', () => {
    const many = Array.from({ length: LIMITS.filtersPerProductRule + 1 }, () => draft({}));
    expect(
      validateFilters(many, 'product', { source: 'snapshot', owner: 'Product rule 7' }).errors,
    ).toEqual(['Product rule 7 can have at most 50 rules.']);
  });
});

describe('the weight, region and postal-code values', () => {
  const one = (over: Parameters<typeof draft>[0]) => validateFilters([draft(over)], 'ruleset');

  it('keeps a weight as { amount, unit }, amounts typed as text as numbers', () => {
    const result = one({
      raw_query: group([
        condition('cart_weight', 'greater_than', { amount: '1.5', unit: 'lb' } as never),
      ]),
    });
    expect(result.errors).toEqual([]);
    expect(result.filters[0]!.raw_query.rules[0]).toMatchObject({
      value: { amount: 1.5, unit: 'lb' },
    });
  });

  it('upper-cases and trims a region', () => {
    const result = one({ raw_query: group([condition('shipping_region', 'equal', ' us-ca ')]) });
    expect(result.errors).toEqual([]);
    expect(result.filters[0]!.raw_query.rules[0]).toMatchObject({ value: 'US-CA' });
  });

  it('normalises postal codes and the bounds of between', () => {
    const result = one({
      raw_query: group([
        condition('shipping_postal_code', 'equal', 'k2p 1l4'),
        condition('shipping_postal_code', 'between', { from: '90000', to: '96199' }),
        condition('shipping_postal_code', 'between', { from: 'k0a', to: 'K-9-Z' }),
        condition('shipping_postal_code', 'between', { from: 'K', to: 'K' }),
      ]),
    });
    expect(result.errors).toEqual([]);
    expect(result.filters[0]!.raw_query.rules.map((r) => (r as { value: unknown }).value)).toEqual([
      'K2P1L4',
      { from: '90000', to: '96199' },
      { from: 'K0A', to: 'K9Z' },
      { from: 'K', to: 'K' },
    ]);
  });

  it('keeps the weight step of action 6 and drops it from other actions', () => {
    const step = { amount: 0.5, unit: 'kg' };
    expect(
      one({ action_type: 6, action_weight_step: step }).filters[0]!.action_weight_step,
    ).toEqual(step);
    // 0.001 kg is 1 g: the smallest step.
    expect(
      one({ action_type: 6, action_weight_step: { amount: 0.001, unit: 'kg' } }).errors,
    ).toEqual([]);
    expect(
      one({ action_type: 1, action_weight_step: step }).filters[0]!.action_weight_step,
    ).toBeNull();
    expect(one({ action_type: 1 }).filters[0]!.action_weight_step).toBeNull();
  });

  it('in a snapshot, a weight amount must already be a number', () => {
    const result = validateFilters(
      [
        {
          ...draft({
            raw_query: group([
              condition('cart_weight', 'equal', { amount: '2', unit: 'kg' } as never),
            ]),
          }),
        },
      ],
      'ruleset',
      { source: 'snapshot' },
    );
    expect(result.errors).toEqual([
      'Rule #1: Cart Weight must be a weight from 0 to 100,000 with at most 3 decimals, in g, kg, lb or oz',
    ]);
  });
});

describe('postal codes at their edges', () => {
  const values = (...conditions: ReturnType<typeof condition>[]) => {
    const result = validateFilters([draft({ raw_query: group(conditions) })], 'ruleset');
    return {
      errors: result.errors,
      values: result.filters[0]!.raw_query.rules.map((r) => (r as { value: unknown }).value),
    };
  };
  const postal = (operator: string, value: Parameters<typeof condition>[2]) =>
    condition('shipping_postal_code', operator, value);
  const rangeProblem =
    'Rule #1: Shipping Postal Code between needs two postal codes of 1 to 10 letters or digits, of the same length, the first not after the second';

  it('takes a code of 1 and of 20 characters, and bounds of 10', () => {
    expect(
      values(
        postal('equal', '7'),
        postal('starts_with', 'a'.repeat(LIMITS.postalCode)),
        postal('between', {
          from: '1'.repeat(LIMITS.postalBound),
          to: '2'.repeat(LIMITS.postalBound),
        }),
      ),
    ).toEqual({
      errors: [],
      values: ['7', 'A'.repeat(LIMITS.postalCode), { from: '1'.repeat(10), to: '2'.repeat(10) }],
    });
  });

  it.each([
    ['a code of 21 characters', postal('equal', '1'.repeat(LIMITS.postalCode + 1))],
    ['a code of nothing but punctuation', postal('equal', '--')],
    ['bounds of 11 characters', postal('between', { from: '1'.repeat(11), to: '2'.repeat(11) })],
    ['bounds of nothing but punctuation', postal('between', { from: '--', to: '-' })],
    ['a bound that is a number', postal('between', { from: 5, to: '9' } as never)],
    ['the other bound a number', postal('between', { from: '5', to: 9 } as never)],
    ['a between without bounds', postal('between', 'A1' as never)],
  ])('refuses %s', (_name, c) => {
    const result = values(c);
    expect(result.values).toEqual([null]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(
      /^Rule #1: Shipping Postal Code (between needs|needs a postal code)/,
    );
  });

  it('words a bad between of a postal code and of another field apart', () => {
    expect(values(postal('between', { from: '--', to: '-' })).errors).toEqual([rangeProblem]);
    expect(values(postal('equal', '--')).errors).toEqual([
      'Rule #1: Shipping Postal Code needs a postal code of 1 to 20 letters or digits',
    ]);
    expect(values(condition('cart_price', 'between', 'cheap')).errors).toEqual([
      'Rule #1 uses an operator that does not apply to Cart Price',
      'Rule #1: Cart Price must be an amount from 0 to 1,000,000 with at most 2 decimals',
    ]);
  });

  it('counts a between without a value as incomplete', () => {
    expect(values(postal('between', null), postal('between', '  '))).toEqual({
      errors: ['Rule #1 has 2 incomplete condition(s)'],
      values: [null, null],
    });
  });
});

describe('conditionValue and actionAmount', () => {
  const c = (field: string, operator: string, value: unknown) =>
    ({ ...condition(field, operator, null), value }) as ReturnType<typeof condition>;

  it('gives a condition value as a saved filter holds it, else null', () => {
    expect(conditionValue(c('cart_price', 'less_than', ' 12.5 '))).toBe(12.5);
    expect(conditionValue(c('shipping_country', 'equal', ' fr '))).toBe('FR');
    expect(conditionValue(c('cart_price', 'less_than', ''))).toBeNull();
    expect(conditionValue(c('cart_price', 'less_than', -1))).toBeNull();
    expect(conditionValue(c('cart_colour', 'equal', 'red'))).toBeNull();
  });

  it('on a snapshot, takes no numbers written as text', () => {
    expect(conditionValue(c('cart_price', 'less_than', '12.5'), 'snapshot')).toBeNull();
    expect(conditionValue(c('cart_price', 'less_than', 12.345), 'snapshot')).toBe(12.345);
    expect(conditionValue(c('cart_price', 'less_than', 12.345))).toBeNull();
  });

  it('gives an action amount, numbers as text only from a draft', () => {
    expect(actionAmount('4.50')).toBe(4.5);
    expect(actionAmount(4.555)).toBeNull();
    expect(actionAmount(null)).toBeNull();
    expect(actionAmount('4.50', 'snapshot')).toBeNull();
    expect(actionAmount(4.555, 'snapshot')).toBe(4.555);
  });
});

describe('idGenerator', () => {
  it('keeps only well-formed string ids, once', () => {
    const next = idGenerator();
    expect(next('abc')).toBe('abc');
    expect(next('abc')).toMatch(/^id-[0-9a-f-]{36}$/);
    expect(next(42)).toMatch(/^id-[0-9a-f-]{36}$/);
    expect(next(['x'])).toMatch(/^id-[0-9a-f-]{36}$/);
  });

  it('gives a filter with a number for an id a new string id', () => {
    const id = validateFilters([draft({ id: 42 as never })], 'ruleset').filters[0]!.id;
    expect(id).toMatch(/^id-[0-9a-f-]{36}$/);
  });
});

describe("an override's delivery window", () => {
  const check = (min: unknown, max: unknown) =>
    validateFilters(
      [
        draft({
          is_shipping_overridden: 'Yes',
          delivery_min_days: min,
          delivery_max_days: max,
        } as never),
      ],
      'ruleset',
    );

  it.each([
    [null, null, null, null],
    ['', ' ', null, null],
    [2, 5, 2, 5],
    ['1', '1', 1, 1],
    [0, 60, 0, 60],
  ])('keeps %p to %p as %p to %p', (min, max, keptMin, keptMax) => {
    const result = check(min, max);
    expect(result.errors).toEqual([]);
    expect(result.filters[0]).toMatchObject({
      delivery_min_days: keptMin,
      delivery_max_days: keptMax,
    });
  });

  it.each([
    [
      3,
      null,
      'Rule #1 delivery window needs both a minimum and a maximum number of days, or neither.',
    ],
    [5, 2, 'Rule #1 delivery window has a minimum of 5 days, more than its maximum of 2 days.'],
    [0, 61, 'Rule #1 delivery window must have a maximum of 0 to 60 whole days.'],
    [1.5, 2, 'Rule #1 delivery window must have a minimum of 0 to 60 whole days.'],
    ['two', 3, 'Rule #1 delivery window must have a minimum of 0 to 60 whole days.'],
  ])("refuses %p to %p with the calendar's message", (min, max, message) => {
    const result = check(min, max);
    expect(result.errors).toEqual([message]);
    expect(result.filters[0]).toMatchObject({ delivery_min_days: null, delivery_max_days: null });
  });
});
