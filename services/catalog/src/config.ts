import { envMillis, parseEnv, serviceEnvSchema } from '@ratesmith/kit';
import { z } from 'zod';

const schema = serviceEnvSchema
  .extend({
    /** The app's client id. The catalog is not given the app secret: it signs nothing. */
    SHOPIFY_API_KEY: z.string().min(1),
    /** Where Shopify calls go instead of https://<shop> (the local double); unset in production. */
    SHOPIFY_API_ORIGIN: z.url().optional(),
    /** The app's public URL; Shopify's library wants the host name. */
    APP_URL: z.url().default('http://localhost'),
    /** Time limit of one request to Shopify. */
    SHOPIFY_TIMEOUT_MS: envMillis.default(5000),
    /** Retries after throttled replies before the merchant is told to try again. */
    SHOPIFY_THROTTLE_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
    /**
     * Time limit of one catalog request (token, Shopify, waits after throttling,
     * rules). The gateway's CATALOG_REQUEST_TIMEOUT_MS must be longer.
     */
    CATALOG_DEADLINE_MS: envMillis.default(10_000),
  })
  .refine((c) => c.NODE_ENV !== 'production' || !c.SHOPIFY_API_ORIGIN, {
    path: ['SHOPIFY_API_ORIGIN'],
    message: 'cannot be set when NODE_ENV is production',
  });

export type CatalogConfig = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  return parseEnv(schema, env);
}
