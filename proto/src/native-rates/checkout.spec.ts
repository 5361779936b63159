import {
  cartTotals,
  conditionPasses,
  nativeRates,
  zoneFor,
  type Condition,
  type LocationGroupZone,
  type MethodDefinition,
} from './checkout';

const price = (operator: Condition['operator'], amount: string): Condition => ({
  id: 'c',
  field: 'TOTAL_PRICE',
  operator,
  conditionCriteria: { __typename: 'MoneyV2', amount, currencyCode: 'USD' },
});
const weight = (
  operator: Condition['operator'],
  value: number,
  unit: 'KILOGRAMS' | 'POUNDS' = 'KILOGRAMS',
): Condition => ({
  id: 'w',
  field: 'TOTAL_WEIGHT',
  operator,
  conditionCriteria: { __typename: 'Weight', value, unit },
});
const rate = (
  name: string,
  amount: string,
  methodConditions: Condition[],
  active = true,
): MethodDefinition => ({
  id: `gid://shopify/DeliveryMethodDefinition/${name.length}`,
  name,
  active,
  description: null,
  rateProvider: {
    __typename: 'DeliveryRateDefinition',
    id: 'r',
    price: { amount, currencyCode: 'USD' },
  },
  methodConditions,
});

describe('cart totals', () => {
  it('adds price × quantity in cents and grams × quantity', () => {
    expect(
      cartTotals([
        { price: 2500, grams: 1000, quantity: 2 },
        { price: 199, grams: 5, quantity: 3 },
      ]),
    ).toEqual({ subtotalCents: 5597, grams: 2015 });
  });
});

describe('conditions include their bound', () => {
  it.each([
    // order price, in cents, against a bound in the currency's units
    [price('GREATER_THAN_OR_EQUAL_TO', '50.00'), 4999, false],
    [price('GREATER_THAN_OR_EQUAL_TO', '50.00'), 5000, true],
    [price('LESS_THAN_OR_EQUAL_TO', '49.99'), 4999, true],
    [price('LESS_THAN_OR_EQUAL_TO', '49.99'), 5000, false],
    // Exact, not rounded to the cent: 50.00 is over 49.995, 49.99 is not.
    [price('LESS_THAN_OR_EQUAL_TO', '49.995'), 4999, true],
    [price('LESS_THAN_OR_EQUAL_TO', '49.995'), 5000, false],
    [price('GREATER_THAN_OR_EQUAL_TO', '49.995'), 4999, false],
    [price('GREATER_THAN_OR_EQUAL_TO', '49.995'), 5000, true],
  ])('%j with a subtotal of %i cents: %s', (condition, cents, passes) => {
    expect(conditionPasses(condition, { subtotalCents: cents, grams: 0 })).toBe(passes);
  });

  it.each([
    [weight('LESS_THAN_OR_EQUAL_TO', 2), 2000, true],
    [weight('LESS_THAN_OR_EQUAL_TO', 2), 2001, false],
    [weight('GREATER_THAN_OR_EQUAL_TO', 2.001), 2000, false],
    [weight('GREATER_THAN_OR_EQUAL_TO', 2.001), 2001, true],
    // 1 lb is 453.59237 g: a cart of 453.59237 g would be exactly at the bound, 454 g is over.
    [weight('LESS_THAN_OR_EQUAL_TO', 1, 'POUNDS'), 453, true],
    [weight('LESS_THAN_OR_EQUAL_TO', 1, 'POUNDS'), 454, false],
    // No tolerance: 1.0000004 kg is 1000.0004 g, which a 1,000 g cart does not reach.
    [weight('GREATER_THAN_OR_EQUAL_TO', 1.0000004), 1000, false],
    [weight('GREATER_THAN_OR_EQUAL_TO', 1.0000004), 1001, true],
  ])('%j with %i g: %s', (condition, grams, passes) => {
    expect(conditionPasses(condition, { subtotalCents: 0, grams })).toBe(passes);
  });
});

describe('native rates of a zone', () => {
  const zone: LocationGroupZone = {
    zone: { id: 'z', name: 'Domestic', countries: [] },
    methodDefinitions: [
      rate('Standard', '5.00', [price('LESS_THAN_OR_EQUAL_TO', '49.99')]),
      rate('Free', '0.00', [price('GREATER_THAN_OR_EQUAL_TO', '50.00')]),
      rate('Band', '7.00', [
        weight('GREATER_THAN_OR_EQUAL_TO', 1),
        weight('LESS_THAN_OR_EQUAL_TO', 5),
      ]),
      rate('Off', '1.00', [], false),
    ],
  };
  const names = (subtotalCents: number, grams: number) =>
    nativeRates(zone, { subtotalCents, grams }).map((r) => r.name);

  it('offers each active rate whose every condition passes', () => {
    expect(names(4999, 999)).toEqual(['Standard']);
    expect(names(5000, 1000)).toEqual(['Free', 'Band']);
    expect(names(5000, 5000)).toEqual(['Free', 'Band']);
    expect(names(5000, 5001)).toEqual(['Free']);
  });

  it('shows one rate a name, the cheapest, and lists the cheapest first', () => {
    const tiers: LocationGroupZone = {
      zone: { id: 'z', name: 'Domestic', countries: [] },
      methodDefinitions: [
        rate('Express', '15.00', []),
        // Shopify's own example of tiers: both include 2 kg.
        rate('Standard', '21.90', [weight('GREATER_THAN_OR_EQUAL_TO', 2)]),
        rate('Standard', '14.90', [weight('LESS_THAN_OR_EQUAL_TO', 2)]),
      ],
    };
    const shown = (grams: number) =>
      nativeRates(tiers, { subtotalCents: 100, grams }).map((r) => `${r.name} ${r.price.amount}`);
    expect(shown(2000)).toEqual(['Standard 14.90', 'Express 15.00']);
    expect(shown(2001)).toEqual(['Express 15.00', 'Standard 21.90']);
  });

  it('gives the price as the rate definition has it', () => {
    expect(nativeRates(zone, { subtotalCents: 100, grams: 0 })[0]!.price).toEqual({
      amount: '5.00',
      currencyCode: 'USD',
    });
  });
});

describe('zoneFor', () => {
  const country = (code: string | null, provinces: string[] = []) => ({
    id: 'c',
    name: code ?? 'Rest of World',
    code: code
      ? { countryCode: code, restOfWorld: false }
      : { countryCode: null, restOfWorld: true },
    provinces: provinces.map((p) => ({ code: p, name: p })),
  });
  const group = {
    locationGroup: { id: 'g' },
    locationGroupZones: [
      {
        zone: { id: '1', name: 'West', countries: [country('CA', ['BC', 'AB'])] },
        methodDefinitions: [],
      },
      {
        zone: { id: '2', name: 'Europe', countries: [country('DE'), country('FR')] },
        methodDefinitions: [],
      },
      { zone: { id: '3', name: 'World', countries: [country(null)] }, methodDefinitions: [] },
    ],
  };
  it.each([
    [{ country: 'CA', province: 'BC' }, 'West'],
    [{ country: 'ca', province: 'ab' }, 'West'],
    [{ country: 'CA', province: 'ON' }, undefined],
    [{ country: 'FR' }, 'Europe'],
    [{ country: 'JP' }, 'World'],
  ])('%j falls in %s', (to, name) => {
    expect(zoneFor(group, to)?.zone.name).toBe(name);
  });
});
