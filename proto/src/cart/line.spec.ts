import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { CartLineSchema } from '../gen/ratesmith/common/v1/cart_pb';
import {
  CART_LINE_LIMITS,
  cartLineFromJson,
  cartLineFromShopify,
  cartLineFromWire,
  cartLineId,
  isLineId,
  cartLineToJson,
  cartLineToWire,
  ruleProductId,
  type CartLine,
} from './line';

const LINE: CartLine = {
  price: 2505,
  quantity: 3,
  grams: 1200,
  productId: '48447225880',
  variantId: '9',
  ships: true,
  vendor: ' Acme Boots ',
  sku: 'AB-12',
};

describe('the cart line', () => {
  it('comes from a Shopify item, ids as decimal text', () => {
    expect(
      cartLineFromShopify(
        {
          price: 2505,
          quantity: 3,
          grams: 1200,
          product_id: 48447225880,
          variant_id: '9',
          vendor: ' Acme Boots ',
          sku: 'AB-12',
        },
        'item',
      ),
    ).toEqual(LINE);
    expect(cartLineFromShopify({ price: 0, quantity: 1, requires_shipping: false }, 'i')).toEqual({
      price: 0,
      quantity: 1,
      grams: 0,
      productId: '',
      variantId: '',
      ships: false,
      vendor: '',
      sku: '',
    });
    // Shopify sends null for a variant without a SKU.
    expect(cartLineFromShopify({ price: 1, quantity: 1, sku: null, vendor: null }, 'i')).toEqual(
      expect.objectContaining({ vendor: '', sku: '' }),
    );
  });

  it('names the path and the field of a bad item', () => {
    expect(() => cartLineFromShopify({ price: 1, quantity: 0 }, 'rate.items[4]')).toThrow(
      'rate.items[4].quantity must be a whole number from 1 to 1000000',
    );
    expect(() => cartLineFromShopify([], 'x')).toThrow('x must be an object');
    expect(() => cartLineFromShopify({ price: 1.5, quantity: 1 }, 'x')).toThrow(/^x\.price/);
    expect(() => cartLineFromShopify({ price: 1, quantity: 1, grams: -1 }, 'x')).toThrow(
      /^x\.grams/,
    );
    expect(() => cartLineFromShopify({ price: 1, quantity: 1, product_id: '' }, 'x')).toThrow(
      'x.product_id must be a numeric id',
    );
  });

  it('takes every bound exactly, and refuses one past it', () => {
    const edge = {
      price: CART_LINE_LIMITS.price,
      quantity: CART_LINE_LIMITS.quantity,
      grams: CART_LINE_LIMITS.grams,
      product_id: '9'.repeat(CART_LINE_LIMITS.idDigits),
      vendor: 'v'.repeat(CART_LINE_LIMITS.text),
      sku: 's'.repeat(CART_LINE_LIMITS.text),
    };
    expect(cartLineFromShopify(edge, 'x').productId).toBe('9'.repeat(16));
    for (const [key, over] of [
      ['price', CART_LINE_LIMITS.price + 1],
      ['quantity', CART_LINE_LIMITS.quantity + 1],
      ['grams', CART_LINE_LIMITS.grams + 1],
      ['product_id', '9'.repeat(CART_LINE_LIMITS.idDigits + 1)],
      ['vendor', 'v'.repeat(CART_LINE_LIMITS.text + 1)],
      ['sku', 's'.repeat(CART_LINE_LIMITS.text + 1)],
      ['sku', 12],
    ] as const) {
      expect(() => cartLineFromShopify({ ...edge, [key]: over }, 'x')).toThrow(`x.${key}`);
    }
  });

  it('goes over the bus and back unchanged, a line that does not ship included', () => {
    const bare = { ...LINE, ships: false, productId: '', variantId: '', vendor: '', sku: '' };
    for (const line of [LINE, bare]) {
      const bytes = toBinary(CartLineSchema, create(CartLineSchema, cartLineToWire(line)));
      expect(cartLineFromWire(fromBinary(CartLineSchema, bytes))).toEqual(line);
    }
  });

  it('reads the bytes of the former CheckoutCartLine (fields 1 to 5) as a shipping line', () => {
    // product_id "7" (1), variant_id "" (2), quantity 2 (3), price 1250 (4), grams 300 (5).
    const old = Uint8Array.from([0x0a, 0x01, 0x37, 0x18, 0x02, 0x20, 0xe2, 0x09, 0x28, 0xac, 0x02]);
    expect(cartLineFromWire(fromBinary(CartLineSchema, old))).toEqual({
      price: 1250,
      quantity: 2,
      grams: 300,
      productId: '7',
      variantId: '',
      ships: true,
      vendor: '',
      sku: '',
    });
  });

  it('checks a line from the bus as a Shopify item is checked', () => {
    const wire = cartLineToWire(LINE);
    expect(() => cartLineFromWire({ ...wire, quantity: 0 }, 'rate.items[1]')).toThrow(
      'rate.items[1].quantity must be a whole number from 1 to 1000000',
    );
    expect(() => cartLineFromWire({ ...wire, productId: 'gid://shopify/Product/1' })).toThrow(
      'line.product_id must be a numeric id',
    );
    expect(() => cartLineFromWire({ ...wire, price: -1 })).toThrow(/^line\.price/);
  });

  it('is stored and shown as snake_case JSON, and read back the same', () => {
    const json = cartLineToJson(LINE);
    expect(json).toEqual({
      product_id: '48447225880',
      variant_id: '9',
      quantity: 3,
      price: 2505,
      grams: 1200,
      vendor: ' Acme Boots ',
      sku: 'AB-12',
    });
    expect(cartLineFromJson(json)).toEqual(LINE);
    // Empty texts are left out, and lines stored before item conditions read as empty.
    const plain = { ...LINE, vendor: '', sku: '' };
    expect(cartLineToJson(plain)).not.toHaveProperty('vendor');
    expect(cartLineFromJson(cartLineToJson(plain))).toEqual(plain);
    expect(() => cartLineFromJson({ ...json, grams: 0.5 })).toThrow(/^line\.grams/);
  });

  it('keeps ids in one canonical form, whichever form named them', () => {
    expect([cartLineId(123), cartLineId('0123'), cartLineId(null), cartLineId(undefined)]).toEqual([
      '123',
      '123',
      '',
      '',
    ]);
    expect([cartLineId(-1), cartLineId(1.5), cartLineId('1a'), cartLineId({})]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(['123', '9'.repeat(16)].map(isLineId)).toEqual([true, true]);
    expect(['', '0123', '0', '9'.repeat(17), '12a', ' 12'].map(isLineId)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(ruleProductId('gid://shopify/Product/0123')).toBe('123');
    expect(ruleProductId(' 42 ')).toBe('42');
    expect(ruleProductId('gid://shopify/Product/x')).toBeUndefined();
  });
});
