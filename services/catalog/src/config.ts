import { envMillis, parseEnv, serviceEnvSchema } from '@ratesmith/kit';
import { z } from 'zod';

/**
 * The catalog holds no Shopify token and calls no Shopify itself: auth runs
 * its queries (RunAdminQuery), so Shopify's settings (origin, time limit,
 * throttle retries) are auth's.
 */
const schema = serviceEnvSchema
  .extend({
    /**
     * Time limit of one catalog request (auth's Shopify queries and their waits
     * after throttling, rules). The gateway's CATALOG_REQUEST_TIMEOUT_MS must be longer.
     */
    CATALOG_DEADLINE_MS: envMillis.default(10_000),
    /**
     * The local Shopify double's origin (development and tests): its bulk export files are
     * read from there too. Never set in production, where the files come only from
     * Shopify's storage (PRODUCT_EXPORT_FILE_ORIGIN).
     */
    SHOPIFY_API_ORIGIN: z.url().optional(),
  })
  .refine((c) => c.NODE_ENV !== 'production' || !c.SHOPIFY_API_ORIGIN, {
    path: ['SHOPIFY_API_ORIGIN'],
    message: 'must not be set in production',
  });

/** Where Shopify keeps a bulk operation's file (its signed URLs). */
export const PRODUCT_EXPORT_FILE_ORIGIN = 'https://storage.googleapis.com';

/** The origins a bulk export's file may be read from. */
export function exportFileOrigins(config: Pick<CatalogConfig, 'SHOPIFY_API_ORIGIN'>): string[] {
  return [
    PRODUCT_EXPORT_FILE_ORIGIN,
    ...(config.SHOPIFY_API_ORIGIN ? [new URL(config.SHOPIFY_API_ORIGIN).origin] : []),
  ];
}

export type CatalogConfig = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  return parseEnv(schema, env);
}
