import { numericProductId } from './cart';

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
