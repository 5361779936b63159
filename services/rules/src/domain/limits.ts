/** Limits of spec/rate-engine.md section 2 and the original app's lengths. */
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
  productsPerAdd: 250,
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

/** Numbers typed into a text box arrive as strings; accept the plain decimal ones. */
export function asNumber(value: unknown): unknown {
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return value;
}

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Keeps a client-made id when it is well formed and not used yet, else makes one. */
export function idGenerator(): (candidate: unknown) => string {
  const seen = new Set<string>();
  return (candidate) => {
    let id = typeof candidate === 'string' && ID_PATTERN.test(candidate) ? candidate : '';
    while (!id || seen.has(id)) id = `id-${crypto.randomUUID()}`;
    seen.add(id);
    return id;
  };
}
