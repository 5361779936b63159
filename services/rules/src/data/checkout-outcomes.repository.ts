import { retryOnDuplicateKey } from '@ratesmith/kit';
import type { CartLineJson } from '@ratesmith/contracts';
import { Schema, type Connection } from 'mongoose';
import { cartLineSchema } from './schemas';
import { ShopScopedRepository } from './shop-scoped.repository';

/**
 * What carrier callbacks answered, per shop (docs/architecture.md, "Checkout
 * outcomes" and "Per-filter analytics"): a counter document per shop per UTC
 * day, never a row per callback, holding the rates answered, the standard
 * rate's fees in buckets and each matched filter's counts; and the shop's
 * latest sample carts. Both expire after
 * OUTCOME_RETENTION_DAYS: by TTL index on MongoDB, and by `pruneExpired` where
 * the database has none (FerretDB); readers only look at the days they ask for.
 */
export const OUTCOME_RETENTION_DAYS = 30;
/** Sample carts kept per shop. */
export const SAMPLE_CARTS_PER_SHOP = 20;

/** The outcomes a sample cart is kept of. */
export type OutcomeKind = 'fallback' | 'no_rate';
/**
 * The rates answered, counted a day: `bump` is the part of `standard` that also had the
 * bump rate, `blocked` the part of `no_rate` a Block Shipping filter answered.
 */
export type RateKind = 'standard' | 'bump' | OutcomeKind | 'blocked';
export const RATE_KINDS: readonly RateKind[] = [
  'standard',
  'bump',
  'fallback',
  'no_rate',
  'blocked',
];

/** One filter's counts a day: matched, stopped, fee change in cents. */
export interface FilterDayCounts {
  m: number;
  s: number;
  f: number;
}

export interface OutcomeDayDoc {
  shop: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  standard: number;
  bump: number;
  fallback: number;
  no_rate: number;
  /** Of no_rate, the callbacks a Block Shipping filter answered (days before it: none). */
  blocked?: number;
  /** Callbacks a fee bucket: `b0`..`b6` (FEE_BUCKETS' order). */
  fees: Record<string, number>;
  /** By `filterKey`. */
  filters: Record<string, FilterDayCounts>;
  expires_at: Date;
}

/** A shop-day's additions, each applied with `$inc`. */
export interface DayAdd {
  shop: string;
  day: string;
  rates: Partial<Record<RateKind, number>>;
  /** By FEE_BUCKETS index. */
  fees: number[];
  filters: { key: string; matched: number; stopped: number; fee: number }[];
}

/**
 * A filter's field name in a day document: 'r' (ruleset) or 'p' (product
 * rule), the owner's id, '_', the filter's id. MongoDB field names must not
 * hold '.' nor start with '$': owner ids are ObjectIds (hex), and the filter id
 * is percent-encoded, with '.' encoded too.
 */
export function filterKey(owner: 'ruleset' | 'product_rule', ownerId: string, filterId: string) {
  const encoded = encodeURIComponent(filterId).replace(/\./g, '%2E');
  return `${owner === 'ruleset' ? 'r' : 'p'}${ownerId}_${encoded}`;
}

export interface SampleCartRecord {
  shop: string;
  outcome: OutcomeKind;
  at: Date;
  country: string;
  currency: string;
  lines: CartLineJson[];
}

interface SampleCartDoc extends SampleCartRecord {
  expires_at: Date;
}

const DAY_MS = 24 * 3600 * 1000;

/** The expiry of something that happened at `at` (a day counter: its day's start). */
const expiryOf = (at: Date) => new Date(at.getTime() + OUTCOME_RETENTION_DAYS * DAY_MS);

const dayDocSchema = new Schema<OutcomeDayDoc>(
  {
    shop: { type: String, required: true },
    day: { type: String, required: true },
    standard: { type: Number, default: 0 },
    bump: { type: Number, default: 0 },
    fallback: { type: Number, default: 0 },
    no_rate: { type: Number, default: 0 },
    blocked: { type: Number, default: 0 },
    fees: { type: Schema.Types.Mixed, default: {} },
    filters: { type: Schema.Types.Mixed, default: {} },
    expires_at: { type: Date, required: true },
  },
  { collection: 'checkout_outcome_days', minimize: false },
);
dayDocSchema.index({ shop: 1, day: 1 }, { unique: true });

const sampleSchema = new Schema<SampleCartDoc>(
  {
    shop: { type: String, required: true },
    outcome: { type: String, required: true },
    at: { type: Date, required: true },
    country: { type: String, default: '' },
    currency: { type: String, default: '' },
    lines: { type: [cartLineSchema], default: [] },
    expires_at: { type: Date, required: true },
  },
  { collection: 'checkout_sample_carts' },
);
sampleSchema.index({ shop: 1, at: -1 });

/** The first day (YYYY-MM-DD) of the last `days` days, today included. */
export function firstDayOf(days: number, now = new Date()): string {
  return new Date(now.getTime() - (days - 1) * DAY_MS).toISOString().slice(0, 10);
}

export class OutcomeDaysRepository extends ShopScopedRepository<OutcomeDayDoc> {
  constructor(conn: Connection) {
    super(conn.model<OutcomeDayDoc>('CheckoutOutcomeDay', dayDocSchema), 'expires_at');
  }

  /** Adds each shop-day's counts with one `$inc` update each, all in one round trip. */
  async add(adds: DayAdd[]): Promise<void> {
    const updates = adds.flatMap(({ shop, day, rates, fees, filters }) => {
      const inc: Record<string, number> = {};
      for (const kind of RATE_KINDS) if (rates[kind]) inc[kind] = rates[kind];
      fees.forEach((n, b) => {
        if (n) inc[`fees.b${b}`] = n;
      });
      for (const { key, matched, stopped, fee } of filters) {
        inc[`filters.${key}.m`] = matched;
        if (stopped) inc[`filters.${key}.s`] = stopped;
        if (fee) inc[`filters.${key}.f`] = fee;
      }
      if (Object.keys(inc).length === 0) return [];
      return [
        {
          updateOne: {
            filter: { shop, day },
            update: {
              $inc: inc,
              $setOnInsert: { expires_at: expiryOf(new Date(`${day}T00:00:00.000Z`)) },
            },
            upsert: true,
          },
        },
      ];
    });
    if (updates.length === 0) return;
    await retryOnDuplicateKey(() => this.model.bulkWrite(updates));
  }

  /** The shop's day documents from `firstDay` on, oldest first. */
  async days(shop: string, firstDay: string): Promise<OutcomeDayDoc[]> {
    return this.model
      .find({ shop, day: { $gte: firstDay } })
      .sort({ day: 1 })
      .lean<OutcomeDayDoc[]>();
  }

  /** The shop's totals from `firstDay` on. */
  async totals(shop: string, firstDay: string): Promise<Record<OutcomeKind | 'blocked', number>> {
    const docs = await this.model.find({ shop, day: { $gte: firstDay } }).lean();
    return {
      fallback: docs.reduce((sum, d) => sum + (d.fallback ?? 0), 0),
      no_rate: docs.reduce((sum, d) => sum + (d.no_rate ?? 0), 0),
      blocked: docs.reduce((sum, d) => sum + (d.blocked ?? 0), 0),
    };
  }

  async pruneExpired(now = new Date()): Promise<void> {
    await this.model.deleteMany({ expires_at: { $lt: now } });
  }
}

export class SampleCartsRepository extends ShopScopedRepository<SampleCartDoc> {
  constructor(conn: Connection) {
    super(conn.model<SampleCartDoc>('CheckoutSampleCart', sampleSchema), 'expires_at');
  }

  /** Stores the shop's new carts, then keeps only its SAMPLE_CARTS_PER_SHOP newest. */
  async add(shop: string, carts: SampleCartRecord[]): Promise<void> {
    await this.model.insertMany(carts.map((cart) => ({ ...cart, expires_at: expiryOf(cart.at) })));
    await this.keepNewest(shop, SAMPLE_CARTS_PER_SHOP);
  }

  /** The shop's newest carts since `since`, newest first. */
  async latest(shop: string, since: Date): Promise<SampleCartRecord[]> {
    const docs = await this.model
      .find({ shop, at: { $gte: since } })
      .sort({ at: -1 })
      .limit(SAMPLE_CARTS_PER_SHOP)
      .lean();
    return docs.map(({ shop: s, outcome, at, country, currency, lines }) => ({
      shop: s,
      outcome,
      at,
      country,
      currency,
      // lean(): the stored lines as the line schema has them, nothing more.
      lines,
    }));
  }

  async pruneExpired(now = new Date()): Promise<void> {
    await this.model.deleteMany({ expires_at: { $lt: now } });
  }
}
