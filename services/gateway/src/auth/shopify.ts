import { InvalidHmacError, type JwtPayload } from '@shopify/shopify-api';
import { shopifyLibrary, type ShopifyLibrary } from '@ratesmith/kit/shopify';

type Library = Pick<ShopifyLibrary, 'session' | 'webhooks' | 'utils' | 'auth'>;
type WebhookCheck = Awaited<ReturnType<Library['webhooks']['validate']>>;

/**
 * What the gateway checks with the app secret: session tokens, webhook
 * signatures, the query HMAC of admin links, and the app's admin URL, all
 * through Shopify's library. During a secret rotation Shopify signs with the
 * new secret while requests signed with the old one are still in flight, so
 * a previous secret, when configured, is accepted too (the current one is
 * tried first; the previous one is never used to sign anything).
 */
export interface GatewayShopify {
  readonly libraries: readonly Library[];
}

export function gatewayShopify(options: {
  apiKey: string;
  apiSecret: string;
  previousApiSecret?: string | undefined;
  appUrl: string;
}): GatewayShopify {
  // One library per secret; the gateway makes no Shopify calls, so no transport and no logger.
  const library = (apiSecret: string): Library =>
    shopifyLibrary({ apiKey: options.apiKey, apiSecret, appUrl: options.appUrl });
  const secrets = [options.apiSecret, options.previousApiSecret].filter((s): s is string => !!s);
  return { libraries: secrets.map(library) };
}

/** The session token's payload, checked by the library; throws when no secret verifies it. */
export async function decodeSessionToken(
  shopify: GatewayShopify,
  token: string,
): Promise<JwtPayload> {
  let failure: unknown;
  for (const library of shopify.libraries) {
    try {
      return await library.session.decodeSessionToken(token);
    } catch (err) {
      failure = err;
    }
  }
  throw failure;
}

/** A webhook's headers and body signature, as the library checks them, with each secret. */
export async function validateWebhook(
  shopify: GatewayShopify,
  args: Parameters<Library['webhooks']['validate']>[0],
): Promise<WebhookCheck> {
  let first: WebhookCheck | undefined;
  for (const library of shopify.libraries) {
    const check = await library.webhooks.validate(args);
    if (check.valid) return check;
    first ??= check;
  }
  return first!;
}

/**
 * A signed admin link's query (reinstall link, OAuth callback, app load),
 * checked by the library: hex HMAC over the sorted parameters in constant
 * time, and a timestamp within its 90 s window. False for anything that does
 * not pass, including a missing hmac or timestamp.
 */
export async function adminQuerySigned(
  shopify: GatewayShopify,
  params: Record<string, string>,
): Promise<boolean> {
  for (const library of shopify.libraries) {
    try {
      if (await library.utils.validateHmac(params, { signator: 'admin' })) return true;
    } catch (err) {
      if (!(err instanceof InvalidHmacError)) throw err;
    }
  }
  return false;
}

/** The app inside the shop's admin, built by the library from the signed `host`. */
export function embeddedAppUrl(shopify: GatewayShopify, host: string): string {
  return shopify.libraries[0]!.auth.buildEmbeddedAppUrl(host);
}
