/**
 * The server's limits (services/rules/src/domain/limits.ts, rate-engine.md
 * section 2), repeated here so the editor can say what is wrong before saving.
 * The server stays the authority and answers with the same messages.
 */
export const LIMITS = {
  filtersPerRuleset: 100,
  filtersPerProductRule: 50,
  conditionsPerFilter: 50,
  groupDepth: 5,
  maxAmount: 1_000_000,
  maxCount: 100_000,
  filterName: 200,
  shortText: 160,
} as const;

export function isAmount(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= 0 &&
    value <= LIMITS.maxAmount &&
    Math.abs(Math.round(value * 100) - value * 100) < 1e-6
  );
}

export function isCount(value: unknown): value is number {
  return (
    typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= LIMITS.maxCount
  );
}

/** Numbers typed into a text box are strings; the plain decimal ones count as numbers. */
export function asNumber(value: unknown): unknown {
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return value;
}

export function isBlank(value: unknown): boolean {
  return (
    value === null || value === undefined || (typeof value === 'string' && value.trim() === '')
  );
}
