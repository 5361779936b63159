import '@shopify/shopify-api/adapters/node';
import { ApiVersion, LogSeverity, shopifyApi, type Shopify } from '@shopify/shopify-api';
import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
import type { Logger } from './logger';
import { shopifyTransport } from './shopify-transport';

/**
 * The Admin API version the app pins, the one place it is named: every
 * library below is built with it, and shopify.app.toml's `api_version`
 * (webhooks) says the same.
 */
export const SHOPIFY_API_VERSION = ApiVersion.October26;

export type ShopifyLibrary = Shopify;

export interface ShopifyLibraryOptions {
  apiKey: string;
  /** The secret the library signs and verifies with (the gateway builds one library per secret). */
  apiSecret: string;
  /** The app's URL: its host (and http/https) is the library's `hostName` (`hostScheme`). */
  appUrl: string;
  scopes?: string[];
  /** Warnings and errors go here (the message only); without one the library is silent. */
  logger?: Logger;
  /**
   * For services that call Shopify through the library: its HTTP then goes
   * through the kit's transport (to SHOPIFY_API_ORIGIN, the local double,
   * when set), each request with a time limit. Process-wide, as the library
   * has it.
   */
  transport?: { origin?: string | undefined; timeoutMs: number };
}

/** Shopify's library as every Ratesmith service builds it: embedded app, the pinned API version. */
export function shopifyLibrary(options: ShopifyLibraryOptions): ShopifyLibrary {
  if (options.transport) {
    setAbstractFetchFunc(
      shopifyTransport({
        origin: options.transport.origin,
        timeoutMs: options.transport.timeoutMs,
      }) as never,
    );
  }
  const url = new URL(options.appUrl);
  const log = options.logger?.child({ component: 'shopify-api' });
  return shopifyApi({
    apiKey: options.apiKey,
    apiSecretKey: options.apiSecret,
    ...(options.scopes ? { scopes: options.scopes } : {}),
    hostName: url.host,
    hostScheme: url.protocol === 'http:' ? 'http' : 'https',
    apiVersion: SHOPIFY_API_VERSION,
    isEmbeddedApp: true,
    // Only warnings and errors, and only the message: the library's context can hold request details.
    logger: log
      ? {
          level: LogSeverity.Warning,
          httpRequests: false,
          log: async (severity, message) => {
            if (severity <= LogSeverity.Error) log.error(message);
            else log.warn(message);
          },
        }
      : { level: LogSeverity.Error, httpRequests: false, log: async () => undefined },
  });
}
