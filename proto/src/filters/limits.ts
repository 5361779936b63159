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
  /** Weights, in their own unit (at most 3 decimals). */
  maxWeight: 100_000,
  /** Postal codes after normalisation (only A-Z and 0-9). */
  postalCode: 20,
  /** Each bound of a postal-code `between`. */
  postalBound: 10,
  /** Values of one list (`in`, `not_in`, `starts_with_any`, `not_starts_with_any`). */
  listValues: 500,
  /** An item condition's text (vendor, product type, tag, SKU) after trimming; Shopify's own limit. */
  itemText: 255,
  filterName: 200,
  rulesetName: 200,
  /** Filter shipping texts and settings texts. */
  shortText: 160,
  /** Products one "Add" of the picker may carry (the catalog looks each one up, with its variants). */
  productsPerAdd: 50,
  /** Shopify's own most variants a product can have. */
  variantsPerProduct: 2048,
  /**
   * Rulesets and product rules one shop may have (checked before each create, duplicate,
   * add and import), which bounds what its export, import and snapshot carry
   * (docs/architecture.md, "Message sizes").
   */
  rulesetsPerShop: 50,
  productRulesPerShop: 250,
  /**
   * Bytes of a configuration file (export and import alike): its import then fits in one
   * message on the bus, gzipped (docs/architecture.md, "Message sizes").
   */
  configFileBytes: 4 * 1024 * 1024,
} as const;

/**
 * A product text as item conditions compare it (docs/rates.md, "Item
 * conditions"): trimmed, then lower-cased, so " Acme " and "ACME" are one
 * vendor. The rule's value and the cart's text go through the same function.
 */
export function normaliseItemText(value: string): string {
  return value.trim().toLowerCase();
}

/**
 * The one check of a ruleset's name, for Add Ruleset and Rename alike (the
 * rules service decides, the admin says the same before sending): the
 * problem in the merchant's words, or undefined when the trimmed name is fine.
 */
export function rulesetNameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return 'Please enter a ruleset name';
  if (trimmed.length > LIMITS.rulesetName)
    return `Ruleset name must be at most ${LIMITS.rulesetName} characters.`;
  return undefined;
}

/** Currency units from 0 to maxAmount (what a snapshot may carry; cents are rounded). */
export function isAmountInRange(value: unknown): value is number {
  // NaN and the infinities fall outside the range: no finiteness test is needed.
  return typeof value === 'number' && value >= 0 && value <= LIMITS.maxAmount;
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

/** The weight units of the filter language. */
export const WEIGHT_UNITS = ['g', 'kg', 'lb', 'oz'] as const;
export type WeightUnit = (typeof WEIGHT_UNITS)[number];

/** A weight as rules store it: `{ amount, unit }` (docs/rates.md). */
export interface Weight {
  amount: number;
  unit: WeightUnit;
}

/**
 * Grams per unit as an exact fraction [numerator, denominator]: the pound is
 * 453.59237 g and the ounce 1/16 of it, 28.349523125 g, by definition.
 */
const GRAMS_PER_UNIT: Record<WeightUnit, readonly [bigint, bigint]> = {
  g: [BigInt(1), BigInt(1)],
  kg: [BigInt(1000), BigInt(1)],
  lb: [BigInt(45_359_237), BigInt(100_000)],
  oz: [BigInt(28_349_523_125), BigInt(1_000_000_000)],
};

/** A weight in another unit, for display: the exact factors in floating point (1.5 lb is 0.680388555 kg). */
export function weightIn(weight: Weight, unit: WeightUnit): number {
  const [fromNum, fromDen] = GRAMS_PER_UNIT[weight.unit];
  const [toNum, toDen] = GRAMS_PER_UNIT[unit];
  return (weight.amount * Number(fromNum * toDen)) / Number(fromDen * toNum);
}

/** Shopify's Shop.weightUnit (the shop's default unit) as a unit of the filter language. */
export const SHOPIFY_WEIGHT_UNITS: Readonly<Record<string, WeightUnit>> = {
  GRAMS: 'g',
  KILOGRAMS: 'kg',
  POUNDS: 'lb',
  OUNCES: 'oz',
};

export function isWeightUnit(value: unknown): value is WeightUnit {
  return (WEIGHT_UNITS as readonly unknown[]).includes(value);
}

/** An amount of a weight unit: 0 to maxWeight with at most 3 decimals. */
export function isWeightAmount(value: unknown): value is number {
  // NaN and the infinities fall outside the range: no finiteness test is needed.
  return (
    typeof value === 'number' &&
    value >= 0 &&
    value <= LIMITS.maxWeight &&
    Math.abs(Math.round(value * 1000) - value * 1000) < 1e-6
  );
}

/**
 * A weight in whole grams, exactly: the amount is taken as the decimal the
 * merchant wrote (thousandths), multiplied by the unit's exact factor in
 * integers and rounded half away from zero (amounts are never negative), so
 * 1.5 lb is 680 g and 0.001 lb is 0 g whatever binary floating point says.
 */
export function weightToGrams(weight: Weight): number {
  const [num, den] = GRAMS_PER_UNIT[weight.unit];
  const thousandths = BigInt(Math.round(weight.amount * 1000));
  const n = thousandths * num;
  const d = BigInt(1000) * den;
  return Number((BigInt(2) * n + d) / (BigInt(2) * d));
}

/**
 * A region (ISO 3166-2 style `COUNTRY-PROVINCE`) upper-cased and trimmed when
 * it is two letters, a hyphen and 1 to 3 letters or digits; undefined for
 * anything else.
 */
export function normaliseRegion(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return /^[A-Za-z]{2}-[A-Za-z0-9]{1,3}$/.test(trimmed) ? trimmed.toUpperCase() : undefined;
}

/** A postal code as the filter language compares it: upper case, only A-Z and 0-9 kept. */
export function normalisePostalCode(value: string): string {
  return value.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** The bounds of a postal-code `between`. */
export interface PostalRange {
  from: string;
  to: string;
}

/** `a` <= `b` in the order 0-9 < A-Z (character codes, as both are normalised). */
export function postalAtMost(a: string, b: string): boolean {
  return a <= b;
}

/** The end of a message about a weight (a condition's or a weight step's). */
export const WEIGHT_HINT = `must be a weight from 0 to ${LIMITS.maxWeight.toLocaleString('en-US')} with at most 3 decimals, in g, kg, lb or oz`;
