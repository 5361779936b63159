import '@shopify/shopify-api/adapters/node';
import { ApiVersion, LogSeverity, shopifyApi, type Shopify } from '@shopify/shopify-api';
import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
import { shopifyTransport, type Logger } from '@ratesmith/kit';

/** The Admin API version every call uses; shopify.app.toml's webhooks use the same. */
export const SHOPIFY_API_VERSION = ApiVersion.October26;

export type ShopifyApi = Shopify;

/**
 * Shopify's library, configured from the environment. Its HTTP goes through
 * the kit's transport: to the real shops, or to SHOPIFY_API_ORIGIN (the local
 * double) when that is set; every call has a time limit either way.
 */
export function createShopify(options: {
  apiKey: string;
  apiSecret: string;
  scopes: string[];
  appUrl: string;
  apiOrigin?: string | undefined;
  timeoutMs: number;
  logger: Logger;
}): ShopifyApi {
  setAbstractFetchFunc(
    shopifyTransport({ origin: options.apiOrigin, timeoutMs: options.timeoutMs }) as never,
  );
  const url = new URL(options.appUrl);
  const log = options.logger.child({ component: 'shopify-api' });
  return shopifyApi({
    apiKey: options.apiKey,
    apiSecretKey: options.apiSecret,
    scopes: options.scopes,
    hostName: url.host,
    hostScheme: url.protocol === 'http:' ? 'http' : 'https',
    apiVersion: SHOPIFY_API_VERSION,
    isEmbeddedApp: true,
    // Only warnings and errors, and only the message: the library's context can hold request details.
    logger: {
      level: LogSeverity.Warning,
      httpRequests: false,
      log: async (severity, message) => {
        if (severity <= LogSeverity.Error) log.error(message);
        else log.warn(message);
      },
    },
  });
}
