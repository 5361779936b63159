import { retryOnDuplicateKey } from '@ratesmith/kit';
import { Schema, type Connection, type Model } from 'mongoose';

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
}

export interface ShopRecord {
  shop: string;
  installed: boolean;
  email: string | null;
  rateKey: string | null;
  carrierServiceId: string | null;
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
  },
  { collection: 'shops', timestamps: true },
);
shopSchema.index({ shop: 1 }, { unique: true });

export class ShopsRepository {
  readonly model: Model<ShopDoc>;

  constructor(conn: Connection) {
    this.model = conn.model<ShopDoc>('Shop', shopSchema);
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
    };
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

  async clearScopesChanged(shop: string): Promise<void> {
    await this.model.updateOne(
      { shop, scopes_changed_at: { $ne: null } },
      { $set: { scopes_changed_at: null } },
    );
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

  async setCarrierServiceId(shop: string, id: string): Promise<void> {
    await this.model.updateOne({ shop }, { $set: { carrier_service_id: id } });
  }

  async delete(shop: string): Promise<void> {
    await this.model.deleteOne({ shop });
  }
}
