import type { SnapshotSettings } from '@ratesmith/contracts';
import { Schema, type Connection, type Model } from 'mongoose';
import { DEFAULT_SETTINGS } from '../domain/settings';

/**
 * One document per shop: its settings, the active ruleset (a single field, so
 * "only one ruleset enabled" holds by construction) and the snapshot version
 * counter that orders snapshots across replicas.
 */
interface ShopSettingsDoc extends SnapshotSettings {
  shop: string;
  global_rule_id: string | null;
  snapshot_version: number;
  /** Set with each version bump; cleared once that version reached the bucket. */
  snapshot_dirty: boolean;
}

const settingsSchema = new Schema<ShopSettingsDoc>(
  {
    shop: { type: String, required: true },
    carrier_name: { type: String, default: '' },
    carrier_description: { type: String, default: '' },
    bump_shipping_enabled: { type: Boolean, default: false },
    bump_shipping_name: { type: String, default: '' },
    bump_shipping_description: { type: String, default: '' },
    bump_shipping_action: { type: Number, default: null },
    bump_shipping_cost: { type: Number, default: 0 },
    global_rule_id: { type: String, default: null },
    snapshot_version: { type: Number, default: 0 },
    snapshot_dirty: { type: Boolean, default: false },
  },
  { collection: 'shop_settings', timestamps: true, minimize: false },
);
settingsSchema.index({ shop: 1 }, { unique: true });
settingsSchema.index({ snapshot_dirty: 1 });

export interface ShopState {
  settings: SnapshotSettings;
  globalRuleId: string | null;
  snapshotVersion: number;
}

function pickSettings(doc: Partial<SnapshotSettings>): SnapshotSettings {
  return {
    carrier_name: doc.carrier_name ?? DEFAULT_SETTINGS.carrier_name,
    carrier_description: doc.carrier_description ?? DEFAULT_SETTINGS.carrier_description,
    bump_shipping_enabled: doc.bump_shipping_enabled ?? DEFAULT_SETTINGS.bump_shipping_enabled,
    bump_shipping_name: doc.bump_shipping_name ?? DEFAULT_SETTINGS.bump_shipping_name,
    bump_shipping_description:
      doc.bump_shipping_description ?? DEFAULT_SETTINGS.bump_shipping_description,
    bump_shipping_action:
      doc.bump_shipping_action === 1 || doc.bump_shipping_action === 2
        ? doc.bump_shipping_action
        : null,
    bump_shipping_cost: doc.bump_shipping_cost ?? DEFAULT_SETTINGS.bump_shipping_cost,
  };
}

export class SettingsRepository {
  readonly model: Model<ShopSettingsDoc>;

  constructor(conn: Connection) {
    this.model = conn.model<ShopSettingsDoc>('ShopSettings', settingsSchema);
  }

  /** A shop that never saved anything has the defaults. */
  async get(shop: string): Promise<ShopState> {
    const doc = await this.model.findOne({ shop }).lean();
    return {
      settings: pickSettings(doc ?? {}),
      globalRuleId: doc?.global_rule_id ?? null,
      snapshotVersion: doc?.snapshot_version ?? 0,
    };
  }

  async save(shop: string, settings: SnapshotSettings): Promise<void> {
    await this.model.updateOne({ shop }, { $set: settings }, { upsert: true });
  }

  /**
   * Compare-and-set of the active ruleset: succeeds only if the current value
   * is still `expected`, so two concurrent toggles cannot both win.
   */
  async setActiveIf(shop: string, expected: string | null, next: string | null): Promise<boolean> {
    if (expected === null) {
      // The shop may have no document yet: create it with the value, or set it where still null.
      const existing = await this.model.findOne({ shop }).select({ _id: 1 }).lean();
      if (!existing) {
        try {
          await this.model.create({ shop, global_rule_id: next });
          return true;
        } catch (err) {
          if ((err as { code?: number }).code === 11000) return false;
          throw err;
        }
      }
    }
    const result = await this.model.updateOne(
      { shop, global_rule_id: expected },
      { $set: { global_rule_id: next } },
    );
    return result.modifiedCount === 1 || (result.matchedCount === 1 && expected === next);
  }

  /** Next snapshot version for the shop; marks the shop's snapshot as not yet published. */
  async nextSnapshotVersion(shop: string): Promise<number> {
    const doc = await this.model
      .findOneAndUpdate(
        { shop },
        { $inc: { snapshot_version: 1 }, $set: { snapshot_dirty: true } },
        { upsert: true, returnDocument: 'after' },
      )
      .lean();
    return doc!.snapshot_version;
  }

  /** Clears the dirty mark unless a newer version was taken meanwhile. */
  async markPublished(shop: string, version: number): Promise<void> {
    await this.model.updateOne(
      { shop, snapshot_version: version },
      { $set: { snapshot_dirty: false } },
    );
  }

  async dirtyShops(): Promise<string[]> {
    const docs = await this.model.find({ snapshot_dirty: true }).select({ shop: 1 }).lean();
    return docs.map((d) => d.shop);
  }

  async allShops(): Promise<{ shop: string; snapshotVersion: number }[]> {
    const docs = await this.model.find({}).select({ shop: 1, snapshot_version: 1 }).lean();
    return docs.map((d) => ({ shop: d.shop, snapshotVersion: d.snapshot_version ?? 0 }));
  }
}
