import { createHash } from 'node:crypto';
import { ensureTtlIndex } from '@ratesmith/kit';
import { Schema, type Connection, type Model } from 'mongoose';

interface OAuthStateDoc {
  /** sha256 of the state: the value itself only travels in the authorize URL. */
  state_hash: string;
  shop: string;
  expires_at: Date;
}

const stateSchema = new Schema<OAuthStateDoc>(
  {
    state_hash: { type: String, required: true },
    shop: { type: String, required: true },
    expires_at: { type: Date, required: true },
  },
  { collection: 'oauth_states' },
);
stateSchema.index({ state_hash: 1 }, { unique: true });
stateSchema.index({ shop: 1 });

const hash = (state: string) => createHash('sha256').update(state).digest('hex');

/** OAuth `state` nonces: bound to one shop, expiring, usable once. */
export class OAuthStatesRepository {
  readonly model: Model<OAuthStateDoc>;

  constructor(conn: Connection) {
    this.model = conn.model<OAuthStateDoc>('OAuthState', stateSchema);
  }

  /** Expired states go by a TTL index on MongoDB (0 s after `expires_at`), never by a scan. */
  async buildIndexes(): Promise<void> {
    await this.model.createIndexes();
    await ensureTtlIndex(this.model.collection, 'expires_at', 0);
  }

  async create(state: string, shop: string, ttlMs: number): Promise<void> {
    await this.model.create({
      state_hash: hash(state),
      shop,
      expires_at: new Date(Date.now() + ttlMs),
    });
  }

  /**
   * Deletes the state if it was issued for this shop and has not expired;
   * true only for the one caller whose delete removed it, so a replay fails.
   */
  async consume(state: string, shop: string): Promise<boolean> {
    const result = await this.model.deleteOne({
      state_hash: hash(state),
      shop,
      expires_at: { $gt: new Date() },
    });
    return result.deletedCount === 1;
  }

  async deleteShop(shop: string): Promise<void> {
    await this.model.deleteMany({ shop });
  }
}
