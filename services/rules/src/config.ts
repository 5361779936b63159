import { mongoEnvSchema, parseEnv, serviceEnvSchema, withAutoIndexDefault } from '@ratesmith/kit';
import { SNAPSHOT_BUCKET } from '@ratesmith/contracts';
import { z } from 'zod';

const schema = serviceEnvSchema.extend(mongoEnvSchema.shape).extend({
  MONGODB_DB: z.string().min(1).default('ratesmith_rules'),
  SNAPSHOT_BUCKET: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default(SNAPSHOT_BUCKET),
  /** How often snapshots that failed to publish (NATS down) are retried. */
  SNAPSHOT_RETRY_MS: z.coerce.number().int().positive().default(5000),
  /** How long a shop keeps no new version before its versions past the kept 50 are deleted. */
  VERSION_PRUNE_QUIET_MS: z.coerce.number().int().positive().default(2000),
  /** A shop's Save Alls, restores, imports and exports running at once in this replica. */
  HEAVY_CALLS_PER_SHOP: z.coerce.number().int().positive().default(2),
});

export type RulesConfig = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  return withAutoIndexDefault(parseEnv(schema, env));
}
