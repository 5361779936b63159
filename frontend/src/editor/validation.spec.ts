import { validateFilters as validateDrafts, type FilterScope } from '@ratesmith/contracts/filters';
import {
  filterFromWire,
  filterToWire,
  newCondition,
  newFilter,
  newGroup,
  type EditorFilter,
  type EditorGroup,
} from './model';

import { draftErrors } from './useFilterDraft';

/** What the editor shows: the shared validation, filter by filter, of what Save All would send. */
const validateFilters = (filters: EditorFilter[], scope: FilterScope) =>
  draftErrors(filters, scope);

/** The server's check of the whole list at once. */
const serverErrors = (filters: EditorFilter[], scope: FilterScope) =>
  validateDrafts(filters.map(filterToWire), scope).errors;

const complete = (overrides: Partial<EditorFilter> = {}): EditorFilter => {
  const filter = newFilter();
  return {
    ...filter,
    name: 'Cheap carts',
    raw_query: {
      ...filter.raw_query,
      rules: [{ ...newCondition(), field: 'cart_price', operator: 'less_than', value: '50' }],
    },
    action_type: 1,
    action_data: '4.99',
    ...overrides,
  };
};

const query = (rules: EditorGroup['rules']): EditorGroup => ({
  ...newGroup(),
  rules,
});

describe('validateFilters (the server messages, before saving)', () => {
  it('accepts a complete filter', () => {
    expect(validateFilters([complete()], 'ruleset')).toEqual([]);
  });

  it('says what a new filter lacks: a name (without conditions it matches every cart)', () => {
    expect(validateFilters([complete(), newFilter()], 'ruleset')).toEqual(['Rule #2 needs a name']);
  });

  it('counts empty values and empty nested groups as incomplete conditions', () => {
    const emptyGroup = { ...newGroup(), rules: [] };
    const pair = {
      ...newCondition(),
      field: 'cart_product_count_of_x_price',
      operator: 'equal',
      value: { count: '2', amount: '' },
    };
    const filter = complete({
      raw_query: query([newCondition(), query([emptyGroup, pair])]),
    });
    expect(validateFilters([filter], 'ruleset')).toEqual(['Rule #1 has 3 incomplete condition(s)']);
  });

  it('checks amounts, the product cost and values like the server', () => {
    const filter = complete({
      action_type: 4,
      action_data: '1.234',
      rule_product_limit_amount: '',
      raw_query: query([{ ...newCondition(), value: 'USA' }]),
    });
    expect(validateFilters([filter], 'ruleset')).toEqual([
      'Rule #1: Shipping Country needs a two-letter country code',
      'Rule #1 amount must be from 0 to 1,000,000 with at most 2 decimals',
      'Rule #1 needs the product cost ($X)',
    ]);
    expect(validateFilters([complete({ action_data: ' ' })], 'ruleset')).toEqual([
      'Rule #1 needs an amount',
    ]);
    // Type 0 needs no amount.
    expect(validateFilters([complete({ action_type: 0, action_data: '' })], 'ruleset')).toEqual([]);
  });

  it('enforces the limits: name length, filters, conditions and depth', () => {
    expect(validateFilters([complete({ name: 'x'.repeat(201) })], 'ruleset')).toEqual([
      'Rule #1 name must be at most 200 characters',
    ]);
    expect(
      validateFilters(
        Array.from({ length: 51 }, () => complete()),
        'product',
      ),
    ).toEqual(['A product rule can have at most 50 rules.']);
    const many = complete({
      raw_query: query(Array.from({ length: 51 }, () => ({ ...newCondition(), value: 'US' }))),
    });
    expect(validateFilters([many], 'ruleset')).toEqual(['Rule #1 has more than 50 conditions']);
    let deep: EditorGroup = query([{ ...newCondition(), value: 'US' }]);
    for (let i = 0; i < 5; i++) deep = query([deep]);
    expect(validateFilters([complete({ raw_query: deep })], 'ruleset')).toEqual([
      'Rule #1 nests groups more than 5 deep',
    ]);
  });

  it('flags override texts over 160 characters', () => {
    expect(
      validateFilters(
        [complete({ is_shipping_overridden: 'Yes', shipping_name: 'n'.repeat(161) })],
        'ruleset',
      ),
    ).toEqual(['Rule #1 shipping name must be at most 160 characters']);
  });

  it('says what the server says of the whole list, one filter at a time', () => {
    const list = [
      complete(),
      newFilter(),
      complete({ action_data: 'x', name: 'y'.repeat(201) }),
      complete({ raw_query: query([]) }),
    ];
    for (const scope of ['ruleset', 'product'] as const) {
      expect(validateFilters(list, scope)).toEqual(serverErrors(list, scope));
      const moved = [list[3]!, list[0]!, list[2]!, list[1]!];
      expect(validateFilters(moved, scope)).toEqual(serverErrors(moved, scope));
    }
    expect(validateFilters(list, 'ruleset')).toContain('Rule #2 needs a name');
    // A moved filter is named by its new position.
    expect(validateFilters([list[1]!, list[0]!], 'ruleset')).toContain('Rule #1 needs a name');
    // The list's own check answers alone, as the server's does.
    const tooMany = Array.from({ length: 101 }, (_, i) => (i === 5 ? newFilter() : complete()));
    expect(validateFilters(tooMany, 'ruleset')).toEqual(['A ruleset can have at most 100 rules.']);
    expect(validateFilters(tooMany.slice(0, 100), 'ruleset')).toEqual(
      serverErrors(tooMany.slice(0, 100), 'ruleset'),
    );
  });
});

describe("the override's delivery window", () => {
  it('is sent only when typed, as numbers, and comes back as typed', () => {
    expect(filterToWire(complete())).not.toHaveProperty('delivery_min_days');
    const sent = filterToWire(complete({ delivery_min_days: '1', delivery_max_days: ' 3 ' }));
    expect([sent.delivery_min_days, sent.delivery_max_days]).toEqual([1, 3]);
    expect(filterFromWire(sent)).toMatchObject({ delivery_min_days: '1', delivery_max_days: '3' });
  });

  it("is checked by the filter language's one validation, as the server checks it", () => {
    const bad = [
      complete({ is_shipping_overridden: 'Yes', delivery_min_days: '4', delivery_max_days: '2' }),
      complete({ delivery_min_days: '2' }),
      complete({ delivery_min_days: '1.5', delivery_max_days: '2' }),
    ];
    const expected = [
      'Rule #1 delivery window has a minimum of 4 days, more than its maximum of 2 days.',
      'Rule #2 delivery window needs both a minimum and a maximum number of days, or neither.',
      'Rule #3 delivery window must have a minimum of 0 to 60 whole days.',
    ];
    expect(validateFilters(bad, 'ruleset')).toEqual(expected);
    expect(serverErrors(bad, 'ruleset')).toEqual(expected);
  });
});
