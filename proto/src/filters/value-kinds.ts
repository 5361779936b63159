import type { DraftValue } from './draft';
import {
  asNumber,
  isAmount,
  isAmountInRange,
  isBlank,
  isCount,
  isWeightAmount,
  isWeightUnit,
  LIMITS,
  normaliseCountry,
  normalisePostalCode,
  normaliseRegion,
  postalAtMost,
  WEIGHT_HINT,
  type PostalRange,
  type Weight,
} from './limits';

/**
 * The value kinds of the filter language, one entry a kind: what a
 * condition's value holds, how it is checked and normalised, and what a
 * refused one is told (docs/architecture.md, "Adding a condition field").
 * `ValueKind` is this record's keys, and every other role of a kind is a
 * table keyed by `ValueKind` in its own module (the snapshot's JSON schema,
 * the sentence, the lint's reading, the engine's operand, the editor's input
 * and form), so a kind added here is a type error in each of them until it
 * is given (`value-kinds.types.spec.ts` proves it).
 */

/**
 * Operators whose value is a list (docs/rates.md, "Lists"): `in` holds when
 * `equal` would for one value of the list, `starts_with_any` when
 * `starts_with` would; `not_in` and `not_starts_with_any` are their negations.
 */
export const LIST_OPERATORS = ['in', 'not_in', 'starts_with_any', 'not_starts_with_any'] as const;

export function isListOperator(operator: string): boolean {
  return (LIST_OPERATORS as readonly string[]).includes(operator);
}

/**
 * How values are admitted: a merchant's draft (numbers may still be text,
 * amounts have at most 2 decimals) or a snapshot's filter (numbers must be
 * numbers, amounts are rounded to the cent).
 */
export interface Admission {
  number(value: unknown): unknown;
  isAmount(value: unknown): value is number;
  /** Whether names and shipping texts are checked (a draft's are; a snapshot's are not the engine's business). */
  texts: boolean;
}

export const ADMISSIONS = {
  draft: { number: asNumber, isAmount, texts: true },
  snapshot: { number: (value) => value, isAmount: isAmountInRange, texts: false },
} satisfies Record<string, Admission>;

/** A checked value, or why there is none: nothing typed yet, or out of bounds. */
export type Checked<V> = V | 'incomplete' | 'invalid';

interface KindDefinition<V> {
  /**
   * The end of "Rule #N: <field> ..." when a value is refused (a postal `between` has its own):
   * what to type, told from the value as typed (`raw`) when that says more than the bounds.
   */
  hint(operator: string, raw?: DraftValue): string;
  /** The value typed or stored, as a saved filter holds it (trimmed, numbers as numbers, codes upper-case). */
  check(raw: DraftValue, operator: string, admission: Admission): Checked<V>;
}

const thousands = (n: number) => n.toLocaleString('en-US');

/**
 * A number typed with a decimal comma ("4,99", "1,5"): one or two digits
 * after it, so "1,000" (a thousands separator) is not taken for one.
 */
const DECIMAL_COMMA = /^\s*(-?\d+),(\d{1,2})\s*$/;

/**
 * What to type instead of a decimal comma, e.g. "must use a dot for
 * decimals: 4.99, not 4,99"; undefined when `raw` has none. Amounts and
 * weights read only a dot (asNumber in limits.ts), in every admin language.
 */
export function decimalCommaHint(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const typed = DECIMAL_COMMA.exec(raw);
  if (!typed) return undefined;
  return `must use a dot for decimals: ${typed[1]}.${typed[2]}, not ${raw.trim()}`;
}

/** The decimal comma hint of an object value's part (a weight's amount, a $X pair's amount). */
const partHint = (raw: DraftValue | undefined, part: 'amount'): string | undefined =>
  typeof raw === 'object' && raw !== null && !Array.isArray(raw)
    ? decimalCommaHint((raw as Record<string, unknown>)[part])
    : undefined;

/**
 * A list operator's values (docs/rates.md, "Lists"): 1 to LIMITS.listValues,
 * each normalised as its single form would be, each kept once in the order
 * given; an empty list is incomplete, one bad value refuses the list.
 */
function checkList(
  raw: DraftValue,
  one: (value: unknown) => string | undefined,
): Checked<string[]> {
  if (isBlank(raw)) return 'incomplete';
  if (!Array.isArray(raw)) return 'invalid';
  if (raw.length === 0) return 'incomplete';
  if (raw.length > LIMITS.listValues) return 'invalid';
  const values = new Set<string>();
  for (const item of raw) {
    const value = one(item);
    if (value === undefined) return 'invalid';
    values.add(value);
  }
  return [...values];
}

/**
 * A code value (a country, a region): blank is incomplete, else the
 * normalised code or invalid; under a list operator, a list of them.
 */
function code(normalise: (raw: unknown) => string | undefined) {
  return (raw: DraftValue, operator: string): Checked<string | string[]> => {
    if (isListOperator(operator)) return checkList(raw, normalise);
    return isBlank(raw) ? 'incomplete' : (normalise(raw) ?? 'invalid');
  };
}

/** A postal code normalised, when it has 1 to LIMITS.postalCode characters. */
function postalCode(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const normalised = normalisePostalCode(value);
  return normalised.length >= 1 && normalised.length <= LIMITS.postalCode ? normalised : undefined;
}

const listHint = (what: string) => `needs 1 to ${thousands(LIMITS.listValues)} ${what}`;

/** A weight `{ amount, unit }`: incomplete without an amount, invalid out of bounds. */
function checkWeight(raw: DraftValue, admission: Admission): Checked<Weight> {
  if (isBlank(raw)) return 'incomplete';
  if (typeof raw !== 'object' || raw === null) return 'invalid';
  const { amount: given, unit } = raw as { amount?: unknown; unit?: unknown };
  const amount = admission.number(given);
  if (isBlank(amount)) return 'incomplete';
  return isWeightUnit(unit) && isWeightAmount(amount) ? { amount, unit } : 'invalid';
}

/**
 * A postal code's value, normalised like the cart's code (docs/rates.md): a
 * code of 1 to LIMITS.postalCode characters, or for `between` two bounds of
 * the same length, 1 to LIMITS.postalBound characters, from <= to.
 */
function checkPostal(raw: DraftValue, operator: string): Checked<string | PostalRange | string[]> {
  if (isListOperator(operator)) return checkList(raw, postalCode);
  if (isBlank(raw)) return 'incomplete';
  if (operator !== 'between') return postalCode(raw) ?? 'invalid';
  if (typeof raw !== 'object' || raw === null || !('from' in raw) || !('to' in raw))
    return 'invalid';
  const { from, to } = raw as { from: unknown; to: unknown };
  if (isBlank(from) || isBlank(to)) return 'incomplete';
  if (typeof from !== 'string' || typeof to !== 'string') return 'invalid';
  const f = normalisePostalCode(from);
  const t = normalisePostalCode(to);
  const fits = f.length >= 1 && f.length <= LIMITS.postalBound && t.length === f.length;
  return fits && postalAtMost(f, t) ? { from: f, to: t } : 'invalid';
}

/** The end of "Rule #N: Shipping Postal Code ..." when a `between` is out of bounds. */
export const POSTAL_RANGE_HINT = `between needs two postal codes of 1 to ${LIMITS.postalBound} letters or digits, of the same length, the first not after the second`;

export const VALUE_KINDS = {
  country: {
    hint: (operator) =>
      isListOperator(operator)
        ? listHint('two-letter country codes')
        : 'needs a two-letter country code',
    check: code(normaliseCountry),
  } satisfies KindDefinition<string | string[]>,
  amount: {
    hint: (_operator, raw) =>
      decimalCommaHint(raw) ??
      `must be an amount from 0 to ${thousands(LIMITS.maxAmount)} with at most 2 decimals`,
    check(raw, _operator, admission) {
      if (isBlank(raw)) return 'incomplete';
      const number = admission.number(raw);
      return admission.isAmount(number) ? number : 'invalid';
    },
  } satisfies KindDefinition<number>,
  count: {
    hint: () => `must be a whole number from 0 to ${thousands(LIMITS.maxCount)}`,
    check(raw, _operator, admission) {
      if (isBlank(raw)) return 'incomplete';
      const number = admission.number(raw);
      return isCount(number) ? number : 'invalid';
    },
  } satisfies KindDefinition<number>,
  count_amount: {
    hint: (_operator, raw) =>
      partHint(raw, 'amount') ??
      `needs a whole count from 0 to ${thousands(LIMITS.maxCount)} and an amount from 0 to ${thousands(LIMITS.maxAmount)}`,
    check(raw, _operator, admission) {
      if (isBlank(raw)) return 'incomplete';
      if (typeof raw !== 'object' || raw === null) return 'invalid';
      const pair = raw as { count?: unknown; amount?: unknown };
      const count = admission.number(pair.count);
      const amount = admission.number(pair.amount);
      if (isBlank(count) || isBlank(amount)) return 'incomplete';
      return isCount(count) && admission.isAmount(amount) ? { count, amount } : 'invalid';
    },
  } satisfies KindDefinition<{ count: number; amount: number }>,
  weight: {
    hint: (_operator, raw) => partHint(raw, 'amount') ?? WEIGHT_HINT,
    check: (raw, _operator, admission) => checkWeight(raw, admission),
  } satisfies KindDefinition<Weight>,
  region: {
    hint: (operator) =>
      isListOperator(operator)
        ? listHint('state or province codes like US-CA')
        : 'needs a state or province code like US-CA (two letters, a hyphen, 1 to 3 letters or digits)',
    check: code(normaliseRegion),
  } satisfies KindDefinition<string | string[]>,
  postal_code: {
    hint: (operator) =>
      operator === 'between'
        ? POSTAL_RANGE_HINT
        : isListOperator(operator)
          ? listHint(`postal codes of 1 to ${LIMITS.postalCode} letters or digits each`)
          : `needs a postal code of 1 to ${LIMITS.postalCode} letters or digits`,
    check: (raw, operator) => checkPostal(raw, operator),
  } satisfies KindDefinition<string | PostalRange | string[]>,
  /**
   * A product text (vendor, type, tag, SKU): kept trimmed as typed, compared
   * case-blind (normaliseItemText in limits.ts), so the admin shows what the merchant typed.
   */
  item_text: {
    hint: () => `needs a text of 1 to ${LIMITS.itemText} characters`,
    check(raw) {
      if (isBlank(raw)) return 'incomplete';
      if (typeof raw !== 'string') return 'invalid';
      const text = raw.trim();
      return text.length <= LIMITS.itemText ? text : 'invalid';
    },
  } satisfies KindDefinition<string>,
};

/** What a condition's value holds, by field. */
export type ValueKind = keyof typeof VALUE_KINDS;

/** A kind's value as a saved filter holds it. */
export type KindValue<K extends ValueKind> = Exclude<
  ReturnType<(typeof VALUE_KINDS)[K]['check']>,
  'incomplete' | 'invalid'
>;

/** The end of "Rule #N: <field> ..." when the value (`raw`, as typed) is refused. */
export function valueHint(kind: ValueKind, operator = '', raw?: DraftValue): string {
  return VALUE_KINDS[kind].hint(operator, raw);
}

/** Checks and normalises a value of `kind` (see KindDefinition.check). */
export function checkValue(
  kind: ValueKind,
  operator: string,
  raw: DraftValue,
  admission: Admission,
): Checked<KindValue<ValueKind>> {
  return VALUE_KINDS[kind].check(raw, operator, admission);
}

/**
 * The end of a switch over the kinds that has a case for each: `kind` is
 * `never` there, so a kind without its case is a type error at the call.
 */
export function unknownKind(kind: never): never {
  throw new Error(`no case for the value kind ${String(kind)}`);
}
