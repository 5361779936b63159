import { envMillis, parseEnv, serviceEnvSchema } from '@ratesmith/kit';
import { z } from 'zod';

/** Where Shopify keeps a bulk operation's file (its signed URLs). */
export const PRODUCT_EXPORT_FILE_ORIGIN = 'https://storage.googleapis.com';

/**
 * The catalog holds no Shopify token and calls no Shopify itself: auth runs
 * its queries (RunAdminQuery), so Shopify's settings (origin, time limit,
 * throttle retries) are auth's. It reads one kind of file itself: a bulk
 * export's, from a signed URL of Shopify's storage.
 */
const schema = serviceEnvSchema
  .extend({
    /**
     * Time limit of one catalog request (auth's Shopify queries and their waits
     * after throttling, rules). The gateway's CATALOG_REQUEST_TIMEOUT_MS must be longer.
     */
    CATALOG_DEADLINE_MS: envMillis.default(10_000),
    /**
     * Where a bulk export's file may be read from (comma-separated origins): Shopify's
     * storage; development and tests add the local Shopify double's. In production each
     * must be https.
     */
    PRODUCT_EXPORT_FILE_ORIGINS: z
      .string()
      .default(PRODUCT_EXPORT_FILE_ORIGIN)
      .transform((list, ctx) => {
        const origins: string[] = [];
        for (const item of list
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)) {
          try {
            origins.push(new URL(item).origin);
          } catch {
            ctx.addIssue({ code: 'custom', message: `${item} is not an origin` });
          }
        }
        return origins;
      }),
  })
  .refine(
    (c) =>
      c.NODE_ENV !== 'production' ||
      c.PRODUCT_EXPORT_FILE_ORIGINS.every((o) => o.startsWith('https://')),
    { path: ['PRODUCT_EXPORT_FILE_ORIGINS'], message: 'must be https origins in production' },
  );

export type CatalogConfig = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  return parseEnv(schema, env);
}
