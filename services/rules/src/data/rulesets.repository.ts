import type { SnapshotFilter } from '@ratesmith/contracts';
import { Schema, type Connection } from 'mongoose';
import {
  filtersUpdate,
  packedFilterFields,
  packFilters,
  storedFilters,
  type PackedFilterDoc,
} from './packed-values';
import { OBJECT_ID } from './schemas';
import { ShopScopedRepository } from './shop-scoped.repository';

export interface RulesetRecord {
  id: string;
  name: string;
  position: number;
  filters: SnapshotFilter[];
  createdAt: Date;
}

/** A ruleset as the list shows it: its filters counted, not read. */
export interface RulesetSummary extends Omit<RulesetRecord, 'filters'> {
  filterCount: number;
}

interface RulesetDoc extends PackedFilterDoc {
  shop: string;
  name: string;
  position: number;
  /** filters.length, written with the filters: the list reads it instead of the whole list. */
  filter_count?: number;
  createdAt: Date;
}

const rulesetSchema = new Schema<RulesetDoc>(
  {
    shop: { type: String, required: true },
    name: { type: String, required: true },
    position: { type: Number, required: true },
    ...packedFilterFields,
    filter_count: { type: Number },
  },
  { collection: 'rulesets', timestamps: true, minimize: false },
);
rulesetSchema.index({ shop: 1, position: 1 });

function toRecord(doc: RulesetDoc & { _id: unknown }): RulesetRecord {
  return {
    id: String(doc._id),
    name: doc.name,
    position: doc.position,
    filters: storedFilters(doc),
    createdAt: doc.createdAt,
  };
}

/**
 * Every query is scoped by shop and id together; a foreign id is simply not found.
 * A ruleset is read by `_id` alone and its shop checked on the document, and
 * Save All writes by `_id` alone a ruleset such a read found (`replaceFilters`):
 * FerretDB on SQLite pushes down only a filter of `_id` alone and otherwise reads
 * every ruleset of every shop, filters included (docs/performance.md, "Saves and
 * their history"); on MongoDB both use the `_id` index.
 */
export class RulesetsRepository extends ShopScopedRepository<RulesetDoc> {
  constructor(conn: Connection) {
    super(conn.model<RulesetDoc>('Ruleset', rulesetSchema));
  }

  async list(shop: string): Promise<RulesetRecord[]> {
    const docs = await this.model.find({ shop }).sort({ position: 1, _id: 1 }).lean();
    return docs.map(toRecord);
  }

  /**
   * The shop's rulesets in order, without their filters (a 100-filter list is
   * most of a ruleset's bytes). Rulesets saved before filter_count existed
   * have their filters read, once, to count them.
   */
  async summaries(shop: string): Promise<RulesetSummary[]> {
    const docs = await this.model
      .find({ shop }, { filters: 0, filters_packed: 0 })
      .sort({ position: 1, _id: 1 })
      .lean();
    const uncounted = docs.filter((d) => d.filter_count === undefined).map((d) => d._id);
    const counted = new Map<string, number>();
    if (uncounted.length) {
      const full = await this.model
        .find({ _id: { $in: uncounted }, shop }, { filters: 1, filters_packed: 1 })
        .lean();
      for (const d of full) counted.set(String(d._id), storedFilters(d).length);
    }
    return docs.map(({ _id, name, position, createdAt, filter_count }) => ({
      id: String(_id),
      name,
      position,
      createdAt,
      filterCount: filter_count ?? counted.get(String(_id)) ?? 0,
    }));
  }

  async get(shop: string, id: string): Promise<RulesetRecord | undefined> {
    if (!OBJECT_ID.test(id)) return undefined;
    const doc = await this.model.findOne({ _id: id }).lean();
    return doc && doc.shop === shop ? toRecord(doc) : undefined;
  }

  async create(shop: string, name: string, filters: SnapshotFilter[] = []): Promise<RulesetRecord> {
    const last = await this.model
      .findOne({ shop })
      .sort({ position: -1 })
      .select({ position: 1 })
      .lean();
    const doc = await this.model.create({
      shop,
      name,
      position: (last?.position ?? 0) + 1,
      filters_packed: packFilters(filters),
      filter_count: filters.length,
    });
    return toRecord(doc.toObject());
  }

  async delete(shop: string, id: string): Promise<boolean> {
    if (!OBJECT_ID.test(id)) return false;
    const result = await this.model.deleteOne({ _id: id, shop });
    return result.deletedCount === 1;
  }

  /** Answers the renamed record, or undefined if not found. */
  async rename(shop: string, id: string, name: string): Promise<RulesetRecord | undefined> {
    if (!OBJECT_ID.test(id)) return undefined;
    const doc = await this.model
      .findOneAndUpdate({ _id: id, shop }, { $set: { name } }, { returnDocument: 'after' })
      .lean();
    return doc ? toRecord(doc) : undefined;
  }

  /**
   * One write replaces the whole list of `found`, a record `get(shop, …)` answered
   * (so the shop's own: the write goes by `_id` alone); answers the record with
   * the list as written (`filters` are canonical: stored as they are), or undefined
   * if it was deleted since.
   */
  async replaceFilters(
    found: RulesetRecord,
    filters: SnapshotFilter[],
  ): Promise<RulesetRecord | undefined> {
    const { $set, $unset } = filtersUpdate(filters);
    const result = await this.model.updateOne(
      { _id: found.id },
      { $set: { ...$set, filter_count: filters.length }, $unset },
    );
    return result.matchedCount === 1 ? { ...found, filters } : undefined;
  }
}
