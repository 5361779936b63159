import { isDuplicateKey, retryOnDuplicateKey } from '@ratesmith/kit';
import { Schema, type Connection, type Model } from 'mongoose';
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

export class TokensRepository {
  readonly model: Model<TokenDoc>;
  readonly locks: Model<LockDoc>;

  constructor(conn: Connection) {
    this.model = conn.model<TokenDoc>('Token', tokenSchema);
    this.locks = conn.model<LockDoc>('TokenRefreshLock', lockSchema);
  }

  async buildIndexes(): Promise<void> {
    await this.model.createIndexes();
    await this.locks.createIndexes();
  }

  async get(shop: string): Promise<StoredTokens | null> {
    const doc = await this.model.findOne({ shop }).lean();
    if (!doc) return null;
    return {
      shop: doc.shop,
      sealed: {
        kid: doc.sealed.kid,
        iv: doc.sealed.iv,
        tag: doc.sealed.tag,
        ciphertext: doc.sealed.ciphertext,
      },
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
