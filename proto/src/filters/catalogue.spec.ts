import {
  actionInputs,
  actionLabel,
  conditionsHint,
  fieldByKey,
  FIELDS,
  isActionType,
  NUMERIC_OPERATORS,
  OPERATOR_LABELS,
  POSTAL_OPERATORS,
} from './catalogue';

const ITEM = ['any_equal', 'all_equal', 'none_equal'];

describe('the filter catalogue', () => {
  it('has the twelve condition fields of docs/rates.md with their labels, kinds and operators', () => {
    expect(FIELDS.map((f) => [f.key, f.label, f.kind, [...f.operators]])).toEqual([
      ['shipping_country', 'Shipping Country', 'country', ['equal', 'not_equal', 'in', 'not_in']],
      ['cart_price', 'Cart Price', 'amount', [...NUMERIC_OPERATORS]],
      ['cart_retail_product_count', 'Cart Retail Product Count', 'count', [...NUMERIC_OPERATORS]],
      ['cart_free_product_count', 'Cart Free Product Count', 'count', [...NUMERIC_OPERATORS]],
      [
        'cart_product_count_of_x_price',
        'Cart Product Count of $X Price',
        'count_amount',
        [...NUMERIC_OPERATORS],
      ],
      ['cart_weight', 'Cart Weight', 'weight', [...NUMERIC_OPERATORS]],
      [
        'shipping_region',
        'Shipping State/Province',
        'region',
        ['equal', 'not_equal', 'in', 'not_in'],
      ],
      ['shipping_postal_code', 'Shipping Postal Code', 'postal_code', [...POSTAL_OPERATORS]],
      ['cart_item_vendor', 'Product Vendor', 'item_text', ITEM],
      ['cart_item_product_type', 'Product Type', 'item_text', ITEM],
      ['cart_item_product_tag', 'Product Tag', 'item_text', ITEM],
      [
        'cart_item_sku',
        'Variant SKU',
        'item_text',
        [...ITEM, 'any_starts_with', 'all_starts_with', 'none_starts_with'],
      ],
    ]);
    expect(POSTAL_OPERATORS).toEqual([
      'equal',
      'not_equal',
      'starts_with',
      'not_starts_with',
      'between',
      'in',
      'not_in',
      'starts_with_any',
      'not_starts_with_any',
    ]);
    expect(NUMERIC_OPERATORS).toEqual([
      'equal',
      'greater_than',
      'greater_or_equal',
      'less_than',
      'less_or_equal',
    ]);
    expect(FIELDS.map((f) => f.figure)).toEqual([
      'shipping_country',
      'price',
      'retail_units',
      'free_units',
      'units_at_price',
      'weight',
      'region',
      'postal_code',
      'item_vendor',
      'item_product_type',
      'item_product_tag',
      'item_sku',
    ]);
    expect(fieldByKey('cart_price')?.label).toBe('Cart Price');
    expect(fieldByKey('cart_colour')).toBeUndefined();
  });

  it('reads units at a price X exactly for the fields whose value is a count and an amount', () => {
    for (const field of FIELDS)
      expect([field.key, field.figure === 'units_at_price']).toEqual([
        field.key,
        field.kind === 'count_amount',
      ]);
  });

  it('says every operator in words', () => {
    expect(OPERATOR_LABELS).toEqual({
      equal: 'equal',
      not_equal: 'not equal',
      greater_than: 'greater than',
      greater_or_equal: 'greater or equal',
      less_than: 'less than',
      less_or_equal: 'less or equal',
      starts_with: 'starts with',
      not_starts_with: 'does not start with',
      between: 'between',
      in: 'is any of',
      not_in: 'is none of',
      starts_with_any: 'starts with any of',
      not_starts_with_any: 'starts with none of',
      any_equal: 'any item is',
      all_equal: 'every item is',
      none_equal: 'no item is',
      any_starts_with: 'any item starts with',
      all_starts_with: 'every item starts with',
      none_starts_with: 'no item starts with',
    });
    for (const field of FIELDS)
      for (const op of field.operators) expect(OPERATOR_LABELS[op]).toBeTruthy();
  });

  it.each([
    [-1, false],
    [0, true],
    [5, true],
    [6, true],
    [7, true],
    [8, false],
    [1.5, false],
    ['1', false],
    [null, false],
  ])('isActionType(%p) is %p', (type, expected) => {
    expect(isActionType(type)).toBe(expected);
  });

  it('names each action, "free for this item" at product scope', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 9].map((t) => actionLabel(t, 'ruleset'))).toEqual([
      'Make Shipping Free',
      'Add Single Shipping Fee',
      'Add Shipping Fee For Each Retail Product',
      'Add Shipping Fee For Each Free Product',
      'Add Shipping Fee For Each Product Costing $X',
      'Set Shipping Fee',
      'Add Shipping Fee For Each Weight Step',
      'Block Shipping',
      'Unknown action 9',
    ]);
    expect(actionLabel(0, 'product')).toBe('Make Shipping Free For This Item');
    expect(actionLabel(1, 'product')).toBe('Add Single Shipping Fee');
  });

  it('asks for an amount from action 1 to 6, Apply To for 2 to 4 and 6 in rulesets only, $X for 4, a step for 6', () => {
    const table = (scope: 'ruleset' | 'product') =>
      [0, 1, 2, 3, 4, 5, 6, 7].map((t) => {
        const { amount, applyTo, productCost, weightStep } = actionInputs(t, scope);
        return [t, amount, applyTo, productCost, weightStep];
      });
    expect(table('ruleset')).toEqual([
      [0, false, false, false, false],
      [1, true, false, false, false],
      [2, true, true, false, false],
      [3, true, true, false, false],
      [4, true, true, true, false],
      [5, true, false, false, false],
      [6, true, true, false, true],
      [7, false, false, false, false],
    ]);
    expect(table('product').map(([t, , applyTo]) => [t, applyTo])).toEqual(
      [0, 1, 2, 3, 4, 5, 6, 7].map((t) => [t, false]),
    );
  });

  it('says where a product rule reads its conditions, and nothing for a ruleset', () => {
    expect(conditionsHint('product')).toBe(
      "Conditions count the whole cart (every product in it), not only this product; the action then applies to this product's units.",
    );
    expect(conditionsHint('ruleset')).toBeUndefined();
  });
});
