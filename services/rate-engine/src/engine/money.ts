/**
 * Money is integer cents inside the engine (docs/rates.md).
 * Every rounding is half away from zero, done on integers where it matters so
 * binary floating point never decides a half cent.
 */

/**
 * Currency units (as stored in rules, at most 2 decimals) to cents, x100
 * rounded half away from zero. `4.995 * 100` is 499.49999999999994 in binary
 * floating point; rounding the product to 15 significant digits first gives
 * the decimal value the merchant typed (499.5), which then rounds to 500.
 */
export function toCents(amount: number): number {
  const scaled = Number((Math.abs(amount) * 100).toPrecision(15));
  const cents = Math.floor(scaled + 0.5);
  return amount < 0 ? -cents : cents;
}

/**
 * round(numerator / denominator), half away from zero, for safe integers and a
 * denominator d > 0. `Math.floor(m / d)` is exact here: for the float quotient
 * to reach the next integer, the true quotient t (>= 2^k) would have to lie
 * within half a float spacing (2^(k-53)) below it, while it lies at least 1/d
 * below; so d > 2^(53-k) and m >= t x d >= 2^53, which no safe integer is.
 * The remainder is therefore always in [0, d).
 */
export function divRound(numerator: number, denominator: number): number {
  const magnitude = Math.abs(numerator);
  const quotient = Math.floor(magnitude / denominator);
  const remainder = magnitude - quotient * denominator;
  const rounded = remainder * 2 >= denominator ? quotient + 1 : quotient;
  return numerator < 0 ? -rounded : rounded;
}

/**
 * round(a x b / c), half away from zero, exact for integers: the product can
 * pass 2^53 (a large fee times a percentage in hundredths), so it is done in
 * BigInt when it would.
 */
export function mulDivRound(a: number, b: number, c: number): number {
  const product = a * b;
  if (Number.isSafeInteger(product)) return divRound(product, c);
  return Number(mulDivRoundExact(a, b, c));
}

/** round(a x b / c), half away from zero, as an exact BigInt whatever its size. */
export function mulDivRoundExact(a: number, b: number, c: number): bigint {
  const big = BigInt(a) * BigInt(b);
  const divisor = BigInt(c);
  const negative = big < 0n;
  const magnitude = negative ? -big : big;
  let quotient = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) quotient += 1n;
  return negative ? -quotient : quotient;
}

/**
 * ceil(n / d) for a safe integer n >= 0 and d >= 1 (the weight steps of
 * action 6); the float quotient's floor is exact here, as in divRound.
 */
export function ceilDiv(n: number, d: number): number {
  const q = Math.floor(n / d);
  return q * d < n ? q + 1 : q;
}
