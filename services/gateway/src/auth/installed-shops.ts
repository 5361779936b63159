import type { authV1 } from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import { SHOPIFY_BACKED_TIMEOUT_MS } from '../shopify-backed-calls';

/**
 * Asks the auth service whether a shop has the app installed. A "yes" is
 * reused for a few seconds so every /api call does not cost a NATS hop; a
 * "no" is never cached, so a shop that just installed works at once.
 */
export class InstalledShops {
  private readonly confirmed = new Map<string, number>();
  /** One token exchange in flight per shop; its answer is shared by every caller meanwhile. */
  private readonly exchanging = new Map<string, Promise<boolean>>();

  constructor(
    private readonly auth: ClientOf<typeof authV1.AuthService>,
    private readonly cacheMs: number,
  ) {}

  async isInstalled(shop: string, requestId: string): Promise<boolean> {
    const until = this.confirmed.get(shop);
    if (until !== undefined && until > Date.now()) return true;
    const { installed } = await this.auth.call('getShop', { shop }, { requestId });
    if (installed) this.remember(shop);
    else this.confirmed.delete(shop);
    return installed;
  }

  /**
   * Embedded first load of a shop without a usable token (an App Store
   * install, a reinstall, a scope change, or tokens lost): the auth service
   * trades the verified session token for an offline token. False when
   * Shopify refuses it. The admin's first load and its first /api calls
   * arrive together: while one exchange for the shop runs, the others wait
   * for its answer instead of asking Shopify again.
   */
  installWithSessionToken(shop: string, sessionToken: string, requestId: string): Promise<boolean> {
    let pending = this.exchanging.get(shop);
    if (!pending) {
      pending = this.exchange(shop, sessionToken, requestId).finally(() =>
        this.exchanging.delete(shop),
      );
      this.exchanging.set(shop, pending);
    }
    return pending;
  }

  private async exchange(shop: string, sessionToken: string, requestId: string): Promise<boolean> {
    try {
      // The exchange, then the carrier service's set-up: several Shopify calls.
      await this.auth.call(
        'exchangeSessionToken',
        { shop, sessionToken },
        { requestId, timeoutMs: SHOPIFY_BACKED_TIMEOUT_MS },
      );
    } catch (err) {
      const kind = (err as { kind?: string }).kind;
      if (kind === 'unauthorized' || kind === 'not_found' || kind === 'forbidden') return false;
      throw err;
    }
    this.remember(shop);
    return true;
  }

  private remember(shop: string): void {
    if (this.cacheMs <= 0) return;
    if (this.confirmed.size > 10_000) this.confirmed.clear();
    this.confirmed.set(shop, Date.now() + this.cacheMs);
  }
}
