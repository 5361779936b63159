import type { SnapshotFilter, SnapshotGroup } from '../snapshot';
import { normaliseItemText } from './limits';

/**
 * The product types and tags a shop's conditions name, normalised
 * (docs/rates.md, "Item conditions"): the snapshot's product index carries
 * only products with one of them, and only those tags, so a shop of 100,000
 * products sends what its rules can read and no more.
 */
export interface NamedProductTexts {
  types: Set<string>;
  tags: Set<string>;
}

export function namedProductTexts(
  lists: readonly (readonly SnapshotFilter[])[],
): NamedProductTexts {
  const named: NamedProductTexts = { types: new Set(), tags: new Set() };
  for (const filters of lists) for (const filter of filters) collect(filter.raw_query, named);
  return named;
}

function collect(group: SnapshotGroup, named: NamedProductTexts): void {
  for (const rule of group.rules) {
    if (rule.type !== 'condition') {
      collect(rule as SnapshotGroup, named);
      continue;
    }
    if (typeof rule.value !== 'string') continue;
    if (rule.field === 'cart_item_product_type') named.types.add(normaliseItemText(rule.value));
    if (rule.field === 'cart_item_product_tag') named.tags.add(normaliseItemText(rule.value));
  }
}
