/**
 * Page cursors handed to the picker wrap Shopify's cursor together with the
 * search it was made for. A cursor of another search is dropped, so a new
 * search always starts at page 1 even if the client sends an old cursor.
 */
export function wrapCursor(searchKey: string, shopifyCursor: string): string {
  return Buffer.from(JSON.stringify({ s: searchKey, c: shopifyCursor })).toString('base64url');
}

export type UnwrappedCursor =
  | { kind: 'none' }
  | { kind: 'cursor'; shopifyCursor: string }
  | { kind: 'other-search' }
  | { kind: 'invalid' };

export function unwrapCursor(searchKey: string, cursor: string): UnwrappedCursor {
  if (!cursor) return { kind: 'none' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return { kind: 'invalid' };
  }
  const { s, c } = (parsed ?? {}) as { s?: unknown; c?: unknown };
  if (typeof s !== 'string' || typeof c !== 'string' || !c) return { kind: 'invalid' };
  return s === searchKey ? { kind: 'cursor', shopifyCursor: c } : { kind: 'other-search' };
}
