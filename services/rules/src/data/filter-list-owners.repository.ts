import type { SnapshotFilter } from '@ratesmith/contracts';
import type { Model, QueryFilter, UpdateQuery } from 'mongoose';
import { filtersUpdate } from './packed-values';
import { OBJECT_ID } from './schemas';
import { ShopScopedRepository } from './shop-scoped.repository';

/**
 * A store of filter lists' owners (rulesets, product rules). One is read by `_id`
 * alone and its shop checked on the document: FerretDB pushes down only such a
 * filter (see RulesetsRepository). A malformed or foreign id is not found.
 */
export abstract class FilterListOwnersRepository<
  D extends { shop: string },
  R extends { id: string; filters: SnapshotFilter[] },
> extends ShopScopedRepository<D> {
  protected constructor(
    model: Model<D>,
    private readonly toRecord: (doc: D & { _id: unknown }) => R,
  ) {
    super(model);
  }

  async get(shop: string, id: string): Promise<R | undefined> {
    if (!OBJECT_ID.test(id)) return undefined;
    const doc = await this.model
      .findOne({ _id: id } as QueryFilter<D>)
      .lean<D & { _id: unknown }>();
    return doc && doc.shop === shop ? this.toRecord(doc) : undefined;
  }

  async delete(shop: string, id: string): Promise<boolean> {
    if (!OBJECT_ID.test(id)) return false;
    const result = await this.model.deleteOne({ _id: id, shop } as QueryFilter<D>);
    return result.deletedCount === 1;
  }

  /**
   * One write replaces the whole list of `found`, a record `get(shop, …)` answered
   * (so the shop's own: the write goes by `_id` alone); answers the record with
   * the list as written (`filters` are canonical: stored as they are), or undefined
   * if it was deleted since.
   */
  async replaceFilters(found: R, filters: SnapshotFilter[]): Promise<R | undefined> {
    const { $set, $unset } = filtersUpdate(filters);
    const result = await this.model.updateOne(
      { _id: found.id } as QueryFilter<D>,
      {
        $set: { ...$set, ...this.alsoSet(filters) },
        $unset,
      } as UpdateQuery<D>,
    );
    return result.matchedCount === 1 ? { ...found, filters } : undefined;
  }

  /** What an owner writes with its list besides the list (nothing by default). */
  protected alsoSet(_filters: SnapshotFilter[]): Partial<D> {
    return {};
  }
}
