import {
  envMillis,
  mongoEnvSchema,
  parseEnv,
  serviceEnvSchema,
  withAutoIndexDefault,
} from '@ratesmith/kit';
import { z } from 'zod';
import { parseEncryptionKeys } from './tokens/encryption';

const schema = serviceEnvSchema
  .extend(mongoEnvSchema.shape)
  .extend({
    MONGODB_DB: z.string().min(1).default('ratesmith_auth'),
    SHOPIFY_API_KEY: z.string().min(1),
    SHOPIFY_API_SECRET: z.string().min(1),
    /** Comma-separated access scopes the app asks for (shopify.app.toml says the same). */
    SHOPIFY_SCOPES: z
      .string()
      .default('read_products,read_shipping,write_shipping')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    /** Where Shopify calls go instead of https://<shop> (the local double); unset in production. */
    SHOPIFY_API_ORIGIN: z.url().optional(),
    /** Time limit of every call to Shopify (each attempt of a catalogue query too). */
    SHOPIFY_TIMEOUT_MS: envMillis.default(10_000),
    /** Retries of a catalogue query after throttled replies before the merchant is told to try again. */
    SHOPIFY_THROTTLE_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
    /** The app's public URL: the OAuth redirect is APP_URL + /auth/callback. */
    APP_URL: z.url(),
    /** Public URL of the rate engine; the carrier service calls <RATE_ENGINE_URL>/carrier/rates/<key>. */
    RATE_ENGINE_URL: z.url(),
    /** `kid:base64key,...` (32-byte AES keys); the first encrypts new tokens, all decrypt. */
    TOKEN_ENCRYPTION_KEYS: z.string().transform((v, ctx) => {
      try {
        return parseEncryptionKeys(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
    /** How long an install's OAuth `state` stays valid. */
    OAUTH_STATE_TTL_MS: envMillis.default(10 * 60_000),
    /** Access tokens expiring sooner than this are refreshed before use. */
    TOKEN_REFRESH_MARGIN_MS: envMillis.default(5 * 60_000),
    /** Every installed shop's carrier service is read from Shopify again this often. */
    CARRIER_CHECK_INTERVAL_MS: envMillis.default(24 * 3600_000),
    /** Admin loads read it at most this often per shop. */
    CARRIER_LOAD_CHECK_INTERVAL_MS: envMillis.default(5 * 60_000),
  })
  .refine((c) => c.NODE_ENV !== 'production' || !c.SHOPIFY_API_ORIGIN, {
    path: ['SHOPIFY_API_ORIGIN'],
    message: 'cannot be set when NODE_ENV is production',
  })
  .refine((c) => c.NODE_ENV !== 'production' || c.APP_URL.startsWith('https://'), {
    path: ['APP_URL'],
    message: 'must be an https:// URL in production',
  });

export type AuthConfig = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  return withAutoIndexDefault(parseEnv(schema, env));
}
