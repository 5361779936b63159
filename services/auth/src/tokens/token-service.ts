import { HttpResponseError, RequestedTokenType, type Session } from '@shopify/shopify-api';
import { AppError, type Logger } from '@ratesmith/kit';
import { type ShopifyLibrary } from '@ratesmith/kit/shopify';
import type { StoredTokens, TokensRepository } from '../data/tokens.repository';
import { shopifyFailure } from '../shopify/errors';
import type { SealedSecret, TokenCipher } from './encryption';

interface TokenPair {
  accessToken: string;
  refreshToken: string | null;
}

const LEASE_MS = 15_000;
const WAIT_STEP_MS = 100;

export const NOT_CONNECTED =
  'This shop is not connected to Ratesmith. Please open the app from your Shopify admin.';

/**
 * Offline access tokens: stored sealed, handed out to other services over
 * NATS, refreshed before they expire. One refresh per shop at a time: calls
 * in this process share one promise, and a lease in MongoDB keeps other
 * replicas from refreshing at the same moment (each refresh answers a new
 * pair and Shopify retires the previous refresh token once its replacement
 * is used, so concurrent refreshes would leave replicas with pairs that
 * stop working; docs/shopify.md).
 */
export class TokenService {
  private readonly refreshing = new Map<string, Promise<TokenPair & { scope: string }>>();

  constructor(
    private readonly deps: {
      repo: TokensRepository;
      cipher: TokenCipher;
      shopify: ShopifyLibrary;
      logger: Logger;
      refreshMarginMs: number;
    },
  ) {}

  /** Stores the tokens of a session Shopify just issued (code grant, token exchange, refresh). */
  async storeSession(session: Session): Promise<void> {
    const pair: TokenPair = {
      accessToken: session.accessToken ?? '',
      refreshToken: session.refreshToken ?? null,
    };
    if (!pair.accessToken)
      throw new AppError('unavailable', 'Shopify did not return an access token.');
    await this.deps.repo.save({
      shop: session.shop,
      sealed: this.deps.cipher.seal(JSON.stringify(pair), session.shop),
      scope: session.scope ?? '',
      expiresAt: session.expires ?? null,
      refreshExpiresAt: session.refreshTokenExpires ?? null,
    });
  }

  /** Whether the shop has a token that works now or can be refreshed. */
  async hasUsableToken(shop: string): Promise<boolean> {
    const stored = await this.deps.repo.get(shop);
    if (!stored) return false;
    const now = Date.now();
    if (!stored.expiresAt || stored.expiresAt.getTime() > now) return true;
    return !!stored.refreshExpiresAt && stored.refreshExpiresAt.getTime() > now;
  }

  /** The App Store path: trade the admin's session token for an expiring offline token. */
  async exchangeSessionToken(shop: string, sessionToken: string): Promise<void> {
    let session: Session;
    try {
      ({ session } = await this.deps.shopify.auth.tokenExchange({
        shop,
        sessionToken,
        requestedTokenType: RequestedTokenType.OfflineAccessToken,
        expiring: true,
      }));
    } catch (err) {
      throw shopifyFailure(err, 'Shopify did not accept the session. Please reload the app.');
    }
    await this.storeSession(session);
  }

  async getAccessToken(shop: string): Promise<{ accessToken: string; scope: string }> {
    const stored = await this.deps.repo.get(shop);
    if (!stored) throw new AppError('not_found', NOT_CONNECTED);
    if (!this.expiresSoon(stored.expiresAt)) {
      const pair = await this.openAndReseal(stored);
      return { accessToken: pair.accessToken, scope: stored.scope };
    }
    let pending = this.refreshing.get(shop);
    if (!pending) {
      pending = this.refreshSerialised(shop).finally(() => this.refreshing.delete(shop));
      this.refreshing.set(shop, pending);
    }
    const refreshed = await pending;
    return { accessToken: refreshed.accessToken, scope: refreshed.scope };
  }

  async deleteTokens(shop: string): Promise<void> {
    this.refreshing.delete(shop);
    await this.deps.repo.delete(shop);
  }

  private expiresSoon(expiresAt: Date | null): boolean {
    return !!expiresAt && expiresAt.getTime() - Date.now() < this.deps.refreshMarginMs;
  }

  private open(sealed: SealedSecret, shop: string): TokenPair {
    return JSON.parse(this.deps.cipher.open(sealed, shop)) as TokenPair;
  }

  /**
   * Opens a stored pair and, when an older key sealed it, writes it back
   * sealed with the current key, so old keys fall out of use and can be
   * removed. The write only lands if the record is unchanged (a concurrent
   * refresh wins), and its failure never fails the read.
   */
  private async openAndReseal(stored: StoredTokens): Promise<TokenPair> {
    const { cipher, repo, logger } = this.deps;
    const plaintext = cipher.open(stored.sealed, stored.shop);
    const pair = JSON.parse(plaintext) as TokenPair;
    if (cipher.isStale(stored.sealed)) {
      const from = stored.sealed.kid;
      try {
        const written = await repo.resealIfUnchanged(
          stored.shop,
          stored.sealed,
          cipher.seal(plaintext, stored.shop),
        );
        logger.info(
          { shop: stored.shop, from_kid: from, to_kid: cipher.currentKid, written },
          written
            ? 'tokens re-sealed with the current key'
            : 'tokens changed meanwhile; not re-sealed',
        );
      } catch (err) {
        logger.warn(
          { shop: stored.shop, from_kid: from, err: (err as Error).message },
          're-sealing tokens with the current key failed; will retry on a later read',
        );
      }
    }
    return pair;
  }

  private async refreshSerialised(shop: string): Promise<TokenPair & { scope: string }> {
    const { repo } = this.deps;
    const deadline = Date.now() + LEASE_MS;
    while (!(await repo.acquireRefreshLease(shop, LEASE_MS))) {
      // Another replica is refreshing: use its result once it is stored.
      await new Promise((r) => setTimeout(r, WAIT_STEP_MS));
      const stored = await repo.get(shop);
      if (!stored) throw new AppError('not_found', NOT_CONNECTED);
      if (!this.expiresSoon(stored.expiresAt))
        return { ...(await this.openAndReseal(stored)), scope: stored.scope };
      if (Date.now() > deadline)
        throw new AppError(
          'unavailable',
          'The Shopify connection is being renewed. Please try again.',
        );
    }
    try {
      // Read again under the lease: another holder may have refreshed just now.
      const stored = await repo.get(shop);
      if (!stored) throw new AppError('not_found', NOT_CONNECTED);
      const current = this.open(stored.sealed, shop);
      if (!this.expiresSoon(stored.expiresAt)) return { ...current, scope: stored.scope };
      if (!current.refreshToken) {
        // A non-expiring token that has an expiry cannot happen; a lapsed one without refresh is unusable.
        throw new AppError('not_found', NOT_CONNECTED);
      }
      let session: Session;
      try {
        ({ session } = await this.deps.shopify.auth.refreshToken({
          shop,
          refreshToken: current.refreshToken,
        }));
      } catch (err) {
        if (refreshTokenDead(err)) {
          // The grant is gone (uninstalled, revoked): the next admin load exchanges anew.
          this.deps.logger.warn({ shop }, 'refresh token refused (invalid_grant); tokens deleted');
          await repo.delete(shop);
          throw new AppError('not_found', NOT_CONNECTED, [], { cause: err });
        }
        // Anything else (invalid_client after a secret rotation, 5xx, timeouts) says
        // nothing about this shop's grant: the tokens are kept for a later try.
        this.deps.logger.warn(
          { shop, status: err instanceof HttpResponseError ? err.response.code : undefined },
          'token refresh failed; tokens kept',
        );
        throw new AppError(
          'unavailable',
          'The Shopify connection could not be renewed right now. Please try again shortly.',
          [],
          { cause: err },
        );
      }
      await this.storeSession(session);
      this.deps.logger.info({ shop }, 'access token refreshed');
      return {
        accessToken: session.accessToken ?? '',
        refreshToken: session.refreshToken ?? null,
        scope: session.scope ?? '',
      };
    } finally {
      await repo.releaseRefreshLease(shop).catch(() => undefined);
    }
  }
}

/**
 * Only Shopify's `invalid_grant` answer means the refresh token itself is
 * dead. An `invalid_client` (the app secret was rotated and this replica has
 * the old one) or a 5xx would otherwise wipe every shop's tokens.
 */
export function refreshTokenDead(err: unknown): boolean {
  if (!(err instanceof HttpResponseError)) return false;
  const body = err.response.body as { error?: unknown } | undefined;
  return body?.error === 'invalid_grant';
}
