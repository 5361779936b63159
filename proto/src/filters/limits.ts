/**
 * Limits of the filter language (docs/rates.md) and the original app's lengths, and the
 * value checks built on them. One source for the rules service (the authority) and
 * the admin's editor (which says what is wrong before saving): plain TypeScript with
 * no imports, so the frontend bundles it from source.
 */
export const LIMITS = {
  filtersPerRuleset: 100,
  filtersPerProductRule: 50,
  conditionsPerFilter: 50,
  groupDepth: 5,
  maxAmount: 1_000_000,
  maxCount: 100_000,
  filterName: 200,
  rulesetName: 200,
  /** Filter shipping texts and settings texts. */
  shortText: 160,
  /** Products one "Add" of the picker may carry (the catalog looks each one up, with its variants). */
  productsPerAdd: 50,
  /** Shopify's own most variants a product can have. */
  variantsPerProduct: 2048,
} as const;

/**
 * The one check of a ruleset's name, for Add Ruleset and Rename alike (the
 * rules service decides, the admin says the same before sending): the
 * problem in the merchant's words, or undefined when the trimmed name is fine.
 */
export function rulesetNameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return 'Please enter a rule name';
  if (trimmed.length > LIMITS.rulesetName)
    return `Rule name must be at most ${LIMITS.rulesetName} characters.`;
  return undefined;
}

/** Currency units from 0 to maxAmount (what a snapshot may carry; cents are rounded). */
export function isAmountInRange(value: unknown): value is number {
  return (
    typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= LIMITS.maxAmount
  );
}

/** Currency units, 0 to maxAmount, at most 2 decimals (what a merchant may save). */
export function isAmount(value: unknown): value is number {
  return isAmountInRange(value) && Math.abs(Math.round(value * 100) - value * 100) < 1e-6;
}

export function isCount(value: unknown): value is number {
  return (
    typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= LIMITS.maxCount
  );
}

/** Numbers typed into a text box arrive as strings; the plain decimal ones count as numbers. */
export function asNumber(value: unknown): unknown {
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return value;
}

/**
 * A country code as the filter language keeps it: two ASCII letters, trimmed and
 * upper-cased (checked before upper-casing: "ß" must not become "SS"); undefined
 * for anything else.
 */
export function normaliseCountry(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return /^[A-Za-z]{2}$/.test(trimmed) ? trimmed.toUpperCase() : undefined;
}

export function isBlank(value: unknown): boolean {
  return (
    value === null || value === undefined || (typeof value === 'string' && value.trim() === '')
  );
}

/** What a condition's value holds, by field. */
export type ValueKind = 'country' | 'amount' | 'count' | 'count_amount';

/** The end of "Rule #N: <field> ..." when a condition's value is out of bounds. */
export function valueHint(kind: ValueKind): string {
  switch (kind) {
    case 'country':
      return 'needs a two-letter country code';
    case 'amount':
      return `must be an amount from 0 to ${LIMITS.maxAmount.toLocaleString('en-US')} with at most 2 decimals`;
    case 'count':
      return `must be a whole number from 0 to ${LIMITS.maxCount.toLocaleString('en-US')}`;
    case 'count_amount':
      return `needs a whole count from 0 to ${LIMITS.maxCount.toLocaleString('en-US')} and an amount from 0 to ${LIMITS.maxAmount.toLocaleString('en-US')}`;
  }
}
