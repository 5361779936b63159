import { recentRateJson, type CartLineJson, type RecentRateJson } from '@ratesmith/contracts';
import { Schema, type Connection } from 'mongoose';
import { cartLineSchema, OBJECT_ID } from './schemas';
import { ShopScopedRepository } from './shop-scoped.repository';

/**
 * Recent checkouts (docs/architecture.md): the sampled callbacks of each shop
 * with their traces, its RECENT_PER_SHOP newest kept for the days of its
 * setting (TTL index on MongoDB, `pruneExpired` on FerretDB; readers also skip
 * what is older than the setting now says). Figures only: the country is the
 * only part of the address, and nothing names the customer.
 */
export const RECENT_PER_SHOP = 200;

export interface RecentCheckoutRecord {
  shop: string;
  at: Date;
  country: string;
  currency: string;
  lines: CartLineJson[];
  rates: RecentRateJson[];
  latency_us: number;
  snapshot_version: number;
  /** An encoded rate-engine Trace, opaque here. */
  trace: Buffer;
}

interface RecentCheckoutDoc extends RecentCheckoutRecord {
  expires_at: Date;
}

const DAY_MS = 24 * 3600 * 1000;

const recentSchema = new Schema<RecentCheckoutDoc>(
  {
    shop: { type: String, required: true },
    at: { type: Date, required: true },
    country: { type: String, default: '' },
    currency: { type: String, default: '' },
    lines: {
      type: [cartLineSchema],
      default: [],
    },
    rates: {
      type: [
        new Schema(
          {
            service_name: String,
            service_code: String,
            total_price: String,
            min_delivery_date: { type: String, default: undefined },
            max_delivery_date: { type: String, default: undefined },
          },
          { _id: false },
        ),
      ],
      default: [],
    },
    latency_us: { type: Number, default: 0 },
    snapshot_version: { type: Number, default: 0 },
    // Not `required`: a trace with no step, no match and fee 0 encodes to no bytes at all.
    trace: { type: Buffer, default: () => Buffer.alloc(0) },
    expires_at: { type: Date, required: true },
  },
  { collection: 'recent_checkouts' },
);
recentSchema.index({ shop: 1, at: -1 });

const fields = {
  shop: 1,
  at: 1,
  country: 1,
  currency: 1,
  lines: 1,
  rates: 1,
  latency_us: 1,
  snapshot_version: 1,
} as const;

type Stored = Omit<RecentCheckoutRecord, 'trace'> & { id: string; trace?: Buffer };

/** Not expired, and no older than the shop's setting says now (it may have been shortened). */
const keptFor = (days: number, now: Date) => ({
  expires_at: { $gt: now },
  at: { $gte: new Date(now.getTime() - days * DAY_MS) },
});

/** lean() gives the driver's Binary for a Buffer field, whose bytes are its `buffer`. */
function bytesOf(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  return Buffer.from((value as { buffer: Uint8Array }).buffer);
}

function toRecord(doc: Partial<RecentCheckoutDoc> & { _id: unknown }): Stored {
  return {
    id: String(doc._id),
    shop: doc.shop ?? '',
    at: doc.at ?? new Date(0),
    country: doc.country ?? '',
    currency: doc.currency ?? '',
    // lean(): the stored lines as the line schema has them, nothing more.
    lines: doc.lines ?? [],
    rates: (doc.rates ?? []).map((rate) => recentRateJson(rate)),
    latency_us: doc.latency_us ?? 0,
    snapshot_version: doc.snapshot_version ?? 0,
    trace: doc.trace === undefined ? undefined : bytesOf(doc.trace),
  };
}

export class RecentCheckoutsRepository extends ShopScopedRepository<RecentCheckoutDoc> {
  constructor(conn: Connection) {
    super(conn.model<RecentCheckoutDoc>('RecentCheckout', recentSchema), 'expires_at');
  }

  /** Stores the shop's new checkouts for `days`, then keeps only its RECENT_PER_SHOP newest. */
  async add(shop: string, checkouts: RecentCheckoutRecord[], days: number): Promise<void> {
    await this.model.insertMany(
      checkouts.map((c) => ({ ...c, expires_at: new Date(c.at.getTime() + days * DAY_MS) })),
    );
    await this.keepNewest(shop, RECENT_PER_SHOP);
  }

  /** The shop's checkouts of the last `days`, newest first, without traces. */
  async list(shop: string, days: number, now = new Date()): Promise<Stored[]> {
    const docs = await this.model
      .find({ shop, ...keptFor(days, now) })
      .select(fields)
      .sort({ at: -1 })
      .limit(RECENT_PER_SHOP)
      .lean();
    return docs.map(toRecord);
  }

  /** One of the shop's checkouts with its trace. */
  async get(shop: string, id: string, days: number, now = new Date()): Promise<Stored | undefined> {
    if (!OBJECT_ID.test(id)) return undefined;
    const doc = await this.model.findOne({ _id: id, shop, ...keptFor(days, now) }).lean();
    return doc ? toRecord(doc) : undefined;
  }

  async pruneExpired(now = new Date()): Promise<void> {
    await this.model.deleteMany({ expires_at: { $lt: now } });
  }
}
