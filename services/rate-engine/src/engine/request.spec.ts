import { parseRateRequest, RateRequestError, REQUEST_LIMITS } from './request';

/** A body with `items` and the rest of `rate` overridden. */
const body = (items: unknown[], rate: Record<string, unknown> = {}) => ({
  rate: { currency: 'USD', destination: { country: 'US' }, items, ...rate },
});
const one = (fields: Record<string, unknown>) => body([{ price: 100, quantity: 1, ...fields }]);

describe('rate request limits: exactly at the limit is taken, one past is refused', () => {
  it('items: 1000 by default, 1001 refused', () => {
    const items = (n: number) => Array.from({ length: n }, () => ({ price: 1, quantity: 1 }));
    expect(REQUEST_LIMITS.items).toBe(1000);
    expect(parseRateRequest(body(items(1000))).items).toHaveLength(1000);
    expect(() => parseRateRequest(body(items(1001)))).toThrow(
      'rate.items has more than 1000 items',
    );
  });

  it('quantity: 1 to 1,000,000', () => {
    expect(parseRateRequest(one({ quantity: 1 })).items[0]!.quantity).toBe(1);
    expect(parseRateRequest(one({ quantity: 1_000_000 })).items[0]!.quantity).toBe(1_000_000);
    for (const quantity of [0, 1_000_001, 1.5, '1', null]) {
      expect(() => parseRateRequest(one({ quantity }))).toThrow(
        'rate.items[0].quantity must be a whole number from 1 to 1000000',
      );
    }
  });

  it('price: 0 to 1,000,000,000 cents', () => {
    expect(parseRateRequest(one({ price: 0 })).items[0]!.price).toBe(0);
    expect(parseRateRequest(one({ price: 1_000_000_000 })).items[0]!.price).toBe(1_000_000_000);
    for (const price of [-1, 1_000_000_001, 0.5, '100', undefined]) {
      expect(() => parseRateRequest(one({ price }))).toThrow(
        'rate.items[0].price must be a whole number of cents from 0 to 1000000000',
      );
    }
  });

  it('the destination country: up to 8 characters, upper-cased', () => {
    expect(parseRateRequest(body([], { destination: { country: 'abcdefgh' } })).country).toBe(
      'ABCDEFGH',
    );
    for (const country of ['ABCDEFGHI', 12, true]) {
      expect(() => parseRateRequest(body([], { destination: { country } }))).toThrow(
        'rate.destination.country must be a country code',
      );
    }
  });

  it('a missing destination or country is the empty country', () => {
    for (const destination of [undefined, null, {}, { country: null }]) {
      expect(parseRateRequest(body([], { destination })).country).toBe('');
    }
    expect(() => parseRateRequest(body([], { destination: ['US'] }))).toThrow(
      'rate.destination must be an object',
    );
  });
});

describe('the currency: exactly three letters, either case, echoed as sent', () => {
  it.each(['USD', 'usd', 'Eur'])('takes %p', (currency) => {
    expect(parseRateRequest(body([], { currency })).currency).toBe(currency);
  });

  // Both anchors matter: a longer code, a code with a prefix or suffix.
  it.each(['USDX', 'XUSD', 'US', '', 'US1', ' USD', 'USD\n', 'U.S', 840, ['USD']])(
    'refuses %p',
    (currency) => {
      expect(() => parseRateRequest(body([], { currency }))).toThrow(
        'rate.currency must be a three-letter currency code',
      );
    },
  );
});

it('its errors are RateRequestErrors by name', () => {
  expect(() => parseRateRequest(null)).toThrow(
    expect.objectContaining({ name: 'RateRequestError' }) as never,
  );
});

describe('items', () => {
  it('refuses a body that is not { rate: {...} }', () => {
    for (const value of [null, 'x', [], { rate: null }, { rate: [] }, { rate: 'x' }]) {
      expect(() => parseRateRequest(value)).toThrow(
        new RateRequestError('The body must be an object with a "rate" object'),
      );
    }
  });

  it('refuses items that are not an array, or an item that is not an object', () => {
    expect(() => parseRateRequest(body(undefined as never))).toThrow('rate.items must be an array');
    for (const item of [null, 5, [1]]) {
      expect(() => parseRateRequest(body([item]))).toThrow('rate.items[0] must be an object');
    }
  });

  it('requires_shipping: only false leaves an item out; null or missing ship', () => {
    const ships = (requires_shipping: unknown) =>
      parseRateRequest(one({ requires_shipping })).items[0]!.ships;
    expect([ships(false), ships(true), ships(null), ships(undefined)]).toEqual([
      false,
      true,
      true,
      true,
    ]);
    expect(() => ships(0)).toThrow('rate.items[0].requires_shipping must be true or false');
  });

  it("ids: a safe whole number >= 0 or up to 16 decimal digits, kept as decimal text; missing is ''", () => {
    const ids = (product_id: unknown, variant_id?: unknown) => {
      const parsed = parseRateRequest(one({ product_id, variant_id })).items[0]!;
      return [parsed.productId, parsed.variantId];
    };
    expect(ids(0, 7)).toEqual(['0', '7']);
    expect(ids(Number.MAX_SAFE_INTEGER)).toEqual([String(Number.MAX_SAFE_INTEGER), '']);
    expect(ids('1234567890123456', '0')).toEqual(['1234567890123456', '0']);
    expect(ids('0012', '000')).toEqual(['12', '0']);
    expect(ids(null, null)).toEqual(['', '']);
    for (const bad of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1, '12345678901234567', 'x1', '1x', '']) {
      expect(() => ids(bad)).toThrow('rate.items[0].product_id must be a numeric id');
      expect(() => ids(1, bad)).toThrow('rate.items[0].variant_id must be a numeric id');
    }
    expect(() => ids('gid://shopify/Product/1')).toThrow(/product_id/);
  });

  it('names the item that is wrong', () => {
    const items = [
      { price: 1, quantity: 1 },
      { price: 1, quantity: 1 },
      { price: 1, quantity: 0 },
    ];
    expect(() => parseRateRequest(body(items))).toThrow(/^rate\.items\[2\]\.quantity/);
  });

  it('keeps what it read, in order', () => {
    expect(
      parseRateRequest({
        rate: {
          currency: 'CAD',
          destination: { country: 'ca' },
          items: [
            { price: 5, quantity: 2, product_id: 1, variant_id: '2', requires_shipping: false },
            { price: 0, quantity: 1, vendor: 'Acme', sku: 'A-1' },
          ],
        },
      }),
    ).toEqual({
      country: 'CA',
      region: '',
      postalCode: '',
      currency: 'CAD',
      items: [
        {
          price: 5,
          quantity: 2,
          grams: 0,
          productId: '1',
          variantId: '2',
          ships: false,
          vendor: '',
          sku: '',
        },
        {
          price: 0,
          quantity: 1,
          grams: 0,
          productId: '',
          variantId: '',
          ships: true,
          vendor: 'Acme',
          sku: 'A-1',
        },
      ],
    });
  });
});

describe('weight, region and postal code', () => {
  const to = (destination: unknown, items: unknown[] = []) =>
    parseRateRequest({ rate: { currency: 'USD', destination, items } });

  it.each([
    [{ country: 'us', province: 'ca' }, 'US-CA'],
    [{ country: ' CA ', province: ' on ' }, 'CA-ON'],
    [{ country: 'US', province: '' }, ''],
    [{ country: 'US', province: '   ' }, ''],
    [{ country: 'US', province: null }, ''],
    [{ country: 'US' }, ''],
    [{ country: 'GB', province: 'Lnd' }, 'GB-LND'],
  ])('the region of %p is %p', (destination, region) => {
    expect(to(destination).region).toBe(region);
  });

  it.each([
    ['90210-1234', '902101234'],
    ['k2p 1l4', 'K2P1L4'],
    [' sw1a-1aa ', 'SW1A1AA'],
    ['ß-ü', 'SS'], // upper-cased first (ß is SS), then only A-Z and 0-9 kept
    [null, ''],
    [undefined, ''],
  ])('the postal code %p is %p', (postal_code, code) => {
    expect(to({ country: 'US', postal_code }).postalCode).toBe(code);
  });

  it('takes a province and a postal code of exactly 64 characters, refuses 65', () => {
    const at = 'A'.repeat(REQUEST_LIMITS.text);
    expect(REQUEST_LIMITS.text).toBe(64);
    expect(to({ country: 'US', province: at, postal_code: at })).toMatchObject({
      region: `US-${at}`,
      postalCode: at,
    });
    expect(() => to({ country: 'US', province: `${at}A` })).toThrow(
      'rate.destination.province must be text of at most 64 characters',
    );
  });

  it('refuses a province or postal code that is not short text', () => {
    expect(() => to({ country: 'US', province: 5 })).toThrow(/^rate\.destination\.province/);
    expect(() => to({ country: 'US', postal_code: 'x'.repeat(65) })).toThrow(
      /^rate\.destination\.postal_code must be text of at most 64 characters/,
    );
  });

  it('reads grams, missing or null as 0, and refuses anything but whole grams in bounds', () => {
    const items = to({ country: 'US' }, [
      { price: 1, quantity: 1, grams: 250 },
      { price: 1, quantity: 1, grams: null },
      { price: 1, quantity: 1 },
      { price: 1, quantity: 1, grams: REQUEST_LIMITS.grams },
    ]).items;
    expect(items.map((i) => i.grams)).toEqual([250, 0, 0, REQUEST_LIMITS.grams]);
    for (const grams of [-1, 1.5, '250', REQUEST_LIMITS.grams + 1]) {
      expect(() => to({ country: 'US' }, [{ price: 1, quantity: 1, grams }])).toThrow(
        /^rate\.items\[0\]\.grams must be a whole number of grams/,
      );
    }
  });
});
