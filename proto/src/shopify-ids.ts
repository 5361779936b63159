/**
 * Shopify's ids as the app receives them: a global id
 * (`gid://shopify/Product/123`) or the bare number (`123`). One parser, with
 * each caller's rules as parameters; pure, so the browser could use it too.
 */
export interface ShopifyIdRules {
  /** The resource a gid must name (`Product`); any resource when unset. */
  resource?: string;
  /**
   * Most digits of the number: 20 (the default) fits every 64-bit id; 16
   * where the id becomes a JavaScript number or travels as one.
   */
  maxDigits?: number;
  /** Whether whitespace around the id is ignored (default: it makes the id invalid). */
  trim?: boolean;
  /** Whether the global id form is taken (default); false where Shopify sends bare numbers only. */
  gid?: boolean;
}

const RESOURCE = /^[A-Za-z]+$/;
const patterns = new Map<string, RegExp>();

/** `^(?:gid://shopify/<resource>/)?(<1 to maxDigits digits>)$`, the number in group 1. */
export function shopifyIdPattern(rules: ShopifyIdRules = {}): RegExp {
  const { resource, maxDigits = 20, gid: takesGid = true } = rules;
  const key = `${takesGid ? (resource ?? '*') : '-'}/${maxDigits}`;
  let pattern = patterns.get(key);
  if (!pattern) {
    if (resource !== undefined && !RESOURCE.test(resource))
      throw new Error(`not a Shopify resource name: ${resource}`);
    if (!Number.isInteger(maxDigits) || maxDigits < 1)
      throw new Error(`maxDigits must be a positive whole number, not ${maxDigits}`);
    const gid = `gid:\\/\\/shopify\\/${resource ?? '[A-Za-z]+'}\\/`;
    const prefix = takesGid ? `(?:${gid})?` : '';
    pattern = new RegExp(`^${prefix}(\\d{1,${maxDigits}})$`);
    patterns.set(key, pattern);
  }
  return pattern;
}

/** "gid://shopify/Product/123" and "123" → "123"; anything the rules refuse → undefined. */
export function shopifyIdDigits(raw: string, rules: ShopifyIdRules = {}): string | undefined {
  return shopifyIdPattern(rules).exec(rules.trim ? raw.trim() : raw)?.[1];
}

/** The global id of a resource's number: ("Product", "123") → "gid://shopify/Product/123". */
export function shopifyGid(resource: string, id: string | number | bigint): string {
  return `gid://shopify/${resource}/${id}`;
}
