import { z } from 'zod';
import { SHOP_DOMAIN } from './shop-domain';

/**
 * Configuration comes from the environment only, parsed once with zod. A bad
 * or missing variable stops start-up with one line that names every problem.
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const given = issue.path.length ? env[String(issue.path[0])] : undefined;
    return given === undefined && issue.code === 'invalid_type'
      ? `${name} is required`
      : `${name} ${issue.message}`;
  });
  throw new ConfigError(problems);
}

/** "true"/"1"/"yes" and "false"/"0"/"no"/"" as booleans; anything else is an error. */
export const envBoolean = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ['true', '1', 'yes', 'false', '0', 'no', ''].includes(v), {
    message: 'must be true or false',
  })
  .transform((v) => ['true', '1', 'yes'].includes(v));

export const envPort = z.coerce.number().int().min(0).max(65535);

export const envMillis = z.coerce.number().int().positive();

/** Variables every service reads. */
export const serviceEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NATS_URL: z.string().min(1),
  NATS_REQUEST_TIMEOUT_MS: envMillis.default(2000),
  /** Lets environments share a NATS server; empty in a normal deployment. */
  NATS_SUBJECT_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_-]+\.)*$/, 'must be dot-terminated tokens like "staging."')
    .default(''),
  /** The service's NATS user (an nkey seed, `SU...`); unset where NATS asks for no login. */
  NATS_NKEY_SEED: z
    .string()
    .regex(/^\s*SU[A-Z2-7]{56}\s*$/, 'must be a NATS user nkey seed (SU...)')
    .optional(),
  /** A PEM file of the CA of the NATS servers' certificates; when set, TLS is required. */
  NATS_TLS_CA_FILE: z.string().min(1).optional(),
  /** Copies of the snapshot bucket and the events stream: 3 on a 3-node NATS cluster. */
  JETSTREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  HEALTH_PORT: envPort.default(9090),
  SHUTDOWN_TIMEOUT_MS: envMillis.default(10_000),
  /** How long an HTTP listener stays open after SIGTERM for requests already sent (at most; it closes once quiet). */
  SHUTDOWN_DRAIN_MS: envMillis.default(2000),
});
export type ServiceEnv = z.output<typeof serviceEnvSchema>;

export const mongoEnvSchema = z.object({
  MONGODB_URI: z.string().regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// URI'),
  MONGODB_TIMEOUT_MS: envMillis.default(3000),
  /** Build indexes at start-up; default on outside production, where migrate.js runs as a Helm hook. */
  MONGODB_AUTO_INDEX: envBoolean.optional(),
});

/** Resolves MONGODB_AUTO_INDEX's default, which depends on NODE_ENV. */
export function withAutoIndexDefault<
  T extends { NODE_ENV: string; MONGODB_AUTO_INDEX?: boolean | undefined },
>(config: T): T & { MONGODB_AUTO_INDEX: boolean } {
  return {
    ...config,
    MONGODB_AUTO_INDEX: config.MONGODB_AUTO_INDEX ?? config.NODE_ENV !== 'production',
  };
}

/** Demo mode: local demo shops stand in for Shopify. Refused in production and off loopback (see demoModeRefinements). */
export const demoEnvSchema = z.object({
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
});

/**
 * Demo mode hands out session tokens signed with the app secret to anyone
 * who asks, so it runs only with these well-known demo credentials (a
 * token made for them is worth nothing to a real app) and only on loopback.
 */
export const DEMO_API_KEY = 'ratesmith-demo-key';
export const DEMO_API_SECRET = 'ratesmith-demo-secret-not-for-production';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a URL's host is this machine's loopback interface. */
export function isLoopbackUrl(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const host = new URL(url).hostname;
    return LOOPBACK_HOSTS.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

type DemoChecked = {
  DEMO_MODE: boolean;
  NODE_ENV: string;
  SHOPIFY_API_KEY: string;
  SHOPIFY_API_SECRET: string;
  APP_URL?: string | undefined;
};

/** What is wrong with a configuration's demo mode, each naming its variable; empty when nothing is. */
export function demoModeProblems(c: DemoChecked): { path: string[]; message: string }[] {
  if (!c.DEMO_MODE) return [];
  const problems: { path: string[]; message: string }[] = [];
  if (c.NODE_ENV === 'production')
    problems.push({
      path: ['DEMO_MODE'],
      message: 'cannot be enabled when NODE_ENV is production',
    });
  if (c.SHOPIFY_API_SECRET !== DEMO_API_SECRET)
    problems.push({
      path: ['SHOPIFY_API_SECRET'],
      message: 'must be the demo secret when DEMO_MODE is on (demo mode signs tokens with it)',
    });
  if (c.SHOPIFY_API_KEY !== DEMO_API_KEY)
    problems.push({
      path: ['SHOPIFY_API_KEY'],
      message: 'must be the demo key when DEMO_MODE is on',
    });
  if (c.APP_URL !== undefined && !isLoopbackUrl(c.APP_URL))
    problems.push({
      path: ['APP_URL'],
      message: 'must be a loopback URL (localhost) when DEMO_MODE is on',
    });
  return problems;
}
