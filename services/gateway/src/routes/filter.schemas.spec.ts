import { filterSchema } from './filter.schemas';

describe('the filter JSON schema keeps every value kind as sent', () => {
  const withValue = (field: string, operator: string, value: unknown) => ({
    name: 'x',
    raw_query: {
      condition: 'AND',
      rules: [{ type: 'condition', field, operator, value }],
    },
  });

  it.each([
    ['shipping_country', 'equal', 'US'],
    ['cart_price', 'less_than', 25.5],
    ['cart_product_count_of_x_price', 'equal', { count: 2, amount: null }],
    ['cart_weight', 'greater_than', { amount: 1.5, unit: 'lb' }],
    ['cart_weight', 'equal', { amount: null, unit: 'kg' }],
    ['shipping_region', 'equal', 'US-CA'],
    ['shipping_postal_code', 'between', { from: '90000', to: '96199' }],
    ['shipping_postal_code', 'starts_with', 'K2P'],
  ])('%s %s %p', (field, operator, value) => {
    const parsed = filterSchema.parse(withValue(field, operator, value));
    expect(parsed.raw_query.rules[0]).toMatchObject({ field, operator, value });
  });

  it('keeps the weight step, null when absent', () => {
    expect(
      filterSchema.parse({ action_type: 6, action_weight_step: { amount: '2', unit: 'kg' } })
        .action_weight_step,
    ).toEqual({ amount: 2, unit: 'kg' });
    expect(filterSchema.parse({}).action_weight_step).toBeNull();
  });
});
