import {
  envMillis,
  mongoEnvSchema,
  parseEnv,
  serviceEnvSchema,
  withAutoIndexDefault,
} from '@ratesmith/kit';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { z } from 'zod';
import { parseEncryptionKeys } from './tokens/encryption';

/** Addresses Shopify's checkout can never reach: the carrier callback must not name one. */
const UNREACHABLE: [string, number, 'ipv4' | 'ipv6', string][] = [
  ['0.0.0.0', 8, 'ipv4', 'an unspecified'],
  ['127.0.0.0', 8, 'ipv4', 'a loopback'],
  ['10.0.0.0', 8, 'ipv4', 'a private'],
  ['172.16.0.0', 12, 'ipv4', 'a private'],
  ['192.168.0.0', 16, 'ipv4', 'a private'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local'],
  ['::', 128, 'ipv6', 'an unspecified'],
  ['::1', 128, 'ipv6', 'a loopback'],
  ['fe80::', 10, 'ipv6', 'a link-local'],
  ['fc00::', 7, 'ipv6', 'a unique-local'],
];
const unreachable = UNREACHABLE.map(([net, prefix, type, kind]) => {
  const list = new BlockList();
  list.addSubnet(net, prefix, type);
  return { list, type, kind };
});

/**
 * Why Shopify could not call this URL, or undefined when it can: production's
 * RATE_ENGINE_URL must be https on a public host (not localhost, and no
 * loopback, private, link-local or unique-local IP literal, IPv4-mapped IPv6
 * included). Host names are not resolved: this catches configuration slips.
 */
export function carrierUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be a URL';
  }
  if (parsed.protocol !== 'https:') return 'must be an https:// URL in production';
  // The URL parser has already normalised IPv4 forms (0x7f.1, 2130706433) to dotted quads.
  const host = parsed.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost'))
    return `must be a public address in production (Shopify's checkout calls it), not ${host}`;
  let address = host;
  let type: 'ipv4' | 'ipv6' | undefined = isIPv4(host) ? 'ipv4' : isIPv6(host) ? 'ipv6' : undefined;
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const n = (parseInt(mapped[1]!, 16) << 16) | parseInt(mapped[2]!, 16);
    address = [24, 16, 8, 0].map((shift) => (n >>> shift) & 255).join('.');
    type = 'ipv4';
  }
  if (!type) return undefined;
  const hit = unreachable.find((r) => r.type === type && r.list.check(address, type));
  return hit
    ? `must be a public address in production (Shopify's checkout calls it); ${host} is ${hit.kind} address`
    : undefined;
}

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
  })
  .superRefine((c, ctx) => {
    const problem = c.NODE_ENV === 'production' ? carrierUrlProblem(c.RATE_ENGINE_URL) : undefined;
    if (problem) ctx.addIssue({ code: 'custom', path: ['RATE_ENGINE_URL'], message: problem });
  });

export type AuthConfig = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  return withAutoIndexDefault(parseEnv(schema, env));
}
