import { SNAPSHOT_BUCKET } from '@ratesmith/contracts';
import { envBoolean, envMillis, envPort, parseEnv, serviceEnvSchema } from '@ratesmith/kit';
import { z } from 'zod';
import { COMPILES_PER_SECOND, HOT_AFTER } from './engine/hot-tier';
import { RECENT_LIMITS } from './outcomes/recent';
import { SHADOW_LIMITS } from './outcomes/shadow';

export const CARRIER_HMAC_MODES = ['verify-present', 'enforce', 'monitor'] as const;
export type CarrierHmacMode = (typeof CARRIER_HMAC_MODES)[number];

const schema = serviceEnvSchema
  .extend({
    /**
     * The carrier-service callback's HTTP port (POST /carrier/rates/<rate key>). Falls
     * back to PORT, which the Helm chart sets for every service with an HTTP port.
     */
    CARRIER_PORT: envPort.optional(),
    PORT: envPort.optional(),
    /** The app secret: Shopify signs carrier callbacks with it (X-Shopify-Hmac-Sha256). */
    SHOPIFY_API_SECRET: z.string().min(1),
    /** During a secret rotation, the old secret: callbacks signed with it still verify. */
    SHOPIFY_API_SECRET_PREVIOUS: z.string().min(1).optional(),
    /**
     * verify-present (default): a signature that is present must verify (401
     * otherwise); an unsigned callback is answered and counted
     * (ratesmith_carrier_signature_total), because Shopify does not document a
     * signature on carrier callbacks. enforce: unsigned ones get 401 too (switch
     * to it once the metric shows every real callback signed). monitor: nothing
     * is refused, only counted; development only.
     */
    CARRIER_HMAC_MODE: z.enum(CARRIER_HMAC_MODES).default('verify-present'),
    /** Lets production run CARRIER_HMAC_MODE=monitor (e.g. while diagnosing); off by default. */
    CARRIER_HMAC_MONITOR_IN_PRODUCTION: envBoolean.default(false),
    /** Callbacks a minute one rate key may make (Shopify's busiest tier is above 3,000); 0: no limit. */
    CARRIER_RATE_LIMIT: z.coerce.number().int().nonnegative().default(6000),
    CARRIER_UNSIGNED_RATE_LIMIT: z.coerce.number().int().nonnegative().default(120),
    /** Largest callback body in bytes. */
    CARRIER_BODY_LIMIT: z.coerce
      .number()
      .int()
      .min(1024)
      .default(256 * 1024),
    /** Most line items a callback may carry. */
    CARRIER_MAX_ITEMS: z.coerce.number().int().positive().default(1000),
    SNAPSHOT_BUCKET: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/)
      .default(SNAPSHOT_BUCKET),
    /** Compiled snapshots kept in memory; the least recently used goes first. */
    SNAPSHOT_CACHE_SIZE: z.coerce.number().int().positive().default(10_000),
    /**
     * Hot tier: shops whose conditions run as generated code (shared by shops
     * whose rules have the same shape); the least recently quoted goes back to
     * the compact program. 0 turns generated code off.
     */
    COMPILED_CACHE_SIZE: z.coerce.number().int().min(0).default(1000),
    /** Quotes of one shop's snapshot within a minute that make it busy enough for generated code. */
    COMPILE_AFTER_QUOTES: z.coerce.number().int().positive().default(HOT_AFTER),
    /** Generated functions a second at most; a busy shop over the budget stays on the program loop. */
    COMPILES_PER_SECOND: z.coerce.number().int().positive().default(COMPILES_PER_SECOND),
    /** Bound on reading a snapshot missing from the cache from the bucket. */
    SNAPSHOT_FETCH_TIMEOUT_MS: envMillis.default(1000),
    /** How often the callbacks' outcomes (rates answered, per-filter counts) are sent to the rules service. */
    OUTCOME_FLUSH_MS: envMillis.default(5000),
    /**
     * Per-filter analytics: false stops counting the filters each callback's quote
     * matched (the rates answered are still counted). An operator's switch, and
     * the A/B of docs/performance.md.
     */
    FILTER_ANALYTICS: envBoolean.default(true),
    /** Recent checkouts: callbacks traced a second over all shops (0: none); a shop's own limit is its setting. */
    RECENT_SAMPLE_PER_SECOND: z.coerce
      .number()
      .int()
      .min(0)
      .max(1000)
      .default(RECENT_LIMITS.perSecond),
    /** Shadow mode: signed callbacks of shops in shadow compared a second over all shops (0: none). */
    SHADOW_SAMPLE_PER_SECOND: z.coerce
      .number()
      .int()
      .min(0)
      .max(1000)
      .default(SHADOW_LIMITS.perSecond),
  })
  .refine(
    (c) =>
      c.NODE_ENV !== 'production' ||
      c.CARRIER_HMAC_MODE !== 'monitor' ||
      c.CARRIER_HMAC_MONITOR_IN_PRODUCTION,
    {
      path: ['CARRIER_HMAC_MODE'],
      message:
        'cannot be monitor in production unless CARRIER_HMAC_MONITOR_IN_PRODUCTION=true is set',
    },
  );

export type RateEngineConfig = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const { PORT, CARRIER_PORT, ...config } = parseEnv(schema, env);
  return { ...config, CARRIER_PORT: CARRIER_PORT ?? PORT ?? 8082 };
}
