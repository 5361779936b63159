import type { SnapshotFilter, SnapshotSettings } from '@ratesmith/contracts';
import { retryOnDuplicateKey } from '@ratesmith/kit';
import { Schema, Types, type Connection, type Model } from 'mongoose';
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

/**
 * A version's line in the `versions` collection: everything but its content,
 * which is in `version_contents` under `contentId`. Versions written before
 * that split hold their content here instead (read as it is; pruned in time).
 */
interface VersionDoc extends Omit<VersionRecord, 'content'> {
  shop: string;
  contentId?: Types.ObjectId;
  content?: VersionContent;
}

interface ContentDoc {
  _id: Types.ObjectId;
  shop: string;
  content: VersionContent;
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
    contentId: { type: Schema.Types.ObjectId },
    content: { type: Schema.Types.Mixed },
  },
  { collection: 'versions', minimize: false },
);
// Numbers are unique per subject: two concurrent saves cannot take the same one.
versionSchema.index({ shop: 1, kind: 1, subjectId: 1, number: -1 }, { unique: true });
versionSchema.index({ shop: 1, checkout: 1, at: -1 });

const contentSchema = new Schema<ContentDoc>(
  {
    shop: { type: String, required: true },
    content: { type: Schema.Types.Mixed, required: true },
  },
  { collection: 'version_contents', minimize: false },
);
contentSchema.index({ shop: 1 });

const SUMMARY_FIELDS = { content: 0, contentId: 0, shop: 0, _id: 0 } as const;

/**
 * The saved versions of each ruleset, product rule and settings. A version is
 * written after the save it records (rules-app.ts), so a crash between the two
 * loses a history line, never the merchant's save, and the list never shows a
 * version that was not saved.
 *
 * A version's content (a whole filter list, up to a few hundred KB) is kept in
 * its own collection, read only by its id: the history's queries (the next
 * number, the list, the prune, the activity) then read small documents. On
 * FerretDB, which reads every document a query may match whole, they had read
 * every kept filter list (docs/performance.md, "The admin API under load").
 * The content is written first; a crash before its line leaves an unreferenced
 * content document, removed with the shop.
 */
export class VersionHistoryRepository extends ShopScopedRepository<VersionDoc> {
  private readonly contents: Model<ContentDoc>;

  constructor(conn: Connection) {
    super(conn.model<VersionDoc>('Version', versionSchema));
    this.contents = conn.model<ContentDoc>('VersionContent', contentSchema);
  }

  override async buildIndexes(): Promise<void> {
    await Promise.all([super.buildIndexes(), this.contents.createIndexes()]);
  }

  override async deleteShop(shop: string): Promise<void> {
    await this.model.deleteMany({ shop });
    await this.contents.deleteMany({ shop });
  }

  /** Appends the subject's next version and prunes beyond the newest VERSIONS_KEPT. */
  async add(shop: string, version: NewVersion): Promise<VersionRecord> {
    const { kind, subjectId, content, ...line } = version;
    const contentId = new Types.ObjectId();
    await this.contents.create({ _id: contentId, shop, content });
    const record = await retryOnDuplicateKey(async () => {
      const last = await this.latest(shop, kind, subjectId);
      const doc = { ...line, kind, subjectId, number: (last?.number ?? 0) + 1, at: new Date() };
      await this.model.create({ ...doc, shop, contentId });
      return doc;
    }, 5);
    // Nothing to prune until the subject has more than it keeps.
    if (record.number > VERSIONS_KEPT) {
      await this.remove({ shop, kind, subjectId, number: { $lte: record.number - VERSIONS_KEPT } });
    }
    return { ...record, content };
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
    const doc = await this.model.findOne({ shop, kind, subjectId, number }).lean<VersionDoc>();
    return doc ? await this.withContent(doc) : undefined;
  }

  /** The newest kept version before `number`, if any. */
  async before(
    shop: string,
    kind: VersionKind,
    subjectId: string,
    number: number,
  ): Promise<VersionRecord | undefined> {
    const doc = await this.model
      .findOne({ shop, kind, subjectId, number: { $lt: number } })
      .sort({ number: -1 })
      .lean<VersionDoc>();
    return doc ? await this.withContent(doc) : undefined;
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
    await this.remove({ shop, kind, subjectId });
  }

  private async latest(shop: string, kind: VersionKind, subjectId: string) {
    return this.model.findOne({ shop, kind, subjectId }, { number: 1 }).sort({ number: -1 }).lean();
  }

  /** Version lines, then their contents: a crash in between leaves no line without its content. */
  private async remove(filter: {
    shop: string;
    kind: VersionKind;
    subjectId: string;
    number?: { $lte: number };
  }): Promise<void> {
    const lines = await this.model.find(filter, { contentId: 1 }).lean();
    const ids = lines.flatMap((l) => (l.contentId ? [l.contentId] : []));
    await this.model.deleteMany(filter);
    if (ids.length) await this.contents.deleteMany({ shop: filter.shop, _id: { $in: ids } });
  }

  /**
   * The version as the API gives it: its content from its own document (or from
   * the line, for versions written before the split). None without a content:
   * restoring an empty one would empty the subject.
   */
  private async withContent(doc: VersionDoc): Promise<VersionRecord | undefined> {
    const { shop, contentId, content: inline, ...line } = doc;
    delete (line as { _id?: unknown })._id;
    const content =
      inline ??
      (contentId &&
        (await this.contents.findOne({ _id: contentId, shop }, { content: 1 }).lean())?.content);
    return content ? { ...line, content } : undefined;
  }
}
