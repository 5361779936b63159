import type { SnapshotFilter, SnapshotSettings } from '@ratesmith/contracts';
import { retryOnDuplicateKey } from '@ratesmith/kit';
import { Schema, type Types, type Connection, type Model } from 'mongoose';
import { packValue, unpackValue, type PackedBytes } from './packed-values';
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
  /** `<shop>/<kind>/<subject>/<number>` (lineKey); an ObjectId for lines written before. */
  _id?: string | Types.ObjectId;
  shop: string;
  contentId?: string | Types.ObjectId;
  content?: VersionContent;
}

interface ContentDoc {
  _id: string | Types.ObjectId;
  shop: string;
  /** The content packed (packValue, as filter lists are: the database never looks inside). */
  content_packed?: PackedBytes;
  /** The content as nested documents, as written before packing. */
  content?: VersionContent;
}

/**
 * A subject's version counter: the last number taken, and the highest number
 * of the lines written before counters existed (their ids are ObjectIds, so
 * they are pruned by the old query until the subject is past them).
 */
interface CounterDoc {
  _id: string;
  shop: string;
  last: number;
  legacy: number;
  /** The versions through this number were pruned (see prune). */
  pruned?: number;
}

/**
 * Versions kept per subject. Older ones are hidden from every read at once and
 * deleted once the shop is quiet (VersionPruning, docs/architecture.md).
 */
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
    _id: { type: Schema.Types.Mixed },
    contentId: { type: Schema.Types.Mixed },
    content: { type: Schema.Types.Mixed },
  },
  { collection: 'versions', minimize: false },
);
// Numbers are unique per subject: two concurrent saves cannot take the same one.
versionSchema.index({ shop: 1, kind: 1, subjectId: 1, number: -1 }, { unique: true });
versionSchema.index({ shop: 1, checkout: 1, at: -1 });

const contentSchema = new Schema<ContentDoc>(
  {
    _id: { type: Schema.Types.Mixed },
    shop: { type: String, required: true },
    content_packed: { type: Buffer },
    content: { type: Schema.Types.Mixed },
  },
  { collection: 'version_contents', minimize: false },
);
contentSchema.index({ shop: 1 });

const counterSchema = new Schema<CounterDoc>(
  {
    _id: { type: String },
    shop: { type: String, required: true },
    last: { type: Number, required: true },
    legacy: { type: Number, default: 0 },
    pruned: { type: Number, default: 0 },
  },
  { collection: 'version_counters', minimize: false },
);
counterSchema.index({ shop: 1 });

/** A subject's counter id; shop domains and subject ids hold no `/`. */
const subjectKey = (shop: string, kind: VersionKind, subjectId: string) =>
  `${shop}/${kind}/${subjectId}`;
/** The id of version `number`'s line and of its content. */
const lineKey = (subject: string, number: number) => `${subject}/${number}`;

const SUMMARY_FIELDS = { content: 0, contentId: 0, shop: 0, _id: 0 } as const;

/**
 * The saved versions of each ruleset, product rule and settings. A version is
 * written after the save it records (domain/versions.ts), so a crash between the two
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
 *
 * Writing a version addresses every document by `_id` alone: a counter per
 * subject gives the number, the line and its content take ids made of the
 * subject and the number, and the prune deletes the one version that fell
 * off by those ids. FerretDB on SQLite, which stands in for MongoDB locally,
 * pushes down to SQLite only a filter of `_id` alone and reads every document
 * of the collection for anything else (docs/performance.md, "Saves and their
 * history"), so a version's write costs the same after 50 versions of 50
 * subjects as on a new shop.
 */
export class VersionHistoryRepository extends ShopScopedRepository<VersionDoc> {
  private readonly contents: Model<ContentDoc>;
  private readonly counters: Model<CounterDoc>;

  constructor(conn: Connection) {
    super(conn.model<VersionDoc>('Version', versionSchema));
    this.contents = conn.model<ContentDoc>('VersionContent', contentSchema);
    this.counters = conn.model<CounterDoc>('VersionCounter', counterSchema);
  }

  override async buildIndexes(): Promise<void> {
    await Promise.all([
      super.buildIndexes(),
      this.contents.createIndexes(),
      this.counters.createIndexes(),
    ]);
  }

  override async deleteShop(shop: string): Promise<void> {
    await this.model.deleteMany({ shop });
    await this.contents.deleteMany({ shop });
    await this.counters.deleteMany({ shop });
  }

  /**
   * Appends the subject's next version: 3 commands (counter, content, line), each
   * by `_id`. What falls past the newest VERSIONS_KEPT is hidden from the reads
   * and deleted later (prune); lines written before counters are removed here.
   */
  async add(shop: string, version: NewVersion): Promise<VersionRecord> {
    const { kind, subjectId, content, ...line } = version;
    const subject = subjectKey(shop, kind, subjectId);
    const { record, legacy } = await retryOnDuplicateKey(async () => {
      const { number, legacy } = await this.nextNumber(shop, kind, subjectId);
      const id = lineKey(subject, number);
      // Two writers given one number (FerretDB's $inc is not atomic) collide here: the loser
      // takes the next number.
      await this.contents.create({ _id: id, shop, content_packed: packValue(content) });
      const doc = { ...line, kind, subjectId, number, at: new Date() };
      try {
        await this.model.create({ ...doc, _id: id, shop, contentId: id });
      } catch (err) {
        // A line written before counters holds the number: give it back and take the next one.
        await this.contents.deleteOne({ _id: id });
        throw err;
      }
      return { record: doc, legacy };
    }, 5);
    // Lines written before counters fall off here, by the old query, until they are all gone.
    const gone = record.number - VERSIONS_KEPT;
    if (gone > 0 && gone <= legacy)
      await this.remove({ shop, kind, subjectId, number: { $lte: gone } });
    return { ...record, content };
  }

  /**
   * Deletes the oldest `atMost` of the subject's versions past the newest
   * VERSIONS_KEPT that earlier prunes left, each line and its content by `_id`,
   * and records how far it got in the subject's counter; answers how many it
   * deleted and how many are left. A crash in between only leaves versions the
   * reads already hide, deleted by the next prune.
   */
  async prune(
    shop: string,
    kind: VersionKind,
    subjectId: string,
    atMost: number,
  ): Promise<{ deleted: number; left: number }> {
    const subject = subjectKey(shop, kind, subjectId);
    const counter = await this.counters.findOne({ _id: subject }).lean();
    if (!counter) return { deleted: 0, left: 0 };
    const gone = counter.last - VERSIONS_KEPT;
    const from = Math.max(counter.pruned ?? 0, counter.legacy ?? 0);
    const through = Math.min(gone, from + atMost);
    for (let number = from + 1; number <= through; number++) {
      const id = lineKey(subject, number);
      await this.model.deleteOne({ _id: id });
      await this.contents.deleteOne({ _id: id });
    }
    if (through > from)
      await this.counters.updateOne({ _id: subject }, { $max: { pruned: through } });
    return { deleted: Math.max(0, through - from), left: Math.max(0, gone - through) };
  }

  /** The oldest number the reads show: the newest VERSIONS_KEPT only. */
  private async oldestKept(shop: string, kind: VersionKind, subjectId: string): Promise<number> {
    const counter = await this.counters.findOne({ _id: subjectKey(shop, kind, subjectId) }).lean();
    return counter ? counter.last - VERSIONS_KEPT + 1 : 1;
  }

  /**
   * The subject's next number from its counter. A subject without one (new, or with
   * versions written before counters) starts it past its newest line: one query of
   * the lines, once per subject.
   */
  private async nextNumber(
    shop: string,
    kind: VersionKind,
    subjectId: string,
  ): Promise<{ number: number; legacy: number }> {
    const _id = subjectKey(shop, kind, subjectId);
    const taken = await this.counters
      .findOneAndUpdate({ _id }, { $inc: { last: 1 } }, { returnDocument: 'after' })
      .lean();
    if (taken) return { number: taken.last, legacy: taken.legacy ?? 0 };
    const legacy = (await this.latest(shop, kind, subjectId))?.number ?? 0;
    // Two first versions at once: the second create fails on the _id and is tried again.
    await this.counters.create({ _id, shop, last: legacy + 1, legacy });
    return { number: legacy + 1, legacy };
  }

  /** The kept versions, newest first, without their content. */
  async list(shop: string, kind: VersionKind, subjectId: string): Promise<VersionRecord[]> {
    return this.model
      .find({ shop, kind, subjectId }, SUMMARY_FIELDS)
      .sort({ number: -1 })
      .limit(VERSIONS_KEPT)
      .lean<VersionRecord[]>();
  }

  /** Version `number`, if it is still kept. */
  async get(
    shop: string,
    kind: VersionKind,
    subjectId: string,
    number: number,
  ): Promise<VersionRecord | undefined> {
    return this.newestKept({ shop, kind, subjectId, number });
  }

  /** The newest kept version before `number`, if any. */
  async before(
    shop: string,
    kind: VersionKind,
    subjectId: string,
    number: number,
  ): Promise<VersionRecord | undefined> {
    return this.newestKept({ shop, kind, subjectId, number: { $lt: number } });
  }

  /** The newest version the filter matches, with its content; none when it is older than the kept ones. */
  private async newestKept(filter: {
    shop: string;
    kind: VersionKind;
    subjectId: string;
    number: number | { $lt: number };
  }): Promise<VersionRecord | undefined> {
    const [doc, oldest] = await Promise.all([
      this.model.findOne(filter).sort({ number: -1 }).lean<VersionDoc>(),
      this.oldestKept(filter.shop, filter.kind, filter.subjectId),
    ]);
    return doc && doc.number >= oldest ? await this.withContent(doc) : undefined;
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
    await this.counters.deleteOne({ _id: subjectKey(shop, kind, subjectId) });
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
    // By `_id` alone (see the class comment); the shop is checked on the document.
    const found = contentId && (await this.contents.findOne({ _id: contentId }).lean());
    const content = inline ?? (found && found.shop === shop ? storedContent(found) : undefined);
    return content ? { ...line, content } : undefined;
  }
}

/** A content document's content, packed or as written before packing. */
function storedContent(doc: ContentDoc): VersionContent | undefined {
  return doc.content_packed ? (unpackValue(doc.content_packed) as VersionContent) : doc.content;
}
