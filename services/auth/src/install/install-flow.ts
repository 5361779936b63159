import { randomBytes } from 'node:crypto';
import { InvalidHmacError, InvalidOAuthError } from '@shopify/shopify-api';
import { isEmailAddress, SHOP_DOMAIN, type rulesV1 } from '@ratesmith/contracts';
import { AppError, shopifyAdminUrl, type ClientOf, type Logger } from '@ratesmith/kit';
import type { OAuthStatesRepository } from '../data/oauth-states.repository';
import type { ShopsRepository } from '../data/shops.repository';
import { registerCarrierService } from '../shopify/carrier-service';
import type { ShopifyApi } from '../shopify/client';
import { shopifyFailure } from '../shopify/errors';
import { exchangeCallbackCode } from '../shopify/oauth-callback';
import type { TokenService } from '../tokens/token-service';

export const CALLBACK_PATH = '/auth/callback';
const RETRY_INTERVAL_MS = 60_000;
const STALE_LINK =
  'This installation link has expired or was already used. Please start the installation again.';

export interface InstallFlowDeps {
  shops: ShopsRepository;
  states: OAuthStatesRepository;
  tokens: TokenService;
  shopify: ShopifyApi;
  rules: ClientOf<typeof rulesV1.RulesService>;
  logger: Logger;
  config: {
    apiKey: string;
    apiSecret: string;
    scopes: string[];
    appUrl: string;
    apiOrigin?: string | undefined;
    rateEngineUrl: string;
    stateTtlMs: number;
  };
}

export function requireShopDomain(shop: string): string {
  if (!SHOP_DOMAIN.test(shop))
    throw new AppError('invalid_data', 'That is not a valid shop domain.');
  return shop;
}

/**
 * Installing a shop: the install page (email, authorize URL with a state),
 * the OAuth callback (state, code exchange), the embedded first load (token
 * exchange), and what follows the first token: the rate key and the carrier
 * service.
 */
export class InstallFlow {
  private readonly lastRetry = new Map<string, number>();

  constructor(private readonly deps: InstallFlowDeps) {}

  async beginInstall(shop: string, email: string): Promise<string> {
    requireShopDomain(shop);
    if (!isEmailAddress(email))
      throw new AppError('invalid_data', 'Please enter a valid email address.');
    // Anyone can post the install form for any shop: an installed shop's record is left as it is.
    if (!(await this.deps.shops.isInstalled(shop))) await this.deps.shops.recordEmail(shop, email);
    return this.beginOAuth(shop);
  }

  /** The shop's authorize URL with a fresh state bound to the shop. */
  async beginOAuth(shop: string): Promise<string> {
    requireShopDomain(shop);
    const { config } = this.deps;
    const state = randomBytes(24).toString('base64url');
    await this.deps.states.create(state, shop, config.stateTtlMs);
    const url = shopifyAdminUrl(shop, '/admin/oauth/authorize', config.apiOrigin);
    url.searchParams.set('client_id', config.apiKey);
    url.searchParams.set('scope', config.scopes.join(','));
    url.searchParams.set('redirect_uri', new URL(CALLBACK_PATH, config.appUrl).toString());
    url.searchParams.set('state', state);
    // Empty grant option: an offline (shop) token.
    url.searchParams.set('grant_options[]', '');
    return url.toString();
  }

  async completeOAuth(query: string): Promise<{ shop: string; host: string }> {
    const params = new URLSearchParams(query);
    const shop = params.get('shop') ?? '';
    const state = params.get('state') ?? '';
    requireShopDomain(shop);
    if (!state || !(await this.deps.states.consume(state, shop)))
      throw new AppError('unauthorized', STALE_LINK);
    let session;
    try {
      session = await exchangeCallbackCode({
        shopify: this.deps.shopify,
        apiSecret: this.deps.config.apiSecret,
        query,
        verifiedState: state,
      });
    } catch (err) {
      if (err instanceof InvalidOAuthError || err instanceof InvalidHmacError)
        throw new AppError('unauthorized', 'The request from Shopify could not be verified.', [], {
          cause: err,
        });
      throw shopifyFailure(err, STALE_LINK);
    }
    await this.deps.tokens.storeSession(session);
    await this.afterToken(shop);
    return { shop, host: params.get('host') ?? '' };
  }

  async exchangeSessionToken(shop: string, sessionToken: string): Promise<void> {
    requireShopDomain(shop);
    await this.deps.tokens.exchangeSessionToken(shop, sessionToken);
    // The new token carries the scopes granted now.
    await this.deps.shops.clearScopesChanged(shop);
    await this.afterToken(shop);
  }

  /**
   * The shop has a token: it is installed. The carrier service is set up
   * now; if Shopify fails that, the install still stands and the next
   * embedded load (or reinstall) tries again.
   */
  private async afterToken(shop: string): Promise<void> {
    await this.deps.shops.markInstalled(shop);
    try {
      await this.ensureCarrierService(shop);
    } catch (err) {
      this.deps.logger.warn(
        { shop, err: (err as Error).message },
        'carrier service not registered yet; will retry on the next load',
      );
    }
  }

  /** Idempotent: the same key and one carrier service however often it runs. */
  async ensureCarrierService(shop: string): Promise<void> {
    const { shops, tokens, rules, shopify, config } = this.deps;
    const rateKey = await shops.ensureRateKey(shop, randomBytes(16).toString('base64url'));
    await rules.call('setRateKey', { shop, rateKey });
    const { accessToken } = await tokens.getAccessToken(shop);
    const record = await shops.get(shop);
    const id = await registerCarrierService({
      shopify,
      shop,
      accessToken,
      callbackUrl: new URL(`/carrier/rates/${rateKey}`, config.rateEngineUrl).toString(),
      knownId: record?.carrierServiceId ?? null,
    });
    if (id !== record?.carrierServiceId) await shops.setCarrierServiceId(shop, id);
  }

  /**
   * An installed shop whose carrier service is not registered yet (Shopify
   * failed during install) gets another attempt, in the background and at
   * most once a minute per shop; GetShop calls this on every admin load.
   */
  retryCarrierServiceIfMissing(shop: string): void {
    const last = this.lastRetry.get(shop) ?? 0;
    if (Date.now() - last < RETRY_INTERVAL_MS) return;
    if (this.lastRetry.size > 10_000) this.lastRetry.clear();
    this.lastRetry.set(shop, Date.now());
    void (async () => {
      const record = await this.deps.shops.get(shop);
      if (!record?.installed || record.carrierServiceId) return;
      await this.ensureCarrierService(shop);
      this.deps.logger.info({ shop }, 'carrier service registered on retry');
    })().catch((err: Error) =>
      this.deps.logger.warn({ shop, err: err.message }, 'carrier service retry failed'),
    );
  }
}
