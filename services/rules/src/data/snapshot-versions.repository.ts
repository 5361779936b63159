import { retryOnDuplicateKey } from '@ratesmith/kit';
import { Schema, type Connection } from 'mongoose';
import { ShopScopedRepository } from './shop-scoped.repository';

/**
 * The per-shop snapshot version counter, in its own collection so counting
 * never rewrites a shop's settings. `dirty` is set with each new version and
 * cleared once that version reached the bucket; the retry loop looks for it.
 */
interface SnapshotVersionDoc {
  shop: string;
  version: number;
  dirty: boolean;
}

const snapshotVersionSchema = new Schema<SnapshotVersionDoc>(
  {
    shop: { type: String, required: true },
    version: { type: Number, default: 0 },
    dirty: { type: Boolean, default: false },
  },
  { collection: 'snapshot_versions', timestamps: true },
);
snapshotVersionSchema.index({ shop: 1 }, { unique: true });
snapshotVersionSchema.index({ dirty: 1 });

export class SnapshotVersionsRepository extends ShopScopedRepository<SnapshotVersionDoc> {
  constructor(conn: Connection) {
    super(conn.model<SnapshotVersionDoc>('SnapshotVersion', snapshotVersionSchema));
  }

  /**
   * The shop's next version, marked not yet published. A change takes it before
   * it writes (SnapshotPublisher.change): a crash between the write and the
   * publish then leaves the mark for the retry loop.
   */
  async next(shop: string): Promise<number> {
    const doc = await retryOnDuplicateKey(() =>
      this.model
        .findOneAndUpdate(
          { shop },
          { $inc: { version: 1 }, $set: { dirty: true } },
          { upsert: true, returnDocument: 'after' },
        )
        .lean(),
    );
    return doc!.version;
  }

  /**
   * Moves the counter to at least `version`, marked not yet published: after a restore
   * from a backup the bucket can hold versions the restored counter has not reached.
   */
  async advanceTo(shop: string, version: number): Promise<void> {
    await retryOnDuplicateKey(() =>
      this.model.updateOne(
        { shop },
        { $max: { version }, $set: { dirty: true } },
        { upsert: true },
      ),
    );
  }

  async current(shop: string): Promise<number> {
    const doc = await this.model.findOne({ shop }).lean();
    return doc?.version ?? 0;
  }

  /** Clears the dirty mark unless a newer version was taken meanwhile. */
  async markPublished(shop: string, version: number): Promise<void> {
    await this.model.updateOne({ shop, version }, { $set: { dirty: false } });
  }

  async dirtyShops(): Promise<string[]> {
    const docs = await this.model.find({ dirty: true }).select({ shop: 1 }).lean();
    return docs.map((d) => d.shop);
  }

  async all(): Promise<{ shop: string; version: number }[]> {
    const docs = await this.model.find({}).select({ shop: 1, version: 1 }).lean();
    return docs.map((d) => ({ shop: d.shop, version: d.version ?? 0 }));
  }
}
