/**
 * The topics Ratesmith subscribes to (shopify.app.toml); any other topic is
 * refused, whatever its signature.
 */
export const WEBHOOK_TOPICS = [
  'app/uninstalled',
  'shop/redact',
  'customers/data_request',
  'customers/redact',
] as const;
export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number];

export function isWebhookTopic(topic: string): topic is WebhookTopic {
  return (WEBHOOK_TOPICS as readonly string[]).includes(topic);
}

/**
 * The shop a webhook's body names. The app secret also signs session tokens
 * and admin links, so a valid HMAC proves only that the bytes came from
 * Shopify for *some* purpose; the body must be a webhook payload naming the
 * same shop as the unsigned X-Shopify-Shop-Domain header. app/uninstalled
 * carries the shop resource, whose `myshopify_domain` is the permanent domain
 * (its `domain` may be a custom one, so it is not used); the compliance
 * topics carry `shop_domain`.
 * Answers undefined when the body is not such a payload.
 */
export function shopNamedByPayload(topic: WebhookTopic, rawBody: string): string | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    return undefined;
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
  const fields = payload as Record<string, unknown>;
  const named = topic === 'app/uninstalled' ? fields.myshopify_domain : fields.shop_domain;
  return typeof named === 'string' ? named.toLowerCase() : undefined;
}
