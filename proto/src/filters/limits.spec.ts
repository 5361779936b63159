import {
  asNumber,
  isAmount,
  isAmountInRange,
  isBlank,
  isCount,
  LIMITS,
  isWeightAmount,
  isWeightUnit,
  normaliseCountry,
  normalisePostalCode,
  normaliseRegion,
  postalAtMost,
  rulesetNameProblem,
  SHOPIFY_WEIGHT_UNITS,
  weightIn,
  weightToGrams,
  type WeightUnit,
} from './limits';
import { POSTAL_RANGE_HINT, valueHint } from './value-kinds';

describe('the value checks of the filter language', () => {
  it.each([
    [0, true, true],
    [4.99, true, true],
    [LIMITS.maxAmount, true, true],
    [LIMITS.maxAmount + 0.01, false, false],
    [-0.01, false, false],
    [4.999, true, false],
    [0.1 + 0.2, true, true], // 0.30000000000000004: two decimals within float error
    [1e-8, true, false], // 100 times it is 1e-6 exactly: not within float error
    [Number.NEGATIVE_INFINITY, false, false],
    [Number.NaN, false, false],
    [Number.POSITIVE_INFINITY, false, false],
    ['5', false, false],
    [null, false, false],
  ])('%p: in range %p, an amount %p', (value, inRange, amount) => {
    expect(isAmountInRange(value)).toBe(inRange);
    expect(isAmount(value)).toBe(amount);
  });

  it.each([
    [0, true],
    [LIMITS.maxCount, true],
    [LIMITS.maxCount + 1, false],
    [-1, false],
    [1.5, false],
    ['3', false],
    [undefined, false],
  ])('isCount(%p) is %p', (value, expected) => {
    expect(isCount(value)).toBe(expected);
  });

  it.each([
    ['5', 5],
    [' 4.50 ', 4.5],
    ['-2', -2],
    ['5.', '5.'],
    ['.5', '.5'],
    ['5a', '5a'],
    ['a5', 'a5'],
    ['1 2', '1 2'],
    ['x 5', 'x 5'],
    ['5 x', '5 x'],
    ['12', 12],
    [7, 7],
    [null, null],
    [true, true],
  ])('asNumber(%p) is %p', (value, expected) => {
    expect(asNumber(value)).toBe(expected);
  });

  it.each([
    [null, true],
    [undefined, true],
    ['', true],
    ['   ', true],
    [' x ', false],
    [0, false],
  ])('isBlank(%p) is %p', (value, expected) => {
    expect(isBlank(value)).toBe(expected);
  });

  it.each([
    ['us', 'US'],
    [' Ca ', 'CA'],
    ['USA', undefined],
    ['U1', undefined],
    ['ß', undefined], // upper-cases to "SS": checked before upper-casing
    ['', undefined],
    [12, undefined],
  ])('normaliseCountry(%p) is %p', (value, expected) => {
    expect(normaliseCountry(value)).toBe(expected);
  });

  it('words each kind of value from the limits', () => {
    expect(valueHint('country')).toBe('needs a two-letter country code');
    expect(valueHint('amount')).toBe(
      'must be an amount from 0 to 1,000,000 with at most 2 decimals',
    );
    expect(valueHint('count')).toBe('must be a whole number from 0 to 100,000');
    expect(valueHint('count_amount')).toBe(
      'needs a whole count from 0 to 100,000 and an amount from 0 to 1,000,000',
    );
  });
});

describe('weights', () => {
  it.each<[number, WeightUnit, number]>([
    [1.5, 'lb', 680], // 680.388555
    [0.001, 'lb', 0], // 0.45359237
    [0.002, 'lb', 1], // 0.90718474
    [1, 'lb', 454], // 453.59237
    [1, 'oz', 28], // 28.349523125
    [0.5, 'oz', 14], // 14.1747615625
    [24, 'oz', 680], // 680.388555
    [23.97, 'oz', 680], // 679.53806... half up
    [23.95, 'oz', 679], // 678.97...
    [2, 'kg', 2000],
    [0.0005 * 2, 'kg', 1],
    [1.005, 'kg', 1005], // 1.005 x 1000 is 1004.9999999999999 in floating point
    [1.0005, 'g', 1], // thousandths: 1.0005 is not 3 decimals, but rounds like 1.001
    [0.5, 'g', 1], // half away from zero
    [0.499, 'g', 0],
    [100_000, 'kg', 100_000_000],
    [100_000, 'lb', 45_359_237],
    [100_000, 'oz', 2_834_952], // 2,834,952.3125
    [0, 'oz', 0],
  ])('%p %s is %p g', (amount, unit, grams) => {
    expect(weightToGrams({ amount, unit })).toBe(grams);
  });

  it.each([
    [680, 'g', 'lb', 1.4991433],
    [1.5, 'lb', 'kg', 0.680388555],
    [1, 'lb', 'oz', 16],
    [2.5, 'kg', 'g', 2500],
    [16, 'oz', 'lb', 1],
    [0, 'kg', 'oz', 0],
  ] as const)('%p %s in %s is %p, for display', (amount, unit, to, expected) => {
    expect(weightIn({ amount, unit }, to)).toBeCloseTo(expected, 6);
  });

  it('half a gram rounds up exactly, in every unit', () => {
    // 0.0625 oz = 1.7718451953125 g; 1.125 lb = 510.2914162... g; a half: 2.5 g -> 3 g.
    expect(weightToGrams({ amount: 2.5, unit: 'g' })).toBe(3);
    expect(weightToGrams({ amount: 1.125, unit: 'lb' })).toBe(510);
  });

  it.each([
    [0, true],
    [100_000, true],
    [100_000.001, false],
    [1.234, true],
    [1.2345, false],
    [-0.001, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
    [Number.NEGATIVE_INFINITY, false],
    [9.999999999999999e-10, false], // 1000 times it is 1e-6 exactly: not within float error
    ['1', false],
    [null, false],
  ])('isWeightAmount(%p) is %p', (value, expected) => {
    expect(isWeightAmount(value)).toBe(expected);
  });

  it('knows g, kg, lb and oz only', () => {
    expect(['g', 'kg', 'lb', 'oz', 'KG', 'st', '', null].map(isWeightUnit)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('regions and postal codes', () => {
  it.each([
    ['US-CA', 'US-CA'],
    [' us-ca ', 'US-CA'],
    ['GB-LND', 'GB-LND'],
    ['FR-75', 'FR-75'],
    ['US-C', 'US-C'],
    ['US-CALI', undefined],
    ['USCA', undefined],
    ['CA', undefined],
    ['U1-CA', undefined],
    ['US-', undefined],
    ['USA-CA', undefined],
    ['xUS-CA', undefined],
    ['', undefined],
    [5, undefined],
  ])('normaliseRegion(%p) is %p', (value, expected) => {
    expect(normaliseRegion(value)).toBe(expected);
  });

  it.each([
    ['90210-1234', '902101234'],
    ['k2p 1l4', 'K2P1L4'],
    [' - ', ''],
    ['é1', '1'],
  ])('normalisePostalCode(%p) is %p', (value, expected) => {
    expect(normalisePostalCode(value)).toBe(expected);
  });

  it('orders digits before letters', () => {
    expect(postalAtMost('9', 'A')).toBe(true);
    expect(postalAtMost('A', '9')).toBe(false);
    expect(postalAtMost('K0A', 'K0A')).toBe(true);
    expect(postalAtMost('96199', '90000')).toBe(false);
  });

  it('says what a weight, region and postal code need', () => {
    expect(valueHint('weight')).toBe(
      'must be a weight from 0 to 100,000 with at most 3 decimals, in g, kg, lb or oz',
    );
    expect(valueHint('region')).toMatch(/^needs a state or province code like US-CA/);
    expect(valueHint('postal_code')).toBe('needs a postal code of 1 to 20 letters or digits');
    expect(valueHint('postal_code', 'between')).toBe(POSTAL_RANGE_HINT);
    expect(valueHint('region', 'between')).toBe(valueHint('region'));
  });
});

describe('asNumber on what is not text', () => {
  it('leaves an array of one number-like string as it is (only strings are read)', () => {
    const value = ['5'];
    expect(asNumber(value)).toBe(value);
    const object = { toString: () => '7' };
    expect(asNumber(object)).toBe(object);
  });
});

describe('the shop weight units', () => {
  it("maps each of Shopify's weight units to the filter language's", () => {
    expect(SHOPIFY_WEIGHT_UNITS).toEqual({
      GRAMS: 'g',
      KILOGRAMS: 'kg',
      POUNDS: 'lb',
      OUNCES: 'oz',
    });
  });
});

describe('rulesetNameProblem', () => {
  it.each([
    ['', 'Please enter a ruleset name'],
    ['   ', 'Please enter a ruleset name'],
    ['Domestic', undefined],
    ['x'.repeat(LIMITS.rulesetName), undefined],
    [`  ${'x'.repeat(LIMITS.rulesetName)}  `, undefined],
    ['x'.repeat(LIMITS.rulesetName + 1), 'Ruleset name must be at most 200 characters.'],
  ])('%p: %p', (name, problem) => {
    expect(rulesetNameProblem(name)).toBe(problem);
  });
});
