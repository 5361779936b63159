import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostParam, signQuery } from './hmac';
import { escapeHtml, parseParams, readBody, redirect, sendHtml, sendJson } from './http';

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
const OFFLINE_TOKEN_TYPE = 'urn:shopify:params:oauth:token-type:offline-access-token';
const CODE_TTL_MS = 60_000;
const REFRESH_TTL_SECONDS = 90 * 24 * 3600;

interface Grant {
  shop: string;
  scope: string;
  /** Epoch ms; null for a non-expiring token. */
  expiresAt: number | null;
}

export interface OAuthOptions {
  apiKey: string;
  apiSecret: string;
  /** Lifetime of expiring offline access tokens (Shopify: 3600 s). */
  accessTokenTtlSeconds: number;
  /** Scopes granted by token exchange (managed install), comma-separated. */
  defaultScope: string;
}

/** Counts of what the app asked for; tests assert on them. */
export interface OAuthStats {
  authorizations: number;
  codeExchanges: number;
  tokenExchanges: number;
  refreshes: number;
}

/**
 * Shopify's OAuth endpoints for every shop: the authorize page (approved at
 * once unless a test says otherwise), the token endpoint for the code grant,
 * token exchange and refresh, and the access-token check GraphQL uses.
 */
export class OAuthDouble {
  private readonly codes = new Map<string, Grant>();
  private readonly accessTokens = new Map<string, Grant>();
  private readonly refreshTokens = new Map<string, Grant>();
  private readonly spentRefreshTokens = new Set<string>();
  private readonly revokedAt = new Map<string, number>();
  private readonly installedShops = new Set<string>();
  /** Uninstalled shops: no session tokens are exchanged until the merchant authorizes again. */
  private readonly uninstalledShops = new Set<string>();
  private approve: (shop: string) => boolean = () => true;
  private installFlow: 'managed' | 'legacy' = 'managed';
  private tokenFailure: { status: number; remaining: number } | undefined;
  private clientSecret: string;
  readonly stats: OAuthStats = {
    authorizations: 0,
    codeExchanges: 0,
    tokenExchanges: 0,
    refreshes: 0,
  };

  constructor(private readonly options: OAuthOptions) {
    this.clientSecret = options.apiSecret;
  }

  /** Which shops approve the app: the authorize page and token exchange (default: every shop). */
  setApproval(approve: (shop: string) => boolean): void {
    this.approve = approve;
  }

  /**
   * `managed` (the app's configuration, `use_legacy_install_flow = false`):
   * Shopify grants the scopes when the merchant installs, so token exchange
   * works for every approving shop. `legacy`: no grant exists before the
   * authorization-code flow, so token exchange is refused until a code
   * exchange installed the shop.
   */
  setInstallFlow(flow: 'managed' | 'legacy'): void {
    this.installFlow = flow;
  }

  /** The next `count` token requests answer `status` (e.g. 503: Shopify is down). */
  failTokenRequests(status: number, count = 1): void {
    this.tokenFailure = { status, remaining: count };
  }

  isInstalled(shop: string): boolean {
    return this.installedShops.has(shop);
  }

  /**
   * The partner rotates the app's client secret: token requests signed with
   * any other secret get invalid_client (tests that a replica still holding
   * the old one does not give up on its shops).
   */
  rotateClientSecret(secret: string): void {
    this.clientSecret = secret;
  }

  /** Makes every access token of the shop expired, so the app must refresh. */
  expireAccessTokens(shop: string): void {
    for (const grant of this.accessTokens.values())
      if (grant.shop === shop && grant.expiresAt !== null) grant.expiresAt = Date.now() - 1000;
  }

  /** The merchant uninstalled the app: every token of the shop stops working. */
  revoke(shop: string): void {
    this.installedShops.delete(shop);
    this.uninstalledShops.add(shop);
    this.revokedAt.set(shop, Date.now());
    for (const map of [this.accessTokens, this.refreshTokens, this.codes])
      for (const [token, grant] of map) if (grant.shop === shop) map.delete(token);
  }

  /** The merchant installs from the admin (Shopify-managed install): token exchange works again. */
  managedInstall(shop: string): void {
    this.uninstalledShops.delete(shop);
  }

  /** The shop a valid access token belongs to, or undefined. */
  shopOfAccessToken(token: string): string | undefined {
    return this.grantOfAccessToken(token)?.shop;
  }

  /** A valid access token's shop and granted scopes (comma-separated, as Shopify grants them). */
  grantOfAccessToken(token: string): { shop: string; scope: string } | undefined {
    const grant = this.accessTokens.get(token) ?? this.fromSignedToken(token, 'shpat_');
    if (!grant || (grant.expiresAt !== null && grant.expiresAt <= Date.now())) return undefined;
    if (this.uninstalledShops.has(grant.shop)) return undefined;
    return { shop: grant.shop, scope: grant.scope };
  }

  /**
   * Tokens carry their grant, signed with the app secret, so a restarted
   * double (npm start keeps the app's data, not the double's) still accepts
   * the tokens the app stored. Tokens of this run are also kept in memory,
   * where tests can expire or revoke them.
   */
  private signedToken(prefix: string, grant: Grant): string {
    const body = Buffer.from(
      JSON.stringify({
        s: grant.shop,
        c: grant.scope,
        e: grant.expiresAt,
        i: Date.now(),
        n: randomBytes(8).toString('hex'),
      }),
    ).toString('base64url');
    const sig = createHmac('sha256', this.options.apiSecret)
      .update(`${prefix}${body}`)
      .digest('base64url');
    return `${prefix}${body}.${sig}`;
  }

  private fromSignedToken(token: string, prefix: string): Grant | undefined {
    if (!token.startsWith(prefix)) return undefined;
    const [body, sig] = token.slice(prefix.length).split('.');
    if (!body || !sig) return undefined;
    const expected = createHmac('sha256', this.options.apiSecret)
      .update(`${prefix}${body}`)
      .digest();
    const given = Buffer.from(sig, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as {
      s: string;
      c: string;
      e: number | null;
      i: number;
    };
    // Tokens issued before the shop uninstalled stay dead after a reinstall.
    if (claims.i <= (this.revokedAt.get(claims.s) ?? 0)) return undefined;
    return { shop: claims.s, scope: claims.c, expiresAt: claims.e };
  }

  /** The access tokens issued for a shop (tests compare them with what the app stored). */
  accessTokensOf(shop: string): string[] {
    return [...this.accessTokens].filter(([, g]) => g.shop === shop).map(([token]) => token);
  }

  /** GET /admin/oauth/authorize: the merchant approves at once (or is refused). */
  authorize(shop: string, url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri') ?? '';
    if (q.get('client_id') !== this.options.apiKey) {
      sendHtml(res, 400, '<h1>Oauth error invalid_request: The client_id is not valid.</h1>');
      return;
    }
    if (!/^https?:\/\//.test(redirectUri) || !q.get('state')) {
      sendHtml(
        res,
        400,
        '<h1>Oauth error invalid_request: redirect_uri and state are required.</h1>',
      );
      return;
    }
    if (!this.approve(shop)) {
      sendHtml(res, 403, `<h1>The merchant of ${escapeHtml(shop)} did not approve the app.</h1>`);
      return;
    }
    this.stats.authorizations++;
    this.uninstalledShops.delete(shop);
    const code = randomBytes(16).toString('hex');
    this.codes.set(code, {
      shop,
      scope: q.get('scope') ?? '',
      expiresAt: Date.now() + CODE_TTL_MS,
    });
    const params: Record<string, string> = {
      code,
      host: hostParam(shop),
      shop,
      state: q.get('state') ?? '',
      timestamp: String(Math.floor(Date.now() / 1000)),
    };
    params.hmac = signQuery(params, this.options.apiSecret);
    const target = new URL(redirectUri);
    for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
    redirect(res, target.toString());
  }

  /** POST /admin/oauth/access_token: code grant, token exchange or refresh. */
  async accessToken(shop: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const p = parseParams(await readBody(req), req.headers['content-type']);
    if (this.tokenFailure && this.tokenFailure.remaining > 0) {
      this.tokenFailure.remaining--;
      sendJson(res, this.tokenFailure.status, { errors: 'Service unavailable' });
      return;
    }
    if (p.client_id !== this.options.apiKey || p.client_secret !== this.clientSecret) {
      sendJson(res, 401, {
        error: 'invalid_client',
        error_description: 'Client authentication failed.',
      });
      return;
    }
    const expiring = p.expiring === '1';
    if (p.grant_type === TOKEN_EXCHANGE) return this.tokenExchange(shop, p, expiring, res);
    if (p.grant_type === 'refresh_token') return this.refresh(shop, p, res);
    if (p.grant_type) {
      sendJson(res, 400, { error: 'unsupported_grant_type' });
      return;
    }
    const grant = p.code ? this.codes.get(p.code) : undefined;
    if (p.code) this.codes.delete(p.code);
    if (!grant || grant.shop !== shop || (grant.expiresAt ?? 0) <= Date.now()) {
      sendJson(res, 400, {
        error: 'invalid_request',
        error_description: 'The authorization code was not found or was already used',
      });
      return;
    }
    this.stats.codeExchanges++;
    sendJson(res, 200, this.issue(shop, grant.scope, expiring));
  }

  private tokenExchange(
    shop: string,
    p: Record<string, string>,
    expiring: boolean,
    res: ServerResponse,
  ): void {
    const claims =
      p.subject_token_type === ID_TOKEN_TYPE
        ? this.verifyIdToken(p.subject_token ?? '')
        : undefined;
    const requested = p.requested_token_type ?? OFFLINE_TOKEN_TYPE;
    const granted = this.installFlow === 'managed' || this.installedShops.has(shop);
    const allowed = granted && this.approve(shop) && !this.uninstalledShops.has(shop);
    if (
      !allowed ||
      !claims ||
      claims.dest !== `https://${shop}` ||
      requested !== OFFLINE_TOKEN_TYPE
    ) {
      sendJson(res, 400, {
        error: 'invalid_subject_token',
        error_description: 'The subject token is not valid.',
      });
      return;
    }
    this.stats.tokenExchanges++;
    sendJson(res, 200, this.issue(shop, this.options.defaultScope, expiring));
  }

  private refresh(shop: string, p: Record<string, string>, res: ServerResponse): void {
    const token = p.refresh_token ?? '';
    const grant = this.spentRefreshTokens.has(token)
      ? undefined
      : (this.refreshTokens.get(token) ?? this.fromSignedToken(token, 'shprt_'));
    const revoked = !!grant && this.uninstalledShops.has(grant.shop);
    if (!grant || revoked || grant.shop !== shop || (grant.expiresAt ?? 0) <= Date.now()) {
      sendJson(res, 400, {
        error: 'invalid_grant',
        error_description: 'The refresh token is not valid.',
      });
      return;
    }
    // Each refresh returns a new pair; the old refresh token is spent.
    this.refreshTokens.delete(token);
    this.spentRefreshTokens.add(token);
    this.stats.refreshes++;
    sendJson(res, 200, this.issue(shop, grant.scope, true));
  }

  private issue(shop: string, scope: string, expiring: boolean): Record<string, unknown> {
    this.installedShops.add(shop);
    this.uninstalledShops.delete(shop);
    const ttl = this.options.accessTokenTtlSeconds;
    const access: Grant = { shop, scope, expiresAt: expiring ? Date.now() + ttl * 1000 : null };
    const accessToken = this.signedToken('shpat_', access);
    this.accessTokens.set(accessToken, access);
    if (!expiring) return { access_token: accessToken, scope };
    const refresh: Grant = { shop, scope, expiresAt: Date.now() + REFRESH_TTL_SECONDS * 1000 };
    const refreshToken = this.signedToken('shprt_', refresh);
    this.refreshTokens.set(refreshToken, refresh);
    return {
      access_token: accessToken,
      scope,
      expires_in: ttl,
      refresh_token: refreshToken,
      refresh_token_expires_in: REFRESH_TTL_SECONDS,
    };
  }

  /** An App Bridge ID token: HS256 with the app secret, our audience, not expired. */
  private verifyIdToken(token: string): Record<string, unknown> | undefined {
    const [header, payload, signature] = token.split('.');
    if (!header || !payload || !signature) return undefined;
    const expected = createHmac('sha256', this.options.apiSecret)
      .update(`${header}.${payload}`)
      .digest();
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const head = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string };
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<
        string,
        unknown
      >;
      const now = Date.now() / 1000;
      if (head.alg !== 'HS256' || claims.aud !== this.options.apiKey) return undefined;
      if (typeof claims.exp !== 'number' || claims.exp + 10 < now) return undefined;
      return claims;
    } catch {
      return undefined;
    }
  }
}
