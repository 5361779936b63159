import type { SnapshotFilter } from '@ratesmith/contracts';
import { Schema, type Connection } from 'mongoose';
import {
  packedFilterFields,
  packFilters,
  storedFilters,
  type PackedFilterDoc,
} from './packed-values';
import { OBJECT_ID } from './schemas';
import { FilterListOwnersRepository } from './filter-list-owners.repository';

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
export class RulesetsRepository extends FilterListOwnersRepository<RulesetDoc, RulesetRecord> {
  constructor(conn: Connection) {
    super(conn.model<RulesetDoc>('Ruleset', rulesetSchema), toRecord);
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

  /** Answers the renamed record, or undefined if not found. */
  async rename(shop: string, id: string, name: string): Promise<RulesetRecord | undefined> {
    if (!OBJECT_ID.test(id)) return undefined;
    const doc = await this.model
      .findOneAndUpdate({ _id: id, shop }, { $set: { name } }, { returnDocument: 'after' })
      .lean();
    return doc ? toRecord(doc) : undefined;
  }

  /** The list's count is written with it: the list reads it instead of the whole list. */
  protected override alsoSet(filters: SnapshotFilter[]): Partial<RulesetDoc> {
    return { filter_count: filters.length };
  }
}
