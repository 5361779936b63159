import { MAX_ZONE_IDS } from '@ratesmith/contracts';
import { AppError, type Logger } from '@ratesmith/kit';
import type { ShopRecord, ShopsRepository, ZoneCoverage } from '../data/shops.repository';
import type { AdminMessages, ShopifyAdmin } from '../shopify/admin-client';
import {
  applyZoneUpdates,
  ProfileUpdateRefused,
  readDeliveryZones,
  UnexpectedShopifyReply,
  UnknownZone,
  zoneCoverage,
  zoneUpdates,
  type DeliveryProfileZones,
  type RunDocument,
} from '../shopify/delivery-profiles';
import type { TokenService } from '../tokens/token-service';
import {
  NotAMerchantRate,
  rateActiveUpdates,
  readDeliveryRates,
  TooManyRates,
  RATES_PER_ZONE,
} from '../shopify/delivery-rates';
import { MAX_RATES_OFF, type NativeProfile } from '@ratesmith/contracts';

/** What the merchant reads when Shopify's shipping settings cannot be read or changed. */
export const ZONE_MESSAGES: AdminMessages = {
  busy: 'Shopify is busy with this store right now. Please try again in a few seconds.',
  timeout: 'Shopify did not answer in time. Please try again.',
  unreachable: 'Shopify cannot be reached right now. Please try again shortly.',
  failed: 'Shopify could not load the shipping zones right now. Please try again in a moment.',
  denied:
    "Shopify refused Ratesmith access to this store's shipping settings. Please reload the app to grant access.",
  tooCostly: "Shopify could not send this store's shipping zones. Please try again in a moment.",
};
export const UNKNOWN_ZONE = 'That shipping zone is no longer in Shopify. Reload the page.';
export const CARRIER_FIRST =
  'Checkout can ask Ratesmith only once its carrier service is registered: fix the carrier service first (Settings › Checkout, "Check again").';
export const NOT_INSTALLED = 'This shop has not installed the app.';
export const NOT_A_RATE =
  "That is not one of this shop's own Shopify rates (it may have been deleted in Shopify since). Reload the page.";
/** One read or change, every Shopify call of it included (the gateway waits a little longer). */
export const ZONES_DEADLINE_MS = 12_000;

export interface ShippingZonesView {
  profiles: DeliveryProfileZones[];
  /** The merchant has chosen zones at least once. */
  confirmed: boolean;
}

export interface ShippingZonesDeps {
  shops: ShopsRepository;
  tokens: Pick<TokenService, 'getAccessToken'>;
  admin: ShopifyAdmin;
  logger: Logger;
}

/**
 * Where checkout asks Ratesmith: reads the shop's delivery profiles and
 * zones, adds Ratesmith's carrier service to zones or takes it out, and keeps
 * the coverage (zones asking, of all) on the shop's record for the carrier
 * status. Nothing is added without the merchant asking: install only reads.
 */
export class ShippingZones {
  constructor(private readonly deps: ShippingZonesDeps) {}

  async read(shop: string): Promise<ShippingZonesView> {
    const record = await this.installed(shop);
    const run = await this.runner(shop, Date.now() + ZONES_DEADLINE_MS);
    const profiles = await this.readAndRecord(shop, run, record.carrierServiceId);
    return { profiles, confirmed: record.zonesConfirmedAt !== null };
  }

  /** Every profile with each zone's own rates, for "Import from Shopify" (read only). */
  async readRates(shop: string): Promise<NativeProfile[]> {
    await this.installed(shop);
    const run = await this.runner(shop, Date.now() + ZONES_DEADLINE_MS);
    try {
      return await readDeliveryRates(run);
    } catch (err) {
      if (err instanceof TooManyRates)
        throw new AppError(
          'invalid_data',
          `The shipping zone “${err.zone}” has more than ${RATES_PER_ZONE} rates: Ratesmith cannot import it yet.`,
        );
      throw this.unreadable(err);
    }
  }

  /**
   * Turns the shop's own rates `ids` off or on (go live and its undo); rates
   * already so are left alone. Answers the ids changed and the profiles as
   * Shopify has them afterwards.
   */
  async setRatesActive(
    shop: string,
    ids: readonly string[],
    active: boolean,
  ): Promise<{ changed: string[]; profiles: NativeProfile[] }> {
    if (ids.length > MAX_RATES_OFF)
      throw new AppError('invalid_data', `Name at most ${MAX_RATES_OFF} Shopify rates at once.`);
    await this.installed(shop);
    const run = await this.runner(shop, Date.now() + ZONES_DEADLINE_MS);
    let plan;
    try {
      plan = rateActiveUpdates(await readDeliveryRates(run), ids, active);
    } catch (err) {
      if (err instanceof NotAMerchantRate) throw new AppError('invalid_data', NOT_A_RATE);
      throw this.unreadable(err);
    }
    try {
      await applyZoneUpdates(run, plan.updates);
    } catch (err) {
      if (err instanceof ProfileUpdateRefused)
        throw new AppError('invalid_data', err.message, [], { cause: err });
      throw this.unreadable(err);
    }
    this.deps.logger.info(
      { shop, active, rates: plan.changed.length, updates: plan.updates.length },
      'native rates changed',
    );
    try {
      return { changed: plan.changed, profiles: await readDeliveryRates(run) };
    } catch (err) {
      throw this.unreadable(err);
    }
  }

  /**
   * Makes checkout ask Ratesmith in `zoneIds` (`ratesmith`) or stop asking
   * there, then records that the merchant chose (an empty list only records
   * that) and answers the zones as Shopify has them now.
   */
  async set(
    shop: string,
    zoneIds: readonly string[],
    ratesmith: boolean,
  ): Promise<ShippingZonesView> {
    if (zoneIds.length > MAX_ZONE_IDS)
      throw new AppError('invalid_data', `Choose at most ${MAX_ZONE_IDS} shipping zones at once.`);
    const record = await this.installed(shop);
    const carrierId = record.carrierServiceId;
    const registered =
      carrierId !== null && record.carrierState !== 'needs_plan' && record.carrierState !== 'error';
    if (ratesmith && zoneIds.length > 0 && !registered)
      throw new AppError('conflict', CARRIER_FIRST);
    const run = await this.runner(shop, Date.now() + ZONES_DEADLINE_MS);
    if (zoneIds.length > 0) {
      const before = await this.readZones(run, carrierId);
      let updates;
      try {
        updates = zoneUpdates(before, zoneIds, ratesmith, carrierId ?? '');
      } catch (err) {
        if (err instanceof UnknownZone) throw new AppError('invalid_data', UNKNOWN_ZONE);
        throw err;
      }
      try {
        await applyZoneUpdates(run, updates);
      } catch (err) {
        if (err instanceof ProfileUpdateRefused)
          throw new AppError('invalid_data', err.message, [], { cause: err });
        throw this.unreadable(err);
      }
      this.deps.logger.info(
        { shop, ratesmith, zones: zoneIds.length, updates: updates.length },
        'shipping zones changed',
      );
    }
    await this.deps.shops.confirmZones(shop);
    const profiles = await this.readAndRecord(shop, run, carrierId);
    return { profiles, confirmed: true };
  }

  /**
   * The carrier check's part: reads the zones and stores the coverage. Null
   * (and the last coverage kept) when Shopify cannot be asked: the carrier
   * state is what that check is for.
   */
  async refreshCoverage(shop: string): Promise<ZoneCoverage | null> {
    try {
      const record = await this.deps.shops.get(shop);
      if (!record?.installed) return null;
      const run = await this.runner(shop, Date.now() + ZONES_DEADLINE_MS);
      return zoneCoverage(await this.readAndRecord(shop, run, record.carrierServiceId));
    } catch (err) {
      this.deps.logger.warn({ shop, err: (err as Error).message }, 'shipping zones not read');
      return null;
    }
  }

  private async readAndRecord(
    shop: string,
    run: RunDocument,
    carrierId: string | null,
  ): Promise<DeliveryProfileZones[]> {
    const profiles = await this.readZones(run, carrierId);
    await this.deps.shops.setZoneCoverage(shop, zoneCoverage(profiles));
    return profiles;
  }

  private async readZones(run: RunDocument, carrierId: string | null) {
    try {
      return await readDeliveryZones(run, carrierId);
    } catch (err) {
      throw this.unreadable(err);
    }
  }

  private unreadable(err: unknown): unknown {
    if (err instanceof UnexpectedShopifyReply) {
      this.deps.logger.warn({ err: err.message }, 'unexpected shipping zones reply');
      return new AppError('unavailable', ZONE_MESSAGES.failed, [], { cause: err });
    }
    return err;
  }

  private async installed(shop: string): Promise<ShopRecord> {
    const record = await this.deps.shops.get(shop);
    if (!record?.installed) throw new AppError('not_found', NOT_INSTALLED);
    return record;
  }

  /** Runs documents with the shop's token (which stays here), all within one deadline. */
  private async runner(shop: string, deadline: number): Promise<RunDocument> {
    let accessToken: string;
    try {
      ({ accessToken } = await this.deps.tokens.getAccessToken(shop));
    } catch (err) {
      if (err instanceof AppError && err.kind === 'not_found')
        throw new AppError('forbidden', err.message, [], { cause: err });
      throw err;
    }
    return (document, variables) =>
      this.deps.admin.query(shop, accessToken, document, variables, deadline, ZONE_MESSAGES);
  }
}
