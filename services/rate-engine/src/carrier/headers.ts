/**
 * The three request headers the carrier callback reads, taken from
 * `req.rawHeaders` in one pass. Reading `req.headers` instead makes node:http
 * build an object of every header on each request, which the profile of the
 * callback showed as a few percent of its time (docs/performance.md).
 *
 * Same values as `req.headers` would give: names match in any case; a
 * repeated signature or shop header is joined with ", " (so "<sig>, <sig>"
 * never verifies); node:http's parser refuses a repeated Content-Length
 * before the handler runs, and the first one is taken here in any case.
 */
export interface CarrierHeaders {
  /** X-Shopify-Hmac-Sha256, or undefined when absent. */
  hmac: string | undefined;
  /** X-Shopify-Shop-Domain, or undefined when absent. */
  shopDomain: string | undefined;
  /** Content-Length, or undefined when absent. */
  contentLength: string | undefined;
}

const HMAC = 'x-shopify-hmac-sha256';
const SHOP = 'x-shopify-shop-domain';
const LENGTH = 'content-length';

const joined = (previous: string | undefined, value: string) =>
  previous === undefined ? value : `${previous}, ${value}`;

export function carrierHeaders(raw: readonly string[]): CarrierHeaders {
  const found: CarrierHeaders = {
    hmac: undefined,
    shopDomain: undefined,
    contentLength: undefined,
  };
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    // Lengths first: most headers are skipped without lower-casing them.
    if (name.length === HMAC.length && name.toLowerCase() === HMAC)
      found.hmac = joined(found.hmac, raw[i + 1]!);
    else if (name.length === SHOP.length && name.toLowerCase() === SHOP)
      found.shopDomain = joined(found.shopDomain, raw[i + 1]!);
    else if (
      name.length === LENGTH.length &&
      found.contentLength === undefined &&
      name.toLowerCase() === LENGTH
    )
      found.contentLength = raw[i + 1]!;
  }
  return found;
}
