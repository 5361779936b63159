import '@shopify/shopify-api/adapters/node';
import { ApiVersion, shopifyApi, type Shopify } from '@shopify/shopify-api';

/**
 * The gateway's one instance of Shopify's library, for what it checks with the
 * app secret: session tokens and webhook signatures. It calls no Shopify API.
 */
export function gatewayShopify(options: {
  apiKey: string;
  apiSecret: string;
  appUrl: string;
}): Pick<Shopify, 'session' | 'webhooks'> {
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
