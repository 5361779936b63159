import {
  normaliseCountry,
  normaliseRegion,
  type DraftCondition,
  type DraftGroup,
  type FilterDraft,
} from '@ratesmith/contracts/filters';

/** Operators that name a place the rule is for (the others, like "not equal", name places it is not for). */
const NAMING_OPERATORS: ReadonlySet<string> = new Set(['equal']);

/** The place a condition names, as the filter language stores it: `US`, or the region `US-CA`. */
function destinationOf(condition: DraftCondition): string | undefined {
  if (!NAMING_OPERATORS.has(condition.operator)) return undefined;
  if (condition.field === 'shipping_country') return normaliseCountry(condition.value);
  if (condition.field === 'shipping_region') return normaliseRegion(condition.value);
  return undefined;
}

/**
 * The destinations a ruleset's rules are written for: every country
 * (Shipping Country equal) and state/province (Shipping State/Province equal)
 * its conditions name, at any depth of their AND/OR groups, once each, in the
 * order they first appear. The Dashboard warns when checkout never asks
 * Ratesmith about one of them (zones/coverage.ts).
 */
export function rulesetDestinations(filters: readonly FilterDraft[]): string[] {
  const found = new Set<string>();
  const walk = (group: DraftGroup) => {
    for (const rule of group.rules ?? []) {
      if (rule.type === 'group') walk(rule);
      else {
        const destination = destinationOf(rule);
        if (destination) found.add(destination);
      }
    }
  };
  for (const filter of filters) if (filter.raw_query) walk(filter.raw_query);
  return [...found];
}
