import { envBoolean, mongoEnvSchema, parseEnv, serviceEnvSchema } from '@ratesmith/kit';
import { SNAPSHOT_BUCKET } from '@ratesmith/contracts';
import { z } from 'zod';

const schema = serviceEnvSchema.extend(mongoEnvSchema.shape).extend({
  MONGODB_DB: z.string().min(1).default('ratesmith_rules'),
  /** Build indexes at start-up (development); production runs migrate.js as a Helm hook. */
  MONGODB_AUTO_INDEX: envBoolean.optional(),
  SNAPSHOT_BUCKET: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default(SNAPSHOT_BUCKET),
  /** How often snapshots that failed to publish (NATS down) are retried. */
  SNAPSHOT_RETRY_MS: z.coerce.number().int().positive().default(5000),
});

export type RulesConfig = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = parseEnv(schema, env);
  return {
    ...parsed,
    MONGODB_AUTO_INDEX: parsed.MONGODB_AUTO_INDEX ?? parsed.NODE_ENV !== 'production',
  };
}
