import fc from 'fast-check';
import { ceilDiv, divRound, mulDivRound, toCents } from './money';

/**
 * The money helpers against a reference done entirely in BigInt, so binary
 * floating point cannot decide a half cent on either side of the comparison.
 * Every rounding is half away from zero (docs/rates.md).
 */

/** round(n / d), half away from zero, exact: d > 0. */
function refDivRound(n: bigint, d: bigint): bigint {
  const magnitude = n < 0n ? -n : n;
  let q = magnitude / d;
  if ((magnitude % d) * 2n >= d) q += 1n;
  return n < 0n ? -q : q;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const safeInteger = fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
/** Biased to both ends: small numbers (halves are common) and numbers near 2^53. */
const anyInteger = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  safeInteger,
  fc
    .bigInt({ min: MAX_SAFE - 100_000n, max: MAX_SAFE })
    .map((n) => Number(n))
    .chain((n) => fc.constantFrom(n, -n)),
);
const divisor = fc.oneof(
  fc.integer({ min: 1, max: 20 }),
  fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  fc.constantFrom(2, 3, 7, 100, 10_000),
);

describe('toCents: currency units to cents, x100 rounded half away from zero', () => {
  // Amounts with at most 3 decimals up to the largest amount (1,000,000): m
  // thousandths is m / 10 cents, so the exact answer is round(m / 10).
  it('matches the exact decimal answer for every amount with up to 3 decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), (m) => {
        const amount = m / 1000;
        expect(BigInt(toCents(amount))).toBe(refDivRound(BigInt(m), 10n));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    // x100 in binary floating point lands just under the half for these.
    [4.995, 500],
    [1.005, 101],
    [2.675, 268],
    [0.285, 29],
    [1_000_000, 100_000_000],
    [999_999.995, 100_000_000],
    [0.004, 0],
    [0.005, 1],
    [12.5, 1250],
    [-4.995, -500],
    [-0.005, -1],
  ])('%p is %p cents', (amount, cents) => {
    expect(toCents(amount)).toBe(cents);
  });

  it('0 is +0 cents', () => {
    // Object.is tells +0 from -0; a -0 fee would print as "0" but is not an integer cent count.
    expect(Object.is(toCents(0), 0)).toBe(true);
  });
});

describe('divRound: integer division rounded half away from zero', () => {
  it('matches BigInt division for every safe numerator and positive divisor', () => {
    fc.assert(
      fc.property(anyInteger, divisor, (n, d) => {
        expect(BigInt(divRound(n, d))).toBe(refDivRound(BigInt(n), BigInt(d)));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    [5, 2, 3],
    [-5, 2, -3],
    [4, 2, 2],
    [7, 3, 2],
    [8, 3, 3],
    [-8, 3, -3],
    [1, 3, 0],
    [3, 6, 1],
    [2, 6, 0],
    [-3, 6, -1],
    [Number.MAX_SAFE_INTEGER, 1, Number.MAX_SAFE_INTEGER],
    // 2^53 - 1 = 9007199254740991 = 2 x 4503599627370495 + 1: exactly a half, rounds up.
    [Number.MAX_SAFE_INTEGER, 2, 4503599627370496],
    [-Number.MAX_SAFE_INTEGER, 2, -4503599627370496],
  ])('round(%p / %p) = %p', (n, d, expected) => {
    expect(divRound(n, d)).toBe(expected);
  });

  // Near 2^53 the quotient of the float division is checked by the remainder;
  // these numerators and divisors are the largest the engine can pass.
  it.each([
    [Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER],
    [Number.MAX_SAFE_INTEGER, 3],
    [Number.MAX_SAFE_INTEGER - 2, 7],
    [Number.MAX_SAFE_INTEGER - 5, 4_503_599_627_370_497],
  ])('round(+-%p / %p) is exact near 2^53', (n, d) => {
    expect(BigInt(divRound(n, d))).toBe(refDivRound(BigInt(n), BigInt(d)));
    expect(BigInt(divRound(-n, d))).toBe(refDivRound(BigInt(-n), BigInt(d)));
  });

  it('0 is +0', () => {
    expect(Object.is(divRound(0, 7), 0)).toBe(true);
  });
});

describe('mulDivRound: round(a x b / c), exact even when a x b passes 2^53', () => {
  const factor = fc.oneof(
    fc.integer({ min: -10_000, max: 10_000 }),
    fc.integer({ min: -100_000_000, max: 100_000_000 }),
    safeInteger,
  );

  it('matches BigInt arithmetic for any safe factors and positive divisor', () => {
    fc.assert(
      fc.property(factor, factor, divisor, (a, b, c) => {
        const exact = refDivRound(BigInt(a) * BigInt(b), BigInt(c));
        // The result is only promised when it is itself a safe integer.
        fc.pre(exact <= MAX_SAFE && exact >= -MAX_SAFE);
        expect(BigInt(mulDivRound(a, b, c))).toBe(exact);
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    // Fees times a percentage in hundredths over 10,000 (the bump rate).
    [1001, 5000, 10_000, 501], // 500.5 -> 501
    [333, 1250, 10_000, 42], // 41.625 -> 42
    [-1001, 5000, 10_000, -501],
    [800, 2, 4, 400], // four units with two free
    [1000, 2, 3, 667], // 666.67 -> 667
    [0, 7, 3, 0],
    // 3 x (2^52 + 1) = 13510798882111491 passes 2^53; / 2 = 6755399441055745.5 -> ...46.
    [3, 4_503_599_627_370_497, 2, 6_755_399_441_055_746],
    [-3, 4_503_599_627_370_497, 2, -6_755_399_441_055_746],
    // (2^53 - 1) x 9999 / 10000 = 9006298534815516.9009 -> ...517 (product 9.0e19).
    [Number.MAX_SAFE_INTEGER, 9999, 10_000, 9_006_298_534_815_517],
    // (2^53 - 1) x 3 / 4 = 6755399441055743.25 -> ...743.
    [Number.MAX_SAFE_INTEGER, 3, 4, 6_755_399_441_055_743],
    // (2^53 - 1) x 2 / 4 = 4503599627370495.5 -> ...496: an exact half above 2^53.
    [Number.MAX_SAFE_INTEGER, 2, 4, 4_503_599_627_370_496],
    // 10^8 x 10^8 / 10^8: a product of 10^16 (unsafe), an exact quotient.
    [100_000_000, 100_000_000, 100_000_000, 100_000_000],
  ])('round(%p x %p / %p) = %p', (a, b, c, expected) => {
    expect(mulDivRound(a, b, c)).toBe(expected);
  });

  it('0 is +0', () => {
    expect(Object.is(mulDivRound(0, 5, 3), 0)).toBe(true);
  });
});

describe('ceilDiv (weight steps of action 6)', () => {
  it.each([
    [0, 1000, 0],
    [1, 1000, 1],
    [999, 1000, 1],
    [1000, 1000, 1],
    [1001, 1000, 2],
    [2000, 1000, 2],
    [680, 227, 3],
    [681, 227, 3],
    [682, 227, 4],
    [Number.MAX_SAFE_INTEGER, 1, Number.MAX_SAFE_INTEGER],
    // (2^53 - 1) / 2 = 4503599627370495.5 -> ...496.
    [Number.MAX_SAFE_INTEGER, 2, 4_503_599_627_370_496],
  ])('ceil(%p / %p) = %p', (n, d, expected) => {
    expect(ceilDiv(n, d)).toBe(expected);
  });

  it('agrees with BigInt arithmetic on safe integers', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.integer({ min: 1, max: 100_000_000 }),
        (n, d) => {
          const exact = (BigInt(n) + BigInt(d) - 1n) / BigInt(d);
          expect(ceilDiv(n, d)).toBe(Number(exact));
        },
      ),
    );
  });
});
