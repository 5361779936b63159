import {
  demoEnvSchema,
  demoModeProblems,
  envBoolean,
  envMillis,
  envPort,
  parseEnv,
  serviceEnvSchema,
} from '@ratesmith/kit';
import { z } from 'zod';

const schema = serviceEnvSchema
  // A local demo shop and a dev session stand in for the Shopify admin.
  .extend(demoEnvSchema.shape)
  .extend({
    PORT: envPort.default(8080),
    SHOPIFY_API_KEY: z.string().min(1),
    SHOPIFY_API_SECRET: z.string().min(1),
    /** During a secret rotation, the old secret: still accepted on what Shopify signed with it. */
    SHOPIFY_API_SECRET_PREVIOUS: z.string().min(1).optional(),
    /** The app's public URL (https in production); Shopify and the OAuth flow use it. */
    APP_URL: z.url().optional(),
    /**
     * Largest JSON body of a call that carries a filter list (Save All, a
     * preview of unsaved filters): 100 filters of 50 conditions with long
     * texts measure about 1.25 MB. Every other /api call takes 32 KB.
     */
    API_BODY_LIMIT: z
      .string()
      .regex(/^\d+(kb|mb)$/)
      .default('1536kb'),
    /** Requests a minute one shop may make to /api, per gateway replica; 0 turns the limit off. */
    API_RATE_LIMIT: z.coerce.number().int().nonnegative().default(600),
    /**
     * Save All, version restores, imports and exports one shop may have running at
     * once, per gateway replica (services/gateway/src/http/heavy-calls.ts); 0 turns
     * the limit off.
     */
    HEAVY_CALLS_PER_SHOP: z.coerce.number().int().nonnegative().default(2),
    /**
     * Requests a minute one client address may make to the routes without a
     * session (install, verify, reinstall, OAuth callback, webhooks), per
     * gateway replica; 0 turns the limit off.
     */
    PUBLIC_RATE_LIMIT: z.coerce.number().int().nonnegative().default(300),
    /**
     * Requests the gateway holds at once, per replica; one more is answered
     * 503 with Retry-After at once instead of queueing (load shedding). 0
     * turns the bound off.
     */
    MAX_IN_FLIGHT: z.coerce.number().int().nonnegative().default(100),
    /**
     * Proxies in front of the gateway whose X-Forwarded-For is believed (the
     * ingress: 1). 0 uses the connection's own address.
     */
    TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(5).default(0),
    /** How long a shop's "installed" answer from the auth service is reused. */
    INSTALLED_CACHE_MS: z.coerce.number().int().nonnegative().default(10_000),
    /** Time limit of catalog calls (the product picker); longer than the catalog's CATALOG_DEADLINE_MS. */
    CATALOG_REQUEST_TIMEOUT_MS: envMillis.default(12_000),
    /**
     * Demo mode only: the local Shopify double (tools/shopify-double), whose
     * checkout simulator the admin's "Send a test checkout" calls
     * (POST /api/test-checkout). Refused in production, like the auth service's.
     */
    SHOPIFY_API_ORIGIN: z.url().optional(),
    /** Time limit of a test checkout's call to the double (which gives the carrier callback 10 s). */
    DEMO_CHECKOUT_TIMEOUT_MS: envMillis.default(12_000),
    /** The built admin frontend (index.html and assets), served at /. */
    FRONTEND_DIST: z.string().optional(),
    /**
     * Serve FRONTEND_DIST brotli- or gzip-compressed to clients that accept it
     * (the build precompresses the assets). false: always uncompressed, the
     * baseline of `npm run bench:lighthouse`.
     */
    FRONTEND_COMPRESSION: envBoolean.default(true),
    /**
     * The training video the install page and the Dashboard play (an https
     * address of a video file a <video> element can play, e.g. WebM or MP4);
     * its origin is allowed in the CSP's media-src. Unset or empty: the
     * walkthrough recorded from the browser tests, served from FRONTEND_DIST
     * at /training/ratesmith-walkthrough.webm (`npm run video:record`).
     */
    TRAINING_VIDEO_URL: z
      .union([z.literal(''), z.url({ protocol: /^https$/, message: 'must be an https:// URL' })])
      .optional()
      .transform((url) => url || undefined),
  })
  .superRefine((c, ctx) => {
    for (const problem of demoModeProblems(c)) ctx.addIssue({ code: 'custom', ...problem });
  })
  .refine((c) => c.NODE_ENV !== 'production' || !c.SHOPIFY_API_ORIGIN, {
    path: ['SHOPIFY_API_ORIGIN'],
    message: 'cannot be set when NODE_ENV is production',
  })
  .refine((c) => c.NODE_ENV !== 'production' || c.APP_URL?.startsWith('https://'), {
    path: ['APP_URL'],
    message: 'must be an https:// URL in production',
  });

export type GatewayConfig = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = parseEnv(schema, env);
  return { ...parsed, APP_URL: parsed.APP_URL ?? `http://localhost:${parsed.PORT}` };
}
