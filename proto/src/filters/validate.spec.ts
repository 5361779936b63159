import type { DraftGroup } from './draft';
import { validateFilters } from './validate';

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
    ['no condition', draft({ raw_query: group([]) }), 'Rule #1 needs at least one condition'],
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
    ['an unknown action', draft({ action_type: 6 }), 'Rule #1 has an unknown action type'],
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
      [draft(), draft({ name: '' }), draft({ raw_query: group([]) })],
      'ruleset',
    );
    expect(errors).toEqual(['Rule #2 needs a name', 'Rule #3 needs at least one condition']);
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
    ).toEqual(['A ruleset can have at most 100 filters.']);
    expect(
      validateFilters(
        Array.from({ length: 51 }, () => draft()),
        'product',
      ).errors,
    ).toEqual(['A product rule can have at most 50 filters.']);
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
