import { createHmac } from 'node:crypto';

/**
 * Shopify's query-string HMAC: every parameter but `hmac` and `signature`,
 * keys sorted, `key=value` pairs URL-encoded (spaces as %20) and joined with
 * `&`, HMAC-SHA256 with the app secret, hex.
 */
export function signQuery(params: Record<string, string>, secret: string): string {
  const entries = Object.entries(params)
    .filter(([key]) => key !== 'hmac' && key !== 'signature')
    .sort(([a], [b]) => a.localeCompare(b));
  const message = new URLSearchParams(entries).toString().replace(/\+/g, '%20');
  return createHmac('sha256', secret).update(message).digest('hex');
}

/** Webhooks: base64 HMAC-SHA256 of the raw body with the app secret. */
export function signBody(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('base64');
}

/** The admin `host` parameter: base64 of `admin.shopify.com/store/<name>`, padding stripped. */
export function hostParam(shop: string): string {
  const name = shop.replace(/\.myshopify\.com$/, '');
  return Buffer.from(`admin.shopify.com/store/${name}`).toString('base64').replace(/=+$/, '');
}
