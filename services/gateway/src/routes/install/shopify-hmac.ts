import { createHmac, timingSafeEqual } from 'node:crypto';

/** How old a signed admin link (reinstall, OAuth callback) may be; Shopify's library allows 90 s. */
export const SIGNED_LINK_MAX_AGE_SECONDS = 300;
const FUTURE_SKEW_SECONDS = 60;

/**
 * Shopify's query HMAC (install, reinstall and OAuth callback links): every
 * parameter but `hmac` and `signature`, sorted by key, URL-encoded with
 * spaces as %20, joined with `&`, HMAC-SHA256 with the app secret in hex.
 * Compared in constant time; a timestamp older than the limit (or from the
 * future) fails too.
 */
export function verifyShopifyQuery(
  params: Record<string, string>,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const given = params.hmac ?? '';
  const timestamp = Number(params.timestamp);
  if (!/^[0-9a-f]{64}$/i.test(given) || !Number.isInteger(timestamp)) return false;
  if (timestamp < nowSeconds - SIGNED_LINK_MAX_AGE_SECONDS) return false;
  if (timestamp > nowSeconds + FUTURE_SKEW_SECONDS) return false;
  const message = new URLSearchParams(
    Object.entries(params)
      .filter(([key]) => key !== 'hmac' && key !== 'signature')
      .sort(([a], [b]) => a.localeCompare(b)),
  )
    .toString()
    .replace(/\+/g, '%20');
  const expected = createHmac('sha256', secret).update(message).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}
