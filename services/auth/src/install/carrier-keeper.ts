import { randomBytes } from 'node:crypto';
import { carrierCallbackPath, type rulesV1 } from '@ratesmith/contracts';
import { withDeadline, type ClientOf, type Logger } from '@ratesmith/kit';
import { type ShopifyLibrary } from '@ratesmith/kit/shopify';
import type { CarrierState, ShopsRepository, ZoneCoverage } from '../data/shops.repository';
import {
  CarrierServiceRefused,
  readCarrierService,
  registerCarrierService,
} from '../shopify/carrier-service';
import type { TokenService } from '../tokens/token-service';
import type { ShippingZones } from './shipping-zones';

/** What the admin shows of the carrier service. */
export interface CarrierStatus {
  state: CarrierState | 'unknown';
  /** Shopify's reason when it refused; empty otherwise. */
  detail: string;
  checkedAt: Date | null;
  /** Zones asking Ratesmith, of all zones, as last read; null when never read. */
  zones: ZoneCoverage | null;
}

export interface CarrierKeeperDeps {
  shops: ShopsRepository;
  tokens: Pick<TokenService, 'getAccessToken'>;
  shopify: ShopifyLibrary;
  rules: ClientOf<typeof rulesV1.RulesService>;
  /** Where checkout asks the service: read with every check, since a zone can lose it too. */
  zones: Pick<ShippingZones, 'refreshCoverage'>;
  logger: Logger;
  config: {
    rateEngineUrl: string;
    /** How often every installed shop's carrier service is read again (a day). */
    checkIntervalMs: number;
    /** At most one check per shop per this on admin loads. */
    loadCheckIntervalMs: number;
  };
}

/**
 * Keeps each installed shop's carrier service registered and knows whether
 * checkout calls the app: `active`; `inactive` (Shopify turned it off, as a
 * plan downgrade does); `needs_plan` (the plan lacks carrier-calculated
 * shipping); `error` (Shopify refused otherwise or could not be asked).
 *
 * `repair` registers or reactivates (install, "Check again", a shop with no
 * service); `check` only reads Shopify's view (admin loads, the daily sweep),
 * so a merchant's own change is reported, not overridden.
 */
export class CarrierKeeper {
  private readonly lastLoadCheck = new Map<string, number>();
  /** The check or repair running for each shop: a shop's run one after another in a replica. */
  private readonly running = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: CarrierKeeperDeps) {}

  async status(shop: string): Promise<CarrierStatus> {
    const record = await this.deps.shops.get(shop);
    return {
      state: record?.carrierState ?? 'unknown',
      detail: record?.carrierDetail ?? '',
      checkedAt: record?.carrierCheckedAt ?? null,
      zones: record?.zoneCoverage ?? null,
    };
  }

  /**
   * Gives the shop its rate key and registers (or reactivates) the carrier
   * service; records and answers the outcome. Shopify's refusals become a
   * state, never an exception; a failure of our own store or bus throws.
   * The zone coverage is read afterwards: awaited with `awaitZones` ("Check
   * again"), else in the background, so an install or a first load is not
   * held up by the zone reads.
   */
  repair(shop: string, options: { awaitZones?: boolean } = {}): Promise<CarrierStatus> {
    return this.oneAtATime(shop, () => this.repairNow(shop, options.awaitZones ?? false));
  }

  private async repairNow(shop: string, awaitZones: boolean): Promise<CarrierStatus> {
    const { shops, rules, config } = this.deps;
    const rateKey = await shops.ensureRateKey(shop, randomBytes(16).toString('base64url'));
    await rules.call('setRateKey', { shop, rateKey });
    const record = await shops.get(shop);
    try {
      const service = await registerCarrierService({
        ...(await this.target(shop)),
        callbackUrl: new URL(carrierCallbackPath(rateKey), config.rateEngineUrl).toString(),
        knownId: record?.carrierServiceId ?? null,
      });
      await shops.setCarrierState(shop, service.active ? 'active' : 'inactive', '', service.id);
    } catch (err) {
      if (!(err instanceof CarrierServiceRefused)) throw err;
      this.deps.logger.warn(
        { shop, reason: err.reason, err: err.message },
        'carrier service refused',
      );
      await shops.setCarrierState(shop, err.reason, err.message);
    }
    if (awaitZones) await this.deps.zones.refreshCoverage(shop);
    // Runs on after the answer: the caller's deadline does not stop it.
    else void withDeadline(undefined, () => this.deps.zones.refreshCoverage(shop));
    return this.status(shop);
  }

  /**
   * Reads the stored service's state, then the zone coverage, from Shopify. A shop with no service
   * (never registered, or deleted since) is repaired. If Shopify cannot be
   * asked, the last known state stands and the error propagates.
   */
  check(shop: string): Promise<CarrierStatus> {
    return this.oneAtATime(shop, () => this.checkNow(shop));
  }

  private async checkNow(shop: string): Promise<CarrierStatus> {
    const record = await this.deps.shops.get(shop);
    if (!record?.installed) return this.status(shop);
    if (!record.carrierServiceId || record.carrierState === 'needs_plan')
      return this.repairNow(shop, true);
    const service = await readCarrierService({
      ...(await this.target(shop)),
      id: record.carrierServiceId,
    });
    if (!service) return this.repairNow(shop, true);
    await this.deps.shops.setCarrierState(shop, service.active ? 'active' : 'inactive', '');
    await this.deps.zones.refreshCoverage(shop);
    return this.status(shop);
  }

  /**
   * Runs `work` after the shop's running check or repair, so two of them (an
   * install and the sweep, say) never interleave their reads and writes and
   * never register two services.
   */
  private oneAtATime<T>(shop: string, work: () => Promise<T>): Promise<T> {
    const previous = this.running.get(shop) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.running.set(shop, settled);
    void settled.then(() => {
      if (this.running.get(shop) === settled) this.running.delete(shop);
    });
    return next;
  }

  /**
   * An admin load: a check in the background, at most once per
   * `loadCheckIntervalMs` per shop, so a plan change shows within minutes
   * without slowing the page. A shop with a service is skipped when any
   * replica checked it within that time; one without (Shopify refused or
   * failed) is tried again on its first load here.
   */
  checkOnLoad(shop: string): void {
    const interval = this.deps.config.loadCheckIntervalMs;
    const last = this.lastLoadCheck.get(shop) ?? 0;
    if (Date.now() - last < interval) return;
    if (this.lastLoadCheck.size > 10_000) this.lastLoadCheck.clear();
    this.lastLoadCheck.set(shop, Date.now());
    // Not the load's work: it runs on after the answer, without the caller's deadline.
    void withDeadline(undefined, async () => {
      const record = await this.deps.shops.get(shop);
      const checkedAt = record?.carrierCheckedAt?.getTime() ?? 0;
      if (!record?.carrierServiceId || Date.now() - checkedAt >= interval) await this.check(shop);
    }).catch((err: Error) =>
      this.deps.logger.warn({ shop, err: err.message }, 'carrier service check failed'),
    );
  }

  /**
   * Checks every installed shop once per `checkIntervalMs`: each tick claims
   * due shops one at a time (a claim marks the shop checked, so replicas
   * share the work) until none is due or the tick's budget is spent.
   * Answers a function that stops the sweep.
   */
  startSweep(tickMs = Math.min(this.deps.config.checkIntervalMs / 24, 10 * 60_000)): () => void {
    const perTick = 100;
    let running = false;
    const tick = async () => {
      if (running) return;
      running = true;
      try {
        const due = new Date(Date.now() - this.deps.config.checkIntervalMs);
        for (let i = 0; i < perTick; i++) {
          const shop = await this.deps.shops.claimDueCarrierCheck(due);
          if (!shop) break;
          await this.check(shop).catch((err: Error) =>
            this.deps.logger.warn({ shop, err: err.message }, 'daily carrier service check failed'),
          );
        }
      } catch (err) {
        this.deps.logger.warn({ err: (err as Error).message }, 'carrier service sweep failed');
      } finally {
        running = false;
      }
    };
    const timer = setInterval(() => void tick(), tickMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private async target(shop: string) {
    const { accessToken } = await this.deps.tokens.getAccessToken(shop);
    return { shopify: this.deps.shopify, shop, accessToken };
  }
}
