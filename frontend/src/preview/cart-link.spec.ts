import { cartPresetOf, cartPresetQuery } from './cart-link';

describe('a checkout’s cart in a link (the Dashboard opens the preview with it)', () => {
  const cart = {
    country: 'CA',
    currency: 'USD',
    lines: [
      { product_id: '48447225880', variant_id: '9', quantity: 2, price: 2505, grams: 1000 },
      { product_id: '', variant_id: '', quantity: 1, price: 0, grams: 0 },
    ],
  };

  it('round-trips figures only', () => {
    const query = cartPresetQuery(cart);
    expect(query).toBe('country=CA&currency=USD&line=2505_2_1000_48447225880&line=0_1_0_');
    expect(cartPresetOf(new URLSearchParams(query))).toEqual({
      country: 'CA',
      currency: 'USD',
      lines: [
        { price: '25.05', quantity: '2', grams: '1000', productId: '48447225880' },
        { price: '0.00', quantity: '1', grams: '0', productId: '' },
      ],
    });
  });

  it.each([
    ['no query', ''],
    ['no line', 'country=CA&currency=USD'],
    ['a lower-case country', 'country=ca&currency=USD&line=1_1_1_'],
    ['a bad currency', 'country=CA&currency=US&line=1_1_1_'],
    ['a malformed line', 'country=CA&currency=USD&line=1_1_1'],
    ['a negative price', 'country=CA&currency=USD&line=-1_1_1_'],
    ['51 lines', `country=CA&currency=USD${'&line=1_1_1_'.repeat(51)}`],
  ])('ignores %s', (_name, query) => {
    expect(cartPresetOf(new URLSearchParams(query))).toBeNull();
  });
});
