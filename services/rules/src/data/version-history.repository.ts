import type { SnapshotFilter, SnapshotSettings } from '@ratesmith/contracts';
import { retryOnDuplicateKey } from '@ratesmith/kit';
import { Schema, type Connection } from 'mongoose';
import { ShopScopedRepository } from './shop-scoped.repository';

export type VersionKind = 'ruleset' | 'product_rule' | 'settings';
/** The subjects whose versions are filter lists: listed, compared and restored through the API. */
export type FilterVersionKind = Exclude<VersionKind, 'settings'>;
export type VersionEvent = 'save' | 'restore' | 'rename' | 'enable' | 'disable';

/** What was saved, whole: a restore needs nothing else. */
export interface VersionContent {
  name?: string;
  filters?: SnapshotFilter[];
  settings?: SnapshotSettings;
}

export interface NewVersion {
  kind: VersionKind;
  subjectId: string;
  subjectName: string;
  user: string;
  event: VersionEvent;
  summary: string;
  /** The change reached checkout: the ruleset was the active one, or a rule or settings in use. */
  checkout: boolean;
  content: VersionContent;
}

export interface VersionRecord extends NewVersion {
  number: number;
  at: Date;
}

interface VersionDoc extends VersionRecord {
  shop: string;
}

/** Versions kept per subject; older ones are pruned after each new one (docs/architecture.md). */
export const VERSIONS_KEPT = 50;

const versionSchema = new Schema<VersionDoc>(
  {
    shop: { type: String, required: true },
    kind: { type: String, required: true },
    subjectId: { type: String, required: true },
    subjectName: { type: String, default: '' },
    number: { type: Number, required: true },
    at: { type: Date, required: true },
    user: { type: String, default: '' },
    event: { type: String, required: true },
    summary: { type: String, default: '' },
    checkout: { type: Boolean, default: false },
    content: { type: Schema.Types.Mixed, required: true },
  },
  { collection: 'versions', minimize: false },
);
// Numbers are unique per subject: two concurrent saves cannot take the same one.
versionSchema.index({ shop: 1, kind: 1, subjectId: 1, number: -1 }, { unique: true });
versionSchema.index({ shop: 1, checkout: 1, at: -1 });

const SUMMARY_FIELDS = { content: 0, shop: 0, _id: 0 } as const;

/**
 * The saved versions of each ruleset, product rule and settings. A version is
 * written after the save it records (rules-app.ts), so a crash between the two
 * loses a history line, never the merchant's save, and the list never shows a
 * version that was not saved.
 */
export class VersionHistoryRepository extends ShopScopedRepository<VersionDoc> {
  constructor(conn: Connection) {
    super(conn.model<VersionDoc>('Version', versionSchema));
  }

  /** Appends the subject's next version and prunes beyond the newest VERSIONS_KEPT. */
  async add(shop: string, version: NewVersion): Promise<VersionRecord> {
    const { kind, subjectId } = version;
    const record = await retryOnDuplicateKey(async () => {
      const last = await this.latest(shop, kind, subjectId);
      const doc = { ...version, shop, number: (last?.number ?? 0) + 1, at: new Date() };
      await this.model.create(doc);
      return doc;
    }, 5);
    await this.model.deleteMany({
      shop,
      kind,
      subjectId,
      number: { $lte: record.number - VERSIONS_KEPT },
    });
    const { shop: _shop, ...rest } = record;
    return rest;
  }

  /** Newest first, without their content. */
  async list(shop: string, kind: VersionKind, subjectId: string): Promise<VersionRecord[]> {
    return this.model
      .find({ shop, kind, subjectId }, SUMMARY_FIELDS)
      .sort({ number: -1 })
      .lean<VersionRecord[]>();
  }

  async get(
    shop: string,
    kind: VersionKind,
    subjectId: string,
    number: number,
  ): Promise<VersionRecord | undefined> {
    const doc = await this.model.findOne({ shop, kind, subjectId, number }, { _id: 0 }).lean();
    return doc ?? undefined;
  }

  /** The newest kept version before `number`, if any. */
  async before(
    shop: string,
    kind: VersionKind,
    subjectId: string,
    number: number,
  ): Promise<VersionRecord | undefined> {
    const doc = await this.model
      .findOne({ shop, kind, subjectId, number: { $lt: number } }, { _id: 0 })
      .sort({ number: -1 })
      .lean();
    return doc ?? undefined;
  }

  /** The changes that reached checkout, newest first. */
  async activity(shop: string, limit: number): Promise<VersionRecord[]> {
    return this.model
      .find({ shop, checkout: true }, SUMMARY_FIELDS)
      .sort({ at: -1, number: -1 })
      .limit(limit)
      .lean<VersionRecord[]>();
  }

  /** A deleted ruleset or product rule takes its history along. */
  async deleteSubject(shop: string, kind: VersionKind, subjectId: string): Promise<void> {
    await this.model.deleteMany({ shop, kind, subjectId });
  }

  private async latest(shop: string, kind: VersionKind, subjectId: string) {
    return this.model.findOne({ shop, kind, subjectId }, { number: 1 }).sort({ number: -1 }).lean();
  }
}
