import { MongoStore, retryOnDuplicateKey } from '@ratesmith/kit';
import { Schema, type Connection } from 'mongoose';

interface ShopDoc {
  shop: string;
  installed: boolean;
  installed_at: Date | null;
  uninstalled_at: Date | null;
  /** The purchase email given on the install page. */
  email: string | null;
  /** The carrier callback's secret path segment (128 random bits). */
  rate_key: string | null;
  carrier_service_id: string | null;
  /** app/scopes_update came: the next embedded load exchanges its session for a new token. */
  scopes_changed_at: Date | null;
  /** shop/redact came while the app was installed: nothing was erased (the last such time). */
  redact_deferred_at: Date | null;
  /** What Shopify last said of the carrier service (null: not checked yet). */
  carrier_state: CarrierState | null;
  /** Shopify's reason when it refused; empty otherwise. */
  carrier_detail: string;
  /** When the carrier service was last checked (or claimed for a check). */
  carrier_checked_at: Date | null;
  /** Shopify's Shop.currencyCode, read once (null: not read yet). */
  currency_code: string | null;
  /** Shopify's Shop.currencyFormats.moneyFormat, read with the code. */
  money_format: string | null;
  /** Shopify's Shop.weightUnit, read with the currency (null: not read yet). */
  weight_unit: string | null;
  /** Shopify's Shop.ianaTimezone, read with the currency (null: not read yet). */
  iana_timezone: string | null;
  /** When the merchant last chose the zones that ask Ratesmith (null: never). */
  zones_confirmed_at: Date | null;
  /** Zones asking Ratesmith, of all zones, as last read (null: never read). */
  zone_coverage: ZoneCoverage | null;
}

/** How many shipping zones ask Ratesmith, of all the shop's zones. */
export interface ZoneCoverage {
  asking: number;
  total: number;
}

/**
 * What the admin formats with: Shopify's Shop.currencyCode, currencyFormats.moneyFormat,
 * weightUnit, and the time zone delivery dates count in (ianaTimezone).
 */
export interface ShopFormats {
  currencyCode: string;
  moneyFormat: string;
  weightUnit: string;
  ianaTimezone: string;
}

/** Whether checkout calls the app, as Shopify last answered. */
export type CarrierState = 'active' | 'inactive' | 'needs_plan' | 'error';
export const CARRIER_STATES: readonly CarrierState[] = [
  'active',
  'inactive',
  'needs_plan',
  'error',
];

export interface ShopRecord {
  shop: string;
  installed: boolean;
  email: string | null;
  rateKey: string | null;
  carrierServiceId: string | null;
  carrierState: CarrierState | null;
  carrierDetail: string;
  carrierCheckedAt: Date | null;
  zonesConfirmedAt: Date | null;
  zoneCoverage: ZoneCoverage | null;
}

const shopSchema = new Schema<ShopDoc>(
  {
    shop: { type: String, required: true },
    installed: { type: Boolean, default: false },
    installed_at: { type: Date, default: null },
    uninstalled_at: { type: Date, default: null },
    email: { type: String, default: null },
    rate_key: { type: String, default: null },
    carrier_service_id: { type: String, default: null },
    scopes_changed_at: { type: Date, default: null },
    redact_deferred_at: { type: Date, default: null },
    carrier_state: { type: String, enum: [...CARRIER_STATES, null], default: null },
    carrier_detail: { type: String, default: '' },
    carrier_checked_at: { type: Date, default: null },
    currency_code: { type: String, default: null },
    money_format: { type: String, default: null },
    weight_unit: { type: String, default: null },
    iana_timezone: { type: String, default: null },
    zones_confirmed_at: { type: Date, default: null },
    zone_coverage: {
      type: new Schema<ZoneCoverage>(
        { asking: { type: Number, required: true }, total: { type: Number, required: true } },
        { _id: false },
      ),
      default: null,
    },
  },
  { collection: 'shops', timestamps: true },
);
shopSchema.index({ shop: 1 }, { unique: true });
// The daily carrier check finds installed shops not checked for a day.
shopSchema.index({ installed: 1, carrier_checked_at: 1 });

export class ShopsRepository extends MongoStore<ShopDoc> {
  constructor(conn: Connection) {
    super(conn.model<ShopDoc>('Shop', shopSchema));
  }

  async get(shop: string): Promise<ShopRecord | null> {
    const doc = await this.model.findOne({ shop }).lean();
    if (!doc) return null;
    return {
      shop: doc.shop,
      installed: doc.installed,
      email: doc.email ?? null,
      rateKey: doc.rate_key ?? null,
      carrierServiceId: doc.carrier_service_id ?? null,
      carrierState: doc.carrier_state ?? null,
      carrierDetail: doc.carrier_detail ?? '',
      carrierCheckedAt: doc.carrier_checked_at ?? null,
      zonesConfirmedAt: doc.zones_confirmed_at ?? null,
      zoneCoverage: doc.zone_coverage
        ? { asking: doc.zone_coverage.asking, total: doc.zone_coverage.total }
        : null,
    };
  }

  /**
   * The currency and weight unit kept with the shop, or null before they were read from
   * Shopify (shops that kept a currency before the weight unit was read count as unread).
   */
  async getCurrency(shop: string): Promise<ShopFormats | null> {
    const doc = await this.model
      .findOne({ shop })
      .select({ currency_code: 1, money_format: 1, weight_unit: 1, iana_timezone: 1 })
      .lean();
    // Shops kept before a figure was read count as unread, and read it again.
    if (!doc?.currency_code || !doc.weight_unit || !doc.iana_timezone) return null;
    return {
      currencyCode: doc.currency_code,
      moneyFormat: doc.money_format ?? '',
      weightUnit: doc.weight_unit,
      ianaTimezone: doc.iana_timezone,
    };
  }

  async setCurrency(shop: string, formats: ShopFormats): Promise<void> {
    await this.model.updateOne(
      { shop },
      {
        $set: {
          currency_code: formats.currencyCode,
          money_format: formats.moneyFormat,
          weight_unit: formats.weightUnit,
          iana_timezone: formats.ianaTimezone,
        },
      },
    );
  }

  async isInstalled(shop: string): Promise<boolean> {
    const doc = await this.model.findOne({ shop }).select({ installed: 1 }).lean();
    return doc?.installed === true;
  }

  /** Installed, and no scope change waits for a new token. */
  async isReady(shop: string): Promise<boolean> {
    const doc = await this.model
      .findOne({ shop })
      .select({ installed: 1, scopes_changed_at: 1 })
      .lean();
    return doc?.installed === true && !doc.scopes_changed_at;
  }

  async markScopesChanged(shop: string): Promise<void> {
    await this.model.updateOne(
      { shop, installed: true },
      { $set: { scopes_changed_at: new Date() } },
    );
  }

  /**
   * A token asked for at `askedAt` carries the scopes granted then: a scope
   * change recorded before it is settled; one recorded after it (a webhook
   * that arrived while Shopify answered) still waits for the next token.
   */
  async clearScopesChanged(shop: string, askedAt: Date): Promise<void> {
    await this.model.updateOne(
      { shop, scopes_changed_at: { $ne: null, $lte: askedAt } },
      { $set: { scopes_changed_at: null } },
    );
  }

  /**
   * shop/redact while the app is installed (a reinstall within Shopify's 48
   * hours, or a delivery not meant): nothing is erased, the request is kept
   * with its time.
   */
  async recordRedactDeferred(shop: string): Promise<void> {
    await this.model.updateOne({ shop }, { $set: { redact_deferred_at: new Date() } });
  }

  /** Idempotent: marking an installed shop installed again changes nothing. */
  async markInstalled(shop: string): Promise<void> {
    const existing = await this.model.findOne({ shop, installed: true }).select({ _id: 1 }).lean();
    if (existing) return;
    await retryOnDuplicateKey(() =>
      this.model.updateOne(
        { shop },
        { $set: { installed: true, installed_at: new Date(), uninstalled_at: null } },
        { upsert: true },
      ),
    );
  }

  /** app/uninstalled: the carrier service went with the app; the rate key is retired. */
  async markUninstalled(shop: string): Promise<void> {
    await this.model.updateOne(
      { shop },
      {
        $set: {
          installed: false,
          uninstalled_at: new Date(),
          rate_key: null,
          carrier_service_id: null,
          carrier_state: null,
          carrier_detail: '',
          carrier_checked_at: null,
          // The zones lost the carrier service with it: a reinstall asks the merchant again.
          zones_confirmed_at: null,
          zone_coverage: null,
        },
      },
    );
  }

  async recordEmail(shop: string, email: string): Promise<void> {
    await retryOnDuplicateKey(() =>
      this.model.updateOne({ shop }, { $set: { email } }, { upsert: true }),
    );
  }

  /** Sets the rate key only where none is set yet; answers the key that holds. */
  async ensureRateKey(shop: string, candidate: string): Promise<string> {
    await this.model.updateOne({ shop, rate_key: null }, { $set: { rate_key: candidate } });
    const doc = await this.model.findOne({ shop }).select({ rate_key: 1 }).lean();
    return doc?.rate_key ?? candidate;
  }

  /** Records a check's outcome; `id` when Shopify named the service (registered or found). */
  async setCarrierState(
    shop: string,
    state: CarrierState,
    detail: string,
    id?: string | null,
  ): Promise<void> {
    const set: Partial<ShopDoc> = {
      carrier_state: state,
      carrier_detail: detail,
      carrier_checked_at: new Date(),
    };
    if (id !== undefined) set.carrier_service_id = id;
    await this.model.updateOne({ shop, installed: true }, { $set: set });
  }

  /**
   * Records how many zones ask Ratesmith, as just read from Shopify; written
   * only when it changed, so reading the zones leaves the record as it was.
   */
  async setZoneCoverage(shop: string, coverage: ZoneCoverage): Promise<void> {
    await this.model.updateOne(
      {
        shop,
        installed: true,
        $or: [
          { 'zone_coverage.asking': { $ne: coverage.asking } },
          { 'zone_coverage.total': { $ne: coverage.total } },
        ],
      },
      { $set: { zone_coverage: { asking: coverage.asking, total: coverage.total } } },
    );
  }

  /** The merchant chose the zones that ask Ratesmith (the first-install proposal is answered). */
  async confirmZones(shop: string): Promise<void> {
    await this.model.updateOne(
      { shop, installed: true },
      { $set: { zones_confirmed_at: new Date() } },
    );
  }

  /**
   * Claims one installed shop not checked since `before`, marking it checked
   * now so that another replica's sweep skips it. Null when none is due. A
   * shop never checked is due once it was installed before `before`: its
   * install is what checks it first.
   */
  async claimDueCarrierCheck(before: Date): Promise<string | null> {
    // No projection: FerretDB's findAndModify does not support one.
    const doc = await this.model
      .findOneAndUpdate(
        {
          installed: true,
          $or: [
            { carrier_checked_at: null, installed_at: { $lt: before } },
            // Installed before install dates were kept.
            { carrier_checked_at: null, installed_at: null },
            { carrier_checked_at: { $lt: before } },
          ],
        },
        { $set: { carrier_checked_at: new Date() } },
      )
      .lean();
    return doc?.shop ?? null;
  }

  async delete(shop: string): Promise<void> {
    await this.model.deleteOne({ shop });
  }
}
