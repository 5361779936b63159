import '@shopify/shopify-api/adapters/node';
import { ApiVersion, InvalidHmacError, shopifyApi, type Shopify } from '@shopify/shopify-api';

/** What the gateway checks with the app secret; it calls no Shopify API. */
export type GatewayShopify = Pick<Shopify, 'session' | 'webhooks' | 'utils' | 'auth'>;

/**
 * The gateway's one instance of Shopify's library: session tokens, webhook
 * signatures, the query HMAC of admin links and the admin URL of the app
 * all go through it.
 */
export function gatewayShopify(options: {
  apiKey: string;
  apiSecret: string;
  appUrl: string;
}): GatewayShopify {
  const url = new URL(options.appUrl);
  return shopifyApi({
    apiKey: options.apiKey,
    apiSecretKey: options.apiSecret,
    hostName: url.host,
    hostScheme: url.protocol === 'http:' ? 'http' : 'https',
    apiVersion: ApiVersion.October26,
    isEmbeddedApp: true,
    logger: { level: 0, log: async () => undefined },
  });
}

/**
 * A signed admin link's query (reinstall link, OAuth callback), checked by
 * the library: hex HMAC over the sorted parameters in constant time, and a
 * timestamp within its 90 s window. False for anything that does not pass,
 * including a missing hmac or timestamp.
 */
export async function adminQuerySigned(
  shopify: GatewayShopify,
  params: Record<string, string>,
): Promise<boolean> {
  try {
    return await shopify.utils.validateHmac(params, { signator: 'admin' });
  } catch (err) {
    if (err instanceof InvalidHmacError) return false;
    throw err;
  }
}
