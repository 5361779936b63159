import {
  NO_OVERRIDE,
  type DraftCondition,
  type DraftGroup,
  type FilterDraft,
} from './filters/draft';

/**
 * @packageDocumentation
 * Filters for tests of every workspace (`@ratesmith/contracts/testing`), so
 * each suite says only what its case changes:
 * - `draft*`: whole drafts, as the editor builds them;
 * - `sent*`: what a client may send over HTTP (ids and texts left out,
 *   numbers as the text a merchant typed), as the gateway's tests post it.
 */

export const draftCondition = (
  field: string,
  operator: string,
  value: DraftCondition['value'],
): DraftCondition => ({ id: '', type: 'condition', field, operator, value });

export const draftGroup = (rules: DraftGroup['rules'], condition = 'AND'): DraftGroup => ({
  id: '',
  type: 'group',
  condition,
  rules,
});

/** "Cheap carts": cart price under 50 adds 4.99, then stops. */
export const draftFilter = (overrides: Partial<FilterDraft> = {}): FilterDraft => ({
  id: '',
  name: 'Cheap carts',
  raw_query: draftGroup([draftCondition('cart_price', 'less_than', 50)]),
  action_type: 1,
  action_data: 4.99,
  rule_product_limit_amount: null,
  global_rule_action: 0,
  ...NO_OVERRIDE,
  post_processing_action_type: 0,
  ...overrides,
});

export const sentCondition = (field: string, operator: string, value: unknown) => ({
  type: 'condition' as const,
  field,
  operator,
  value,
});

export const sentGroup = (condition: string, rules: unknown[]) => ({
  type: 'group' as const,
  condition,
  rules,
});

/**
 * A filter the rules service accepts, as a client sends it: cart price
 * under 50 AND (shipping to US OR CA), adds 4.99, overrides the rate's
 * name ("Saver"), then continues.
 */
export const sentFilter = (overrides: Record<string, unknown> = {}) => ({
  name: 'Cheap carts',
  raw_query: {
    condition: 'AND',
    rules: [
      sentCondition('cart_price', 'less_than', '50'),
      sentGroup('OR', [
        sentCondition('shipping_country', 'equal', 'US'),
        sentCondition('shipping_country', 'equal', 'CA'),
      ]),
    ],
  },
  action_type: 1,
  action_data: '4.99',
  global_rule_action: 0,
  is_shipping_overridden: 'Yes',
  shipping_name: 'Saver',
  post_processing_action_type: 1,
  ...overrides,
});

/** A text of exactly `length` characters (names and shipping texts at their limits). */
const textOf = (length: number, seed: string): string =>
  seed.repeat(Math.ceil(length / seed.length)).slice(0, length);

/**
 * The largest filter the limits allow (proto/src/filters/limits.ts): a name and four
 * shipping texts at their lengths, `conditions` conditions with the longest values, each
 * nested alone as deep as groups go (every group adds an id), for measuring messages.
 * `nested: false` puts the conditions straight in the filter's group, as most are.
 */
export const worstFilter = (index: number, conditions = 50, nested = true): FilterDraft => {
  const values: DraftCondition[] = [
    draftCondition('shipping_postal_code', 'between', { from: '1000000000', to: '1999999999' }),
    draftCondition('cart_product_count_of_x_price', 'greater_or_equal', {
      count: 99_999,
      amount: 999_999.99,
    }),
    draftCondition('cart_weight', 'less_or_equal', { amount: 99_999.999, unit: 'kg' }),
  ];
  const wrap = (condition: DraftCondition): DraftCondition | DraftGroup =>
    nested
      ? draftGroup([draftGroup([draftGroup([draftGroup([condition], 'OR')])], 'OR')], 'OR')
      : condition;
  return draftFilter({
    name: textOf(200, `Filter ${index} `),
    raw_query: draftGroup(
      Array.from({ length: conditions }, (_, c) => wrap(values[c % values.length]!)),
    ),
    action_type: 4,
    action_data: 999_999.99,
    rule_product_limit_amount: 999_999.99,
    is_shipping_overridden: 'Yes',
    shipping_name: textOf(160, 'Shipping name '),
    shipping_description: textOf(160, 'Shipping description '),
    bump_shipping_name: textOf(160, 'Bump name '),
    bump_shipping_description: textOf(160, 'Bump description '),
    post_processing_action_type: 1,
  });
};

/** `count` filters, each the largest the limits allow (`worstFilter`). */
export const worstFilters = (count: number, conditions = 50, nested = true): FilterDraft[] =>
  Array.from({ length: count }, (_, f) => worstFilter(f + 1, conditions, nested));
