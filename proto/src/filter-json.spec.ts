import { create } from '@bufbuild/protobuf';
import { filterFromJson, filterToJson } from './filter-json';
import type { FilterDraft } from './filters';
import { FilterSchema } from './gen/ratesmith/rules/v1/rules_pb';
import { eventSubject, rpcSubject } from './subjects';
import { RulesService, SnapshotPublishedSchema } from './gen/ratesmith/rules/v1/rules_pb';

const filter: FilterDraft = {
  id: 'f1',
  name: 'Mixed',
  raw_query: {
    id: 'root',
    type: 'group',
    condition: 'OR',
    rules: [
      { id: 'c1', type: 'condition', field: 'shipping_country', operator: 'equal', value: 'US' },
      { id: 'c2', type: 'condition', field: 'cart_price', operator: 'less_than', value: 25.5 },
      {
        id: 'g1',
        type: 'group',
        condition: 'AND',
        rules: [
          {
            id: 'c3',
            type: 'condition',
            field: 'cart_product_count_of_x_price',
            operator: 'equal',
            value: { count: 2, amount: null },
          },
          { id: 'c4', type: 'condition', field: 'cart_price', operator: 'equal', value: null },
          {
            id: 'c5',
            type: 'condition',
            field: 'cart_weight',
            operator: 'greater_than',
            value: { amount: 1.5, unit: 'lb' },
          },
          {
            id: 'c6',
            type: 'condition',
            field: 'cart_weight',
            operator: 'equal',
            value: { amount: null, unit: 'kg' },
          },
          {
            id: 'c7',
            type: 'condition',
            field: 'shipping_postal_code',
            operator: 'between',
            value: { from: '90000', to: '96199' },
          },
        ],
      },
    ],
  },
  action_type: 4,
  action_data: 1.5,
  rule_product_limit_amount: null,
  global_rule_action: 1,
  is_shipping_overridden: 'Yes',
  shipping_name: 'Express',
  shipping_description: 'd',
  bump_shipping_name: 'b',
  bump_shipping_description: 'bd',
  post_processing_action_type: 1,
  action_weight_step: { amount: 0.5, unit: 'kg' },
  delivery_min_days: 1,
  delivery_max_days: 3,
};

describe('filter JSON <-> protobuf', () => {
  it('round-trips every value kind, including missing values', () => {
    expect(filterToJson(create(FilterSchema, filterFromJson(filter)))).toEqual(filter);
  });

  it('a filter without a weight step comes back with null', () => {
    const { action_weight_step: _, ...without } = filter;
    expect(
      filterToJson(create(FilterSchema, filterFromJson(without))).action_weight_step,
    ).toBeNull();
  });

  it('a filter without a delivery window comes back with nulls; text days travel as numbers', () => {
    const { delivery_min_days: _min, delivery_max_days: _max, ...without } = filter;
    expect(filterToJson(create(FilterSchema, filterFromJson(without)))).toMatchObject({
      delivery_min_days: null,
      delivery_max_days: null,
    });
    const typed = filterFromJson({ ...filter, delivery_min_days: ' 2 ', delivery_max_days: '' });
    expect([typed.deliveryMinDays, typed.deliveryMaxDays]).toEqual([2, undefined]);
    // Text that is no number travels as NaN, which the one validation refuses by name.
    expect(filterFromJson({ ...filter, delivery_min_days: 'two' }).deliveryMinDays).toBeNaN();
  });
});

describe('subjects', () => {
  it('derives versioned subjects from the descriptors', () => {
    expect(rpcSubject(RulesService.method.saveRulesetFilters)).toBe(
      'ratesmith.rules.v1.SaveRulesetFilters',
    );
    expect(rpcSubject(RulesService.method.listRulesets, 'staging.')).toBe(
      'staging.ratesmith.rules.v1.ListRulesets',
    );
    expect(eventSubject(SnapshotPublishedSchema)).toBe(
      'ratesmith.rules.v1.events.SnapshotPublished',
    );
  });
});
