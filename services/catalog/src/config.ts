import { envMillis, parseEnv, serviceEnvSchema } from '@ratesmith/kit';

/**
 * The catalog holds no Shopify token and calls no Shopify itself: auth runs
 * its queries (RunAdminQuery), so Shopify's settings (origin, time limit,
 * throttle retries) are auth's.
 */
const schema = serviceEnvSchema.extend({
  /**
   * Time limit of one catalog request (auth's Shopify queries and their waits
   * after throttling, rules). The gateway's CATALOG_REQUEST_TIMEOUT_MS must be longer.
   */
  CATALOG_DEADLINE_MS: envMillis.default(10_000),
});

export type CatalogConfig = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  return parseEnv(schema, env);
}
