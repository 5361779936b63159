import { createHash } from 'node:crypto';
import { MongoStore } from '@ratesmith/kit';
import { Schema, type Connection } from 'mongoose';

interface OAuthStateDoc {
  /** sha256 of the state: the value itself only travels in the authorize URL. */
  state_hash: string;
  shop: string;
  /** The install form's email: written to the shop only once OAuth completes. */
  email?: string;
  expires_at: Date;
}

const stateSchema = new Schema<OAuthStateDoc>(
  {
    state_hash: { type: String, required: true },
    shop: { type: String, required: true },
    email: { type: String },
    expires_at: { type: Date, required: true },
  },
  { collection: 'oauth_states' },
);
stateSchema.index({ state_hash: 1 }, { unique: true });
stateSchema.index({ shop: 1 });

const hash = (state: string) => createHash('sha256').update(state).digest('hex');

/** OAuth `state` nonces: bound to one shop, expiring, usable once. */
export class OAuthStatesRepository extends MongoStore<OAuthStateDoc> {
  /** Expired states go by a TTL index on MongoDB (0 s after `expires_at`), never by a scan. */
  constructor(conn: Connection) {
    super(conn.model<OAuthStateDoc>('OAuthState', stateSchema), {
      field: 'expires_at',
      seconds: 0,
    });
  }

  async create(state: string, shop: string, ttlMs: number, email?: string): Promise<void> {
    await this.model.create({
      state_hash: hash(state),
      shop,
      ...(email === undefined ? {} : { email }),
      expires_at: new Date(Date.now() + ttlMs),
    });
  }

  /**
   * Deletes the state if it was issued for this shop and has not expired;
   * only the one caller whose delete removed it gets what it carried (the
   * install form's email, if any), so a replay gets null.
   */
  async consume(state: string, shop: string): Promise<{ email?: string } | null> {
    const doc = await this.model
      .findOneAndDelete({ state_hash: hash(state), shop, expires_at: { $gt: new Date() } })
      .lean();
    if (!doc) return null;
    return doc.email === undefined ? {} : { email: doc.email };
  }

  async deleteShop(shop: string): Promise<void> {
    await this.model.deleteMany({ shop });
  }
}
