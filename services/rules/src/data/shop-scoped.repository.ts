import type { Model, QueryFilter } from 'mongoose';

/**
 * What every store of the rules service shares: its collection is keyed by shop,
 * so it can build its indexes and forget a shop without the caller touching its
 * model (the model stays inside the repository).
 */
export abstract class ShopScopedRepository<D extends { shop: string }> {
  protected constructor(protected readonly model: Model<D>) {}

  async buildIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  /** How many the shop has (the per-shop limits of proto/src/filters/limits.ts). */
  async count(shop: string): Promise<number> {
    return this.model.countDocuments({ shop } as QueryFilter<D>);
  }

  /** shop/redact: every document of the shop. */
  async deleteShop(shop: string): Promise<void> {
    await this.model.deleteMany({ shop } as QueryFilter<D>);
  }
}
