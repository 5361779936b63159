import { createHmac, randomUUID } from 'node:crypto';
import type { JwtPayload } from '@shopify/shopify-api';
import { SHOP_DOMAIN } from '@ratesmith/kit';
import { decodeSessionToken, type GatewayShopify } from './shopify';

/**
 * App Bridge session tokens (ID tokens): HS256 JWTs signed with the app
 * secret. Shopify's own library checks the signature, the algorithm, exp and
 * nbf (10 s skew) and the audience; this adds what the library leaves to the
 * app: every claim present, `dest` a shop domain, `iss` the same shop's admin.
 */
export class SessionTokenVerifier {
  private readonly decode: (token: string) => Promise<JwtPayload>;

  constructor(shopify: GatewayShopify) {
    this.decode = (token) => decodeSessionToken(shopify, token);
  }

  /**
   * The shop the token was issued for and the staff user it names (`sub`, kept
   * with each saved version), or undefined when the token is not valid.
   */
  async sessionOf(token: string): Promise<{ shop: string; user: string } | undefined> {
    let payload: JwtPayload;
    try {
      payload = await this.decode(token);
    } catch {
      return undefined;
    }
    const required = ['iss', 'dest', 'aud', 'sub', 'exp', 'nbf', 'iat', 'jti', 'sid'] as const;
    if (required.some((claim) => payload[claim] === undefined || payload[claim] === ''))
      return undefined;
    const shop = hostOf(payload.dest);
    if (!shop || !SHOP_DOMAIN.test(shop) || payload.dest !== `https://${shop}`) return undefined;
    if (payload.iss !== `https://${shop}/admin`) return undefined;
    return { shop, user: String(payload.sub) };
  }
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

const base64url = (input: string | Buffer) => Buffer.from(input).toString('base64url');

/**
 * Signs a token shaped like the admin's. Used by demo mode's token endpoint
 * (never mounted in production) and by tests.
 */
export function mintSessionToken(options: {
  shop: string;
  apiKey: string;
  apiSecret: string;
  lifetimeSeconds?: number;
  overrides?: Record<string, unknown>;
  header?: Record<string, unknown>;
}): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss: `https://${options.shop}/admin`,
    dest: `https://${options.shop}`,
    aud: options.apiKey,
    sub: '1',
    exp: now + (options.lifetimeSeconds ?? 60),
    nbf: now,
    iat: now,
    jti: randomUUID(),
    sid: randomUUID(),
    ...options.overrides,
  };
  const header = options.header ?? { alg: 'HS256', typ: 'JWT' };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  const signature = createHmac('sha256', options.apiSecret).update(unsigned).digest('base64url');
  return `${unsigned}.${signature}`;
}
