import { BATCH_LIMITS, cartPlaceValid, storedLines } from './outcome-batch';

const wire = { productId: '7', variantId: '8', quantity: 2, price: 1250, grams: 300 };
const place = {
  shop: 'a-shop.myshopify.com',
  at: '2026-11-29T10:00:00.000Z',
  country: 'CA',
  currency: 'USD',
  lines: [wire],
};

describe("a batch's carts", () => {
  it('keep their lines in the JSON form, each checked by the cart line contract', () => {
    expect(storedLines([wire, { ...wire, productId: '', variantId: '' }])).toEqual([
      { product_id: '7', variant_id: '8', quantity: 2, price: 1250, grams: 300 },
      { product_id: '', variant_id: '', quantity: 2, price: 1250, grams: 300 },
    ]);
    for (const bad of [
      { quantity: 0 },
      { price: -1 },
      { grams: 1.5 },
      { productId: 'gid://shopify/Product/7' },
      { variantId: '1'.repeat(17) },
      { noShipping: true },
    ]) {
      expect(() => storedLines([wire, { ...wire, ...bad }])).toThrow(
        expect.objectContaining({ kind: 'invalid_data' }) as never,
      );
    }
  });

  it('name a shop, a moment, a country and a currency, with at most 50 lines', () => {
    expect(cartPlaceValid(place)).toEqual(new Date(place.at));
    expect(
      cartPlaceValid({ ...place, lines: Array.from({ length: BATCH_LIMITS.lines }, () => wire) }),
    ).toEqual(new Date(place.at));
    for (const bad of [
      { shop: 'evil.example.com' },
      { at: 'soon' },
      { country: 'CANADA' },
      { currency: 'usd' },
      { lines: Array.from({ length: BATCH_LIMITS.lines + 1 }, () => wire) },
    ]) {
      expect(() => cartPlaceValid({ ...place, ...bad })).toThrow(
        'The checkout outcomes batch has a cart that is not valid.',
      );
    }
  });
});
