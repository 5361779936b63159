import { SNAPSHOT_BUCKET } from '@ratesmith/contracts';
import { envMillis, envPort, parseEnv, serviceEnvSchema } from '@ratesmith/kit';
import { z } from 'zod';

const schema = serviceEnvSchema.extend({
  /**
   * The carrier-service callback's HTTP port (POST /carrier/rates/<rate key>). Falls
   * back to PORT, which the Helm chart sets for every service with an HTTP port.
   */
  CARRIER_PORT: envPort.optional(),
  PORT: envPort.optional(),
  /** The app secret: Shopify signs carrier callbacks with it (X-Shopify-Hmac-Sha256). */
  SHOPIFY_API_SECRET: z.string().min(1),
  /**
   * enforce: unsigned or badly signed callbacks get 401. monitor: they are
   * answered and only counted (ratesmith_carrier_signature_total).
   */
  CARRIER_HMAC_MODE: z.enum(['enforce', 'monitor']).default('enforce'),
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
  /** Bound on reading a snapshot missing from the cache from the bucket. */
  SNAPSHOT_FETCH_TIMEOUT_MS: envMillis.default(1000),
});

export type RateEngineConfig = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const { PORT, CARRIER_PORT, ...config } = parseEnv(schema, env);
  return { ...config, CARRIER_PORT: CARRIER_PORT ?? PORT ?? 8082 };
}
