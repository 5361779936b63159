import { Schema, type Connection, type Model } from 'mongoose';

interface ShopDoc {
  shop: string;
  installed: boolean;
  installed_at: Date | null;
  uninstalled_at: Date | null;
}

const shopSchema = new Schema<ShopDoc>(
  {
    shop: { type: String, required: true },
    installed: { type: Boolean, default: false },
    installed_at: { type: Date, default: null },
    uninstalled_at: { type: Date, default: null },
  },
  { collection: 'shops', timestamps: true },
);
shopSchema.index({ shop: 1 }, { unique: true });

export class ShopsRepository {
  readonly model: Model<ShopDoc>;

  constructor(conn: Connection) {
    this.model = conn.model<ShopDoc>('Shop', shopSchema);
  }

  async isInstalled(shop: string): Promise<boolean> {
    const doc = await this.model.findOne({ shop }).select({ installed: 1 }).lean();
    return doc?.installed === true;
  }

  /** Idempotent: marking an installed shop installed again changes nothing. */
  async markInstalled(shop: string): Promise<void> {
    const existing = await this.model.findOne({ shop, installed: true }).select({ _id: 1 }).lean();
    if (existing) return;
    await this.model.updateOne(
      { shop },
      { $set: { installed: true, installed_at: new Date(), uninstalled_at: null } },
      { upsert: true },
    );
  }
}
