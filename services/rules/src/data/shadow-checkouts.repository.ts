import type { ShadowCartJson } from '@ratesmith/contracts';
import { Schema, type Connection } from 'mongoose';
import { cartLineSchema } from './schemas';
import { ShopScopedRepository } from './shop-scoped.repository';

/**
 * The carts a shop's shadow saw (docs/shopify.md, "Shadow mode"): what its
 * ruleset would have answered and the native rate checkout showed, its
 * SHADOW_PER_SHOP newest kept, all deleted when the shadow stops or a new one
 * starts. Figures only, as recent checkouts: the country is the only part of
 * the address, and nothing names the customer.
 */
export const SHADOW_PER_SHOP = 5_000;

/** A shadow cart as stored: the contract's shape, with its shop and a Date. */
export type ShadowCheckoutRecord = Omit<ShadowCartJson, 'at'> & { shop: string; at: Date };

const rate = new Schema({ name: String, cents: Number }, { _id: false });

const shadowSchema = new Schema<ShadowCheckoutRecord>(
  {
    shop: { type: String, required: true },
    at: { type: Date, required: true },
    country: { type: String, default: '' },
    currency: { type: String, default: '' },
    lines: { type: [cartLineSchema], default: [] },
    ratesmith: { type: rate, default: null },
    native: { type: rate, default: null },
    verdict: { type: String, required: true },
    difference: { type: Number, default: null },
  },
  { collection: 'shadow_checkouts' },
);
shadowSchema.index({ shop: 1, at: -1 });

export class ShadowCheckoutsRepository extends ShopScopedRepository<ShadowCheckoutRecord> {
  constructor(conn: Connection) {
    super(conn.model<ShadowCheckoutRecord>('ShadowCheckout', shadowSchema));
  }

  /** Stores the shop's new carts, then keeps only its SHADOW_PER_SHOP newest. */
  async add(shop: string, checkouts: ShadowCheckoutRecord[]): Promise<void> {
    await this.model.insertMany(checkouts);
    await this.keepNewest(shop, SHADOW_PER_SHOP);
  }

  /** The shop's carts since `since`, oldest first. */
  async list(shop: string, since: Date): Promise<ShadowCheckoutRecord[]> {
    const docs = await this.model
      .find({ shop, at: { $gte: since } })
      .select({ _id: 0, __v: 0 })
      .sort({ at: 1 })
      .limit(SHADOW_PER_SHOP)
      .lean();
    return docs.map((d) => ({
      shop: d.shop,
      at: d.at,
      country: d.country,
      currency: d.currency,
      lines: d.lines,
      ratesmith: d.ratesmith ?? null,
      native: d.native ?? null,
      verdict: d.verdict,
      difference: d.difference ?? null,
    }));
  }
}
