import { claimUnlessHeld } from '@ratesmith/kit';
import { Schema, type Connection } from 'mongoose';
import { ShopScopedRepository } from './shop-scoped.repository';

/** A shop's lease: who holds it and until when (a holder that died lets it lapse). */
interface ShopLeaseDoc {
  shop: string;
  owner: string;
  until: Date;
}

const leaseSchema = new Schema<ShopLeaseDoc>(
  {
    shop: { type: String, required: true },
    owner: { type: String, required: true },
    until: { type: Date, required: true },
  },
  { collection: 'shop_leases' },
);
// One lease document per shop: a second taker's upsert fails on this index.
leaseSchema.index({ shop: 1 }, { unique: true });

/**
 * One writer at a time, across replicas, of what a shop's limits count (its
 * rulesets, its product rules): the count and the writes that follow it run
 * under the lease, so two creates or imports at once cannot both pass the
 * check. Taken by one atomic upsert (no transactions on FerretDB).
 */
export class ShopLeasesRepository extends ShopScopedRepository<ShopLeaseDoc> {
  constructor(conn: Connection) {
    super(conn.model<ShopLeaseDoc>('ShopLease', leaseSchema));
  }

  /**
   * True when `owner` now holds the shop's lease for `ttlMs`: there was none,
   * or it had lapsed. A held lease makes the upsert insert a second document
   * for the shop, which the unique index refuses: false.
   */
  async tryTake(shop: string, owner: string, ttlMs: number): Promise<boolean> {
    return claimUnlessHeld(this.model, { shop }, 'until', ttlMs, { owner });
  }

  /** Gives the lease back, if `owner` still holds it (a lapsed one may be someone else's now). */
  async release(shop: string, owner: string): Promise<void> {
    await this.model.deleteOne({ shop, owner });
  }
}
