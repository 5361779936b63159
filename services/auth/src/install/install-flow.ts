import { randomBytes } from 'node:crypto';
import { isEmailAddress } from '@ratesmith/contracts';
import { AppError, requireShopDomain, shopifyAdminUrl, type Logger } from '@ratesmith/kit';
import { type ShopifyLibrary } from '@ratesmith/kit/shopify';
import type { OAuthStatesRepository } from '../data/oauth-states.repository';
import type { ShopsRepository } from '../data/shops.repository';
import type { CarrierKeeper } from './carrier-keeper';
import { shopifyFailure } from '../shopify/errors';
import { exchangeCallbackCode } from '../shopify/oauth-callback';
import type { TokenService } from '../tokens/token-service';

export const CALLBACK_PATH = '/auth/callback';
const STALE_LINK =
  'This installation link has expired or was already used. Please start the installation again.';

export interface InstallFlowDeps {
  shops: ShopsRepository;
  states: OAuthStatesRepository;
  tokens: TokenService;
  shopify: ShopifyLibrary;
  carrier: Pick<CarrierKeeper, 'repair'>;
  logger: Logger;
  config: {
    apiKey: string;
    scopes: string[];
    appUrl: string;
    apiOrigin?: string | undefined;
    stateTtlMs: number;
  };
}

/**
 * Installing a shop: the install page (email, authorize URL with a state),
 * the OAuth callback (state, code exchange), the embedded first load (token
 * exchange), and what follows the first token: the rate key and the carrier
 * service.
 */
export class InstallFlow {
  constructor(private readonly deps: InstallFlowDeps) {}

  async beginInstall(shop: string, email: string): Promise<string> {
    requireShopDomain(shop);
    if (!isEmailAddress(email))
      throw new AppError('invalid_data', 'Please enter a valid email address.');
    // Anyone can post the install form for any shop: the email waits with the OAuth state and
    // reaches the shop's record only when someone who can approve the app for it does.
    return this.beginOAuth(shop, email);
  }

  /** The shop's authorize URL with a fresh state bound to the shop (and the install form's email). */
  async beginOAuth(shop: string, email?: string): Promise<string> {
    requireShopDomain(shop);
    const { config } = this.deps;
    const state = randomBytes(24).toString('base64url');
    await this.deps.states.create(state, shop, config.stateTtlMs, email);
    const url = shopifyAdminUrl(shop, '/admin/oauth/authorize', config.apiOrigin);
    url.searchParams.set('client_id', config.apiKey);
    url.searchParams.set('scope', config.scopes.join(','));
    url.searchParams.set('redirect_uri', new URL(CALLBACK_PATH, config.appUrl).toString());
    url.searchParams.set('state', state);
    // Empty grant option: an offline (shop) token.
    url.searchParams.set('grant_options[]', '');
    return url.toString();
  }

  /**
   * The OAuth callback's query, whose HMAC and timestamp the gateway has
   * checked (the one check: `services/gateway/src/routes/oauth/router.ts`):
   * the single-use state bound to the shop is spent, then the code exchanged.
   */
  async completeOAuth(query: string): Promise<{ shop: string; host: string }> {
    const params = new URLSearchParams(query);
    const shop = params.get('shop') ?? '';
    const state = params.get('state') ?? '';
    requireShopDomain(shop);
    const spent = state ? await this.deps.states.consume(state, shop) : null;
    if (!spent) throw new AppError('unauthorized', STALE_LINK);
    const askedAt = new Date();
    let session;
    try {
      session = await exchangeCallbackCode({
        shopify: this.deps.shopify,
        shop,
        code: params.get('code') ?? '',
      });
    } catch (err) {
      throw shopifyFailure(err, STALE_LINK);
    }
    await this.deps.tokens.storeSession(session);
    if (spent.email !== undefined) await this.deps.shops.recordEmail(shop, spent.email);
    await this.afterToken(shop, askedAt);
    return { shop, host: params.get('host') ?? '' };
  }

  async exchangeSessionToken(shop: string, sessionToken: string): Promise<void> {
    requireShopDomain(shop);
    const askedAt = new Date();
    await this.deps.tokens.exchangeSessionToken(shop, sessionToken);
    await this.afterToken(shop, askedAt);
  }

  /**
   * The shop has a new token (code grant or token exchange, asked for at
   * `askedAt`): it is installed, and the token carries the scopes granted
   * now, so a pending scope change is settled (left pending, every admin
   * open would ask for a token again). The carrier service is set up now;
   * Shopify's refusal is recorded as the shop's carrier state (shown in the
   * admin), and admin loads and the daily check try again.
   */
  private async afterToken(shop: string, askedAt: Date): Promise<void> {
    await this.deps.shops.markInstalled(shop);
    await this.deps.shops.clearScopesChanged(shop, askedAt);
    try {
      await this.deps.carrier.repair(shop);
    } catch (err) {
      this.deps.logger.warn(
        { shop, err: (err as Error).message },
        'carrier service not registered yet; will retry on the next load',
      );
    }
  }
}
