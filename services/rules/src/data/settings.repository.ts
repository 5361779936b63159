import { isDuplicateKey, retryOnDuplicateKey } from '@ratesmith/kit';
import { Schema, type Connection } from 'mongoose';
import { DEFAULT_SETTINGS, type SnapshotSettings } from '@ratesmith/contracts';
import { ShopScopedRepository } from './shop-scoped.repository';

/**
 * One document per shop: its settings and the active ruleset (a single field,
 * so "only one ruleset enabled" holds by construction).
 */
interface ShopSettingsDoc extends SnapshotSettings {
  shop: string;
  global_rule_id: string | null;
  /** The shop's carrier-callback key (set by the auth service after install). */
  rate_key: string | null;
  /** The shop's shadow (docs/shopify.md, "Shadow mode"); null: none. */
  shadow: ShadowState | null;
  /** The last go-live while it can be undone; null: none. */
  go_live: GoLiveState | null;
}

/** A ruleset run in shadow and the native rates it is compared with. */
export interface ShadowState {
  ruleset_id: string;
  /** The location group checkout ships from, as JSON (nativeLocationGroupSchema). */
  native_json: string;
  started_at: Date;
}

/** What a go-live changed, so its undo puts it back (docs/shopify.md, "Shadow mode"). */
export interface GoLiveState {
  ruleset_id: string;
  /** The ruleset enabled before; null: none. */
  enabled_before: string | null;
  /** The shadow it ended, as it was: the undo starts it again, its carts kept. */
  shadow: ShadowState;
  /** The native rates it turns off, as JSON (nativeRatesOffSchema); "[]": none. */
  turn_off_json: string;
  at: Date;
  user: string;
}

const shadowSchema = new Schema<ShadowState>(
  {
    ruleset_id: { type: String, required: true },
    native_json: { type: String, required: true },
    started_at: { type: Date, required: true },
  },
  { _id: false },
);

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
    fallback_enabled: { type: Boolean, default: false },
    fallback_name: { type: String, default: '' },
    fallback_description: { type: String, default: '' },
    fallback_cost: { type: Number, default: 0 },
    recent_checkouts_enabled: { type: Boolean, default: DEFAULT_SETTINGS.recent_checkouts_enabled },
    recent_checkouts_per_minute: {
      type: Number,
      default: DEFAULT_SETTINGS.recent_checkouts_per_minute,
    },
    recent_checkouts_days: { type: Number, default: DEFAULT_SETTINGS.recent_checkouts_days },
    // The delivery calendar, windows and upgrades (docs/rates.md); validated before they are written.
    timezone: { type: String, default: DEFAULT_SETTINGS.timezone },
    business_days: { type: [Number], default: undefined },
    holidays: { type: [String], default: undefined },
    cutoff_time: { type: String, default: null },
    processing_days: { type: Number, default: DEFAULT_SETTINGS.processing_days },
    delivery_min_days: { type: Number, default: null },
    delivery_max_days: { type: Number, default: null },
    bump_delivery_min_days: { type: Number, default: null },
    bump_delivery_max_days: { type: Number, default: null },
    upgrades: { type: Schema.Types.Mixed, default: undefined },
    global_rule_id: { type: String, default: null },
    rate_key: { type: String, default: null },
    shadow: { type: shadowSchema, default: null },
    go_live: {
      type: new Schema<GoLiveState>(
        {
          ruleset_id: { type: String, required: true },
          enabled_before: { type: String, default: null },
          shadow: { type: shadowSchema, required: true },
          turn_off_json: { type: String, required: true },
          at: { type: Date, required: true },
          user: { type: String, default: '' },
        },
        { _id: false },
      ),
      default: null,
    },
  },
  { collection: 'shop_settings', timestamps: true, minimize: false },
);
settingsSchema.index({ shop: 1 }, { unique: true });

export interface ShopState {
  settings: SnapshotSettings;
  globalRuleId: string | null;
  rateKey: string | null;
  shadow: ShadowState | null;
  goLive: GoLiveState | null;
}

/**
 * The stored settings: each field the document lacks (older documents) or
 * holds as null takes its default; an action outside the two known reads as none.
 */
function pickSettings(doc: Partial<SnapshotSettings>): SnapshotSettings {
  // A copy: the defaults' arrays are not to be shared with a caller that edits.
  const settings: Record<string, unknown> = structuredClone(DEFAULT_SETTINGS);
  for (const key of Object.keys(settings)) {
    const value = doc[key as keyof SnapshotSettings];
    if (value !== undefined && value !== null) settings[key] = value;
  }
  const { bump_shipping_action: action } = doc;
  return {
    ...(settings as unknown as SnapshotSettings),
    bump_shipping_action: action === 1 || action === 2 ? action : null,
  };
}

export class SettingsRepository extends ShopScopedRepository<ShopSettingsDoc> {
  constructor(conn: Connection) {
    super(conn.model<ShopSettingsDoc>('ShopSettings', settingsSchema));
  }

  /** A shop that never saved anything has the defaults. */
  async get(shop: string): Promise<ShopState> {
    const doc = await this.model.findOne({ shop }).lean();
    return {
      settings: pickSettings(doc ?? {}),
      globalRuleId: doc?.global_rule_id ?? null,
      rateKey: doc?.rate_key ?? null,
      shadow: doc?.shadow ?? null,
      goLive: doc?.go_live ?? null,
    };
  }

  /** Sets (or, with null, clears) the shop's rate key; true when that changed anything. */
  async setRateKey(shop: string, rateKey: string | null): Promise<boolean> {
    const result = await retryOnDuplicateKey(() =>
      this.model.updateOne({ shop }, { $set: { rate_key: rateKey } }, { upsert: rateKey !== null }),
    );
    return result.modifiedCount > 0 || result.upsertedCount > 0;
  }

  /** Sets (or, with null, clears) the shop's shadow. */
  async setShadow(shop: string, shadow: ShadowState | null): Promise<void> {
    await retryOnDuplicateKey(() =>
      this.model.updateOne({ shop }, { $set: { shadow } }, { upsert: shadow !== null }),
    );
  }

  /**
   * Go live in one write: the ruleset enabled, the shadow ended, the record
   * kept; only while the enabled ruleset and the shadow are still those read
   * (false: something changed in between).
   */
  async goLive(shop: string, record: GoLiveState): Promise<boolean> {
    const result = await this.model.updateOne(
      {
        shop,
        global_rule_id: record.enabled_before,
        'shadow.started_at': record.shadow.started_at,
      },
      { $set: { global_rule_id: record.ruleset_id, shadow: null, go_live: record } },
    );
    return result.matchedCount === 1;
  }

  /** The undo of `record` in one write: the shadow back, the ruleset enabled before, no record. */
  async undoGoLive(shop: string, record: GoLiveState): Promise<boolean> {
    const result = await this.model.updateOne(
      { shop, 'go_live.at': record.at },
      { $set: { global_rule_id: record.enabled_before, shadow: record.shadow, go_live: null } },
    );
    return result.matchedCount === 1;
  }

  /** Forgets the go-live record (a new shadow replaces what it could undo). */
  async clearGoLive(shop: string): Promise<void> {
    await this.model.updateOne({ shop }, { $set: { go_live: null } });
  }

  /** Writes the settings; answers those they replaced (the defaults for a new shop), in one command. */
  async save(shop: string, settings: SnapshotSettings): Promise<SnapshotSettings> {
    const before = await retryOnDuplicateKey(() =>
      this.model
        .findOneAndUpdate({ shop }, { $set: settings }, { upsert: true, returnDocument: 'before' })
        .lean(),
    );
    return pickSettings(before ?? {});
  }

  /** The settings and the active ruleset in one write (an import's switch to its rules). */
  async replace(
    shop: string,
    settings: SnapshotSettings,
    globalRuleId: string | null,
  ): Promise<void> {
    await retryOnDuplicateKey(() =>
      this.model.updateOne(
        { shop },
        { $set: { ...settings, global_rule_id: globalRuleId } },
        { upsert: true },
      ),
    );
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
          if (isDuplicateKey(err)) return false;
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
}
