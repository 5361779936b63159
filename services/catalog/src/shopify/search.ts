/**
 * The merchant's search box as a Shopify search query: every word must match
 * (implicit AND), the last letters typed may be the start of a word (a
 * trailing `*`), and nothing typed is read as search syntax: the characters
 * Shopify gives a meaning (`: \ ( ) " ' * -`, and AND/OR/NOT) are escaped.
 */
export const MAX_SEARCH_LENGTH = 200;

const SPECIAL = /[\\:()"'*\-<>=!{}[\]^~]/g;
const OPERATORS = new Set(['AND', 'OR', 'NOT']);

export function toShopifyQuery(search: string): string {
  return search
    .trim()
    .slice(0, MAX_SEARCH_LENGTH)
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => {
      const plain = OPERATORS.has(word) ? word.toLowerCase() : word;
      return `${plain.replace(SPECIAL, (ch) => `\\${ch}`)}*`;
    })
    .join(' ');
}
