import { MongoStore } from '@ratesmith/kit';
import type { Model, QueryFilter } from 'mongoose';

/**
 * What every store of the rules service shares: its collection is keyed by shop,
 * so it can build its indexes and forget a shop without the caller touching its
 * model (the model stays inside the repository).
 */
export abstract class ShopScopedRepository<D extends { shop: string }> extends MongoStore<D> {
  /**
   * `expiresAtField`: for a store whose documents expire, the date field after
   * which MongoDB deletes each one (a TTL index; see ensureTtlIndex in
   * services/kit/src/mongo.ts for FerretDB, which has none).
   */
  protected constructor(model: Model<D>, expiresAtField?: keyof D & string) {
    super(model, expiresAtField ? { field: expiresAtField, seconds: 0 } : undefined);
  }

  /** How many the shop has (the per-shop limits of proto/src/filters/limits.ts). */
  async count(shop: string): Promise<number> {
    return this.model.countDocuments({ shop } as QueryFilter<D>);
  }

  /**
   * Keeps only the shop's `count` newest documents (by their `at` date) for a
   * store that keeps a shop's latest few. Those of the same instant as the
   * oldest kept one stay: a few more, never fewer.
   */
  protected async keepNewest(
    this: ShopScopedRepository<D & { at: Date }>,
    shop: string,
    count: number,
  ): Promise<void> {
    const kept = await this.model
      .find({ shop } as QueryFilter<D>)
      .sort({ at: -1 })
      .skip(count - 1)
      .limit(1)
      .select({ at: 1 })
      .lean<{ at: Date }[]>();
    const oldestKept = kept[0];
    if (oldestKept)
      await this.model.deleteMany({ shop, at: { $lt: oldestKept.at } } as QueryFilter<D>);
  }

  /** shop/redact: every document of the shop. */
  async deleteShop(shop: string): Promise<void> {
    await this.model.deleteMany({ shop } as QueryFilter<D>);
  }
}
