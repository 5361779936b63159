import { cartItems, convertTypedWeight, numericProductId, typedWeight } from './cart';

describe('numericProductId (the preview names products by number)', () => {
  it.each([
    ['123', '123'],
    ['gid://shopify/Product/123', '123'],
    [' 123 ', '123'],
    ['gid://shopify/ProductVariant/123', ''],
    ['abc123', ''],
    ['1'.repeat(17), ''],
    ['', ''],
  ])('%p -> %p', (id, expected) => {
    expect(numericProductId(id)).toBe(expected);
  });
});

describe("weights in the shop's unit", () => {
  const row = (weight: string) => ({ key: 1, price: '1', quantity: '1', productId: '', weight });

  it.each([
    ['0.397', 'lb', 180],
    ['1.5', 'lb', 680],
    ['0.25', 'kg', 250],
    ['8', 'oz', 227],
    ['250', 'g', 250],
    ['', 'kg', 0],
  ] as const)('%p %s is %p g in the request', (weight, unit, grams) => {
    expect(cartItems([row(weight)], unit)).toEqual({
      items: [{ price: 100, quantity: 1, grams, requires_shipping: true }],
    });
  });

  it.each([
    ['1.5', 'g', 'Line 1: enter a weight in whole grams, such as 250.'],
    ['1.2345', 'kg', 'Line 1: enter a weight in kg (up to 3 decimals), such as 0.25.'],
    ['-1', 'lb', 'Line 1: enter a weight in lb (up to 3 decimals), such as 0.5.'],
    ['2000000', 'kg', 'Line 1: enter a weight in kg (up to 3 decimals), such as 0.25.'],
  ] as const)('refuses %p in %s', (weight, unit, error) => {
    expect(cartItems([row(weight)], unit)).toEqual({ error });
  });

  it('shows a weight in another unit with 3 decimals at most, and moves typed text', () => {
    expect(typedWeight({ amount: 180, unit: 'g' }, 'lb')).toBe('0.397');
    expect(typedWeight({ amount: 1, unit: 'lb' }, 'g')).toBe('454');
    expect(typedWeight({ amount: 1.5, unit: 'kg' }, 'lb')).toBe('3.307');
    expect(convertTypedWeight('1000', 'g', 'kg')).toBe('1');
    expect(convertTypedWeight('', 'g', 'kg')).toBe('');
    // Not a weight: kept as typed for cartItems to name.
    expect(convertTypedWeight('abc', 'g', 'kg')).toBe('abc');
  });
});
