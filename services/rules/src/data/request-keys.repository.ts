import { claimUnlessHeld } from '@ratesmith/kit';
import { Schema, type Connection } from 'mongoose';
import { ShopScopedRepository } from './shop-scoped.repository';

/** A create's key (the admin's Idempotency-Key) and the ruleset it made, once made. */
interface RequestKeyDoc {
  shop: string;
  key: string;
  /** Null while the create that holds the key runs. */
  ruleset_id: string | null;
  expires_at: Date;
}

const requestKeySchema = new Schema<RequestKeyDoc>(
  {
    shop: { type: String, required: true },
    key: { type: String, required: true },
    ruleset_id: { type: String, default: null },
    expires_at: { type: Date, required: true },
  },
  { collection: 'request_keys' },
);
requestKeySchema.index({ shop: 1, key: 1 }, { unique: true });

/**
 * The keys of creates, so a create sent again (the admin resending after a
 * timeout whose first try landed) answers what the first made instead of
 * making a second. Kept a day; the first holder of a key is decided by one
 * atomic upsert on a unique index.
 */
export class RequestKeysRepository extends ShopScopedRepository<RequestKeyDoc> {
  constructor(conn: Connection) {
    // Expired keys go by a TTL index on MongoDB; FerretDB has none, so `claim` takes them over.
    super(conn.model<RequestKeyDoc>('RequestKey', requestKeySchema), 'expires_at');
  }

  /** True when this call is the key's first (or its earlier use expired): it holds the key now. */
  async claim(shop: string, key: string, ttlMs: number): Promise<boolean> {
    return claimUnlessHeld(this.model, { shop, key }, 'expires_at', ttlMs, { ruleset_id: null });
  }

  /** The ruleset the key's create made; null while it runs, undefined for an unknown key. */
  async rulesetOf(shop: string, key: string): Promise<string | null | undefined> {
    const doc = await this.model.findOne({ shop, key }).lean();
    return doc ? doc.ruleset_id : undefined;
  }

  async settle(shop: string, key: string, rulesetId: string): Promise<void> {
    await this.model.updateOne({ shop, key }, { $set: { ruleset_id: rulesetId } });
  }

  /** Lets the key go after its create failed, so the same key may try again. */
  async release(shop: string, key: string): Promise<void> {
    await this.model.deleteOne({ shop, key, ruleset_id: null });
  }
}
