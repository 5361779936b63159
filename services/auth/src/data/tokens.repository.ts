import { isDuplicateKey, MongoStore, retryOnDuplicateKey } from '@ratesmith/kit';
import { Schema, type Connection, type Model, type Types } from 'mongoose';
import type { SealedSecret } from '../tokens/encryption';

/** A shop's offline token pair, sealed (access and refresh token together). */
export interface StoredTokens {
  shop: string;
  sealed: SealedSecret;
  scope: string;
  /** null: a non-expiring token. */
  expiresAt: Date | null;
  refreshExpiresAt: Date | null;
}

interface TokenDoc {
  shop: string;
  sealed: SealedSecret;
  scope: string;
  expires_at: Date | null;
  refresh_expires_at: Date | null;
}

const sealedSchema = new Schema<SealedSecret>(
  {
    kid: { type: String, required: true },
    iv: { type: String, required: true },
    tag: { type: String, required: true },
    ciphertext: { type: String, required: true },
  },
  { _id: false },
);

const tokenSchema = new Schema<TokenDoc>(
  {
    shop: { type: String, required: true },
    sealed: { type: sealedSchema, required: true },
    scope: { type: String, default: '' },
    expires_at: { type: Date, default: null },
    refresh_expires_at: { type: Date, default: null },
  },
  { collection: 'tokens', timestamps: true },
);
tokenSchema.index({ shop: 1 }, { unique: true });

interface LockDoc {
  shop: string;
  until: Date;
}
const lockSchema = new Schema<LockDoc>(
  { shop: { type: String, required: true }, until: { type: Date, required: true } },
  { collection: 'token_refresh_locks' },
);
lockSchema.index({ shop: 1 }, { unique: true });

function copySealed(sealed: SealedSecret): SealedSecret {
  return { kid: sealed.kid, iv: sealed.iv, tag: sealed.tag, ciphertext: sealed.ciphertext };
}

export class TokensRepository extends MongoStore<TokenDoc> {
  readonly locks: Model<LockDoc>;

  constructor(conn: Connection) {
    super(conn.model<TokenDoc>('Token', tokenSchema));
    this.locks = conn.model<LockDoc>('TokenRefreshLock', lockSchema);
  }

  override async buildIndexes(): Promise<void> {
    await super.buildIndexes();
    await this.locks.createIndexes();
  }

  async get(shop: string): Promise<StoredTokens | null> {
    const doc = await this.model.findOne({ shop }).lean();
    if (!doc) return null;
    return {
      shop: doc.shop,
      sealed: copySealed(doc.sealed),
      scope: doc.scope,
      expiresAt: doc.expires_at,
      refreshExpiresAt: doc.refresh_expires_at,
    };
  }

  async save(tokens: StoredTokens): Promise<void> {
    await retryOnDuplicateKey(() =>
      this.model.updateOne(
        { shop: tokens.shop },
        {
          $set: {
            sealed: tokens.sealed,
            scope: tokens.scope,
            expires_at: tokens.expiresAt,
            refresh_expires_at: tokens.refreshExpiresAt,
          },
        },
        { upsert: true },
      ),
    );
  }

  /**
   * Replaces the shop's sealed pair with the same pair sealed anew (key
   * rotation), only if the record still holds exactly `from`: a refresh or a
   * new install that stored another pair meanwhile wins. True when written.
   */
  async resealIfUnchanged(shop: string, from: SealedSecret, to: SealedSecret): Promise<boolean> {
    const result = await this.model.updateOne(
      {
        shop,
        'sealed.kid': from.kid,
        'sealed.iv': from.iv,
        'sealed.tag': from.tag,
        'sealed.ciphertext': from.ciphertext,
      },
      { $set: { sealed: to } },
    );
    return result.matchedCount === 1;
  }

  /** How many records each key id seals. */
  async countByKid(): Promise<Record<string, number>> {
    const rows = await this.model.aggregate<{ _id: string; count: number }>([
      { $group: { _id: '$sealed.kid', count: { $sum: 1 } } },
    ]);
    const counts: Record<string, number> = {};
    for (const row of rows.sort((a, b) => a._id.localeCompare(b._id))) counts[row._id] = row.count;
    return counts;
  }

  /**
   * Every record's shop and sealed pair, `batchSize` at a time, paged by _id:
   * each page is its own short query, so no server cursor stays open (or
   * times out) while the caller writes between pages.
   */
  async *sealedBatches(
    batchSize: number,
  ): AsyncGenerator<{ shop: string; sealed: SealedSecret }[]> {
    let after: Types.ObjectId | undefined;
    for (;;) {
      const docs = await this.model
        .find(after ? { _id: { $gt: after } } : {}, { shop: 1, sealed: 1 })
        .sort({ _id: 1 })
        .limit(batchSize)
        .lean();
      if (docs.length === 0) return;
      yield docs.map((doc) => ({ shop: doc.shop, sealed: copySealed(doc.sealed) }));
      if (docs.length < batchSize) return;
      after = docs[docs.length - 1]!._id;
    }
  }

  async delete(shop: string): Promise<void> {
    await this.model.deleteOne({ shop });
    await this.locks.deleteOne({ shop });
  }

  /**
   * A lease on refreshing the shop's token, across replicas: the unique index
   * lets one insert win. A lease older than its `until` (a crashed holder) is
   * taken over.
   */
  async acquireRefreshLease(shop: string, leaseMs: number): Promise<boolean> {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await this.locks.create({ shop, until: new Date(Date.now() + leaseMs) });
        return true;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        const held = await this.locks.findOne({ shop }).lean();
        if (held && held.until.getTime() > Date.now()) return false;
        if (held) await this.locks.deleteOne({ shop, until: held.until });
      }
    }
    return false;
  }

  async releaseRefreshLease(shop: string): Promise<void> {
    await this.locks.deleteOne({ shop });
  }
}
