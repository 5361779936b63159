import {
  demoEnvSchema,
  demoModeRefinement,
  mongoEnvSchema,
  parseEnv,
  serviceEnvSchema,
  withAutoIndexDefault,
} from '@ratesmith/kit';
import { z } from 'zod';

const schema = serviceEnvSchema
  .extend(mongoEnvSchema.shape)
  // Demo mode seeds DEMO_SHOPS as installed shops.
  .extend(demoEnvSchema.shape)
  .extend({ MONGODB_DB: z.string().min(1).default('ratesmith_auth') })
  .refine(...demoModeRefinement);

export type AuthConfig = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  return withAutoIndexDefault(parseEnv(schema, env));
}
