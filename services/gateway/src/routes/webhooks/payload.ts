/**
 * The topics Ratesmith subscribes to (shopify.app.toml); any other topic is
 * refused, whatever its signature.
 */
export const WEBHOOK_TOPICS = [
  'app/uninstalled',
  'app/scopes_update',
  'shop/redact',
  'customers/data_request',
  'customers/redact',
  'products/create',
  'products/update',
  'products/delete',
] as const;
export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number];

/** The product topics: the catalog reads the product again (see productIdOf). */
export const PRODUCT_TOPICS = ['products/create', 'products/update', 'products/delete'] as const;

export function isProductTopic(topic: WebhookTopic): topic is (typeof PRODUCT_TOPICS)[number] {
  return (PRODUCT_TOPICS as readonly string[]).includes(topic);
}

export function isWebhookTopic(topic: string): topic is WebhookTopic {
  return (WEBHOOK_TOPICS as readonly string[]).includes(topic);
}

/**
 * Whether a webhook's body is that topic's payload for the header's shop.
 * The app secret also signs session tokens and admin links, so a valid HMAC
 * proves only that the bytes came from Shopify for *some* purpose; the body
 * must be a webhook payload naming the same shop as the unsigned
 * X-Shopify-Shop-Domain header. app/uninstalled carries the shop resource,
 * whose `myshopify_domain` is the permanent domain (its `domain` may be a
 * custom one, so it is not used); the compliance topics carry `shop_domain`.
 * app/scopes_update names no shop: it must be its own shape (`current`, a
 * list of scopes), and its handler only asks for a new token on the next
 * admin load, which a misdirected one cannot turn into harm. The product
 * topics name no shop either: their body must be a product (a numeric `id`),
 * and only that id is used, to read the product again from the header shop's
 * own store, so a body replayed under another shop's name finds no product
 * there and changes nothing of it.
 */
export function payloadFits(topic: WebhookTopic, rawBody: string, shop: string): boolean {
  const fields = objectOf(rawBody);
  if (!fields) return false;
  if (isProductTopic(topic)) return productIdOf(fields) !== undefined;
  if (topic === 'app/scopes_update')
    return Array.isArray(fields.current) && fields.current.every((s) => typeof s === 'string');
  const named = topic === 'app/uninstalled' ? fields.myshopify_domain : fields.shop_domain;
  return typeof named === 'string' && named.toLowerCase() === shop;
}

function objectOf(rawBody: string): Record<string, unknown> | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    return undefined;
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
  return payload as Record<string, unknown>;
}

/** A product payload's id as decimal text; undefined when it has none (Shopify's is a number). */
export function productIdOf(payload: Record<string, unknown> | string): string | undefined {
  const fields = typeof payload === 'string' ? objectOf(payload) : payload;
  const id = fields?.id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? String(id) : undefined;
}

/** Shopify's webhook ids are UUIDs; a longer one is no delivery of Shopify's. */
const WEBHOOK_ID_MAX = 64;

/**
 * Shopify retries a failed delivery for at most 48 hours, keeping its
 * X-Shopify-Triggered-At: a delivery older than that is a replay.
 */
const WEBHOOK_MAX_AGE_MS = 48 * 60 * 60 * 1000;

/** Why a verified delivery's headers are refused, or undefined when they are fine. */
export function deliveryProblem(
  webhookId: string,
  triggeredAt: string | undefined,
  now = Date.now(),
): string | undefined {
  if (webhookId.length > WEBHOOK_ID_MAX) return 'webhook id too long';
  if (triggeredAt === undefined) return undefined;
  const at = Date.parse(triggeredAt);
  if (Number.isNaN(at)) return 'triggered-at not a date';
  if (now - at > WEBHOOK_MAX_AGE_MS) return 'delivery older than 48 hours';
  return undefined;
}
