import type { catalogV1 } from '@ratesmith/contracts';

/** "Hat, Mug and 3 more": names in a message, never a wall of them. */
export function nameList(products: catalogV1.AddedProduct[], max = 5): string {
  const names = products.map((p) => p.title);
  if (names.length <= max) {
    return names.length > 1
      ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
      : names.join('');
  }
  return `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

/** The toast after adding: how many were added, and which were already there. */
export function addedMessage(
  added: catalogV1.AddedProduct[],
  skipped: catalogV1.AddedProduct[],
): string {
  const count = `${added.length} product${added.length === 1 ? '' : 's'} added.`;
  if (!skipped.length) return count;
  return `${count} Already added before, so not added again: ${nameList(skipped)}.`;
}

/** When every selected product already had a rule. */
export function nothingAddedMessage(skipped: catalogV1.AddedProduct[]): string {
  return `Already added: ${nameList(skipped)}. No new product rule was created.`;
}
