import { shopifyGid, shopifyIdDigits, shopifyIdPattern } from './shopify-ids';

describe('shopifyIdDigits', () => {
  it('reads a gid of any resource and the bare number', () => {
    expect(shopifyIdDigits('gid://shopify/Product/123')).toBe('123');
    expect(shopifyIdDigits('gid://shopify/ProductVariant/9')).toBe('9');
    expect(shopifyIdDigits('123')).toBe('123');
    expect(shopifyIdDigits('0')).toBe('0');
  });

  it('refuses what is not one id', () => {
    for (const raw of [
      '',
      'gid://shopify/Product/',
      'gid://shopify//1',
      'gid://shopify/Product/1/2',
      'gid://shopify/Pro-duct/1',
      'gid://other/Product/1',
      'GID://shopify/Product/1',
      'shopify/Product/1',
      '-1',
      '1.5',
      '1e3',
      '0x10',
      '١٢٣',
      '12a',
      'a12',
    ])
      expect(shopifyIdDigits(raw)).toBeUndefined();
  });

  it('counts digits up to the limit: 20 by default, as the caller says', () => {
    expect(shopifyIdDigits('9'.repeat(20))).toBe('9'.repeat(20));
    expect(shopifyIdDigits('9'.repeat(21))).toBeUndefined();
    expect(shopifyIdDigits(`gid://shopify/Product/${'1'.repeat(20)}`)).toBe('1'.repeat(20));
    expect(shopifyIdDigits('1'.repeat(16), { maxDigits: 16 })).toBe('1'.repeat(16));
    expect(shopifyIdDigits('1'.repeat(17), { maxDigits: 16 })).toBeUndefined();
  });

  it('keeps to one resource when asked', () => {
    expect(shopifyIdDigits('gid://shopify/Product/7', { resource: 'Product' })).toBe('7');
    expect(shopifyIdDigits('7', { resource: 'Product' })).toBe('7');
    expect(shopifyIdDigits('gid://shopify/ProductVariant/7', { resource: 'Product' })).toBe(
      undefined,
    );
    expect(shopifyIdDigits('gid://shopify/product/7', { resource: 'Product' })).toBeUndefined();
  });

  it('takes bare numbers only when the gid form is turned off', () => {
    const bare = { gid: false, maxDigits: 16 } as const;
    expect(shopifyIdDigits('1234567890123456', bare)).toBe('1234567890123456');
    expect(shopifyIdDigits('12345678901234567', bare)).toBeUndefined();
    expect(shopifyIdDigits('gid://shopify/Product/1', bare)).toBeUndefined();
    expect(shopifyIdDigits('gid://shopify/Product/1', { maxDigits: 16 })).toBe('1');
  });

  it('trims only when asked', () => {
    expect(shopifyIdDigits(' 12 ')).toBeUndefined();
    expect(shopifyIdDigits('12\n')).toBeUndefined();
    expect(shopifyIdDigits(' 12\t', { trim: true })).toBe('12');
    expect(shopifyIdDigits(' gid://shopify/Product/12 ', { trim: true })).toBe('12');
    expect(shopifyIdDigits('   ', { trim: true })).toBeUndefined();
  });
});

describe('shopifyIdPattern', () => {
  it('matches exactly what shopifyIdDigits accepts, whole strings only', () => {
    const pattern = shopifyIdPattern({ maxDigits: 16 });
    expect(pattern.test('gid://shopify/Product/1')).toBe(true);
    expect(pattern.test('1'.repeat(16))).toBe(true);
    expect(pattern.test('1'.repeat(17))).toBe(false);
    expect(pattern.test('x1')).toBe(false);
    expect(pattern.test('1\n')).toBe(false);
    expect(pattern).toBe(shopifyIdPattern({ maxDigits: 16 }));
  });

  it('refuses rules that would make another pattern', () => {
    expect(() => shopifyIdPattern({ resource: 'Product|.*' })).toThrow();
    expect(() => shopifyIdPattern({ resource: '' })).toThrow();
    expect(() => shopifyIdPattern({ maxDigits: 0 })).toThrow();
    expect(() => shopifyIdPattern({ maxDigits: 1.5 })).toThrow();
  });
});

describe('shopifyGid', () => {
  it('is the inverse of shopifyIdDigits', () => {
    expect(shopifyGid('Product', '123')).toBe('gid://shopify/Product/123');
    expect(shopifyGid('ProductVariant', 5)).toBe('gid://shopify/ProductVariant/5');
    expect(shopifyIdDigits(shopifyGid('Product', '42'), { resource: 'Product' })).toBe('42');
  });
});
