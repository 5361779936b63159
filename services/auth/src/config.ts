import { envBoolean, mongoEnvSchema, parseEnv, serviceEnvSchema } from '@ratesmith/kit';
import { z } from 'zod';

export const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

const schema = serviceEnvSchema
  .extend(mongoEnvSchema.shape)
  .extend({
    MONGODB_DB: z.string().min(1).default('ratesmith_auth'),
    MONGODB_AUTO_INDEX: envBoolean.optional(),
    /** Demo mode seeds DEMO_SHOPS as installed shops; production refuses it. */
    DEMO_MODE: envBoolean.default(false),
    DEMO_SHOPS: z
      .string()
      .default('ratesmith-demo.myshopify.com')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean),
      )
      .refine(
        (shops) => shops.every((s) => SHOP_DOMAIN.test(s)),
        'must be comma-separated *.myshopify.com domains',
      ),
  })
  .refine((c) => !(c.DEMO_MODE && c.NODE_ENV === 'production'), {
    path: ['DEMO_MODE'],
    message: 'cannot be enabled when NODE_ENV is production',
  });

export type AuthConfig = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = parseEnv(schema, env);
  return {
    ...parsed,
    MONGODB_AUTO_INDEX: parsed.MONGODB_AUTO_INDEX ?? parsed.NODE_ENV !== 'production',
  };
}
