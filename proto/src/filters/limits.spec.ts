import {
  asNumber,
  isAmount,
  isAmountInRange,
  isBlank,
  isCount,
  LIMITS,
  normaliseCountry,
  valueHint,
} from './limits';

describe('the value checks of the filter language', () => {
  it.each([
    [0, true, true],
    [4.99, true, true],
    [LIMITS.maxAmount, true, true],
    [LIMITS.maxAmount + 0.01, false, false],
    [-0.01, false, false],
    [4.999, true, false],
    [0.1 + 0.2, true, true], // 0.30000000000000004: two decimals within float error
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
