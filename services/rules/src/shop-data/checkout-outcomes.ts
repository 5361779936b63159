import {
  cartLineFromJson,
  cartLineToWire,
  FEE_BUCKETS,
  isShopDomain,
  rulesV1,
} from '@ratesmith/contracts';
import { AppError, type HandlersOf } from '@ratesmith/kit';
import type { RecentCheckoutsRepository } from '../data/recent-checkouts.repository';
import type { SettingsRepository } from '../data/settings.repository';
import { BATCH_LIMITS, cartPlaceValid, invalid, isAmount, storedLines } from './outcome-batch';
import { groupByShop, recentRecord, storeRecent } from './recent-checkouts';
import { storeShadow } from './shadow';
import type { ShadowCheckoutsRepository } from '../data/shadow-checkouts.repository';
import {
  filterKey,
  firstDayOf,
  OUTCOME_RETENTION_DAYS,
  type DayAdd,
  type OutcomeDaysRepository,
  type OutcomeKind,
  type RateKind,
  type SampleCartRecord,
  type SampleCartsRepository,
} from '../data/checkout-outcomes.repository';
import { OBJECT_ID } from '../data/schemas';

/**
 * Checkout outcomes (docs/architecture.md): the rate engine sends what its
 * callbacks answered in batches, the admin's Dashboard reads a shop's last days.
 * A batch comes from the engine, not a merchant, yet is still checked and
 * bounded: it becomes stored data.
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Expired rows go at most this often where there is no TTL index. */
const PRUNE_EVERY_MS = 60_000;

const KIND: Partial<Record<rulesV1.CheckoutOutcome, OutcomeKind>> = {
  [rulesV1.CheckoutOutcome.FALLBACK]: 'fallback',
  [rulesV1.CheckoutOutcome.NO_RATE]: 'no_rate',
};
const RATE_KIND: Partial<Record<rulesV1.CheckoutOutcome, RateKind>> = {
  ...KIND,
  [rulesV1.CheckoutOutcome.STANDARD]: 'standard',
  [rulesV1.CheckoutOutcome.BUMP]: 'bump',
  [rulesV1.CheckoutOutcome.BLOCKED]: 'blocked',
};
const OWNER: Partial<Record<rulesV1.FilterOwner, 'ruleset' | 'product_rule'>> = {
  [rulesV1.FilterOwner.RULESET]: 'ruleset',
  [rulesV1.FilterOwner.PRODUCT_RULE]: 'product_rule',
};
const FILTER_ID_CHARS = 128;
const OUTCOME: Record<OutcomeKind, rulesV1.CheckoutOutcome> = {
  fallback: rulesV1.CheckoutOutcome.FALLBACK,
  no_rate: rulesV1.CheckoutOutcome.NO_RATE,
};

function kindOf(outcome: rulesV1.CheckoutOutcome): OutcomeKind {
  const kind = KIND[outcome];
  if (!kind) throw invalid('an unknown outcome');
  return kind;
}

/**
 * A batch's counts and details as one `$inc` addition per shop-day (the
 * engine may split a shop-day over several batches, or send it twice in one).
 */
function dayAdds(
  counts: rulesV1.CheckoutOutcomeCount[],
  details: rulesV1.CheckoutDayDetail[],
): DayAdd[] {
  if (details.reduce((n, d) => n + d.filters.length, 0) > BATCH_LIMITS.filters)
    throw invalid('too many filter counts');
  const byDay = new Map<string, DayAdd>();
  const addOf = (shop: string, day: string) => {
    if (!isShopDomain(shop) || !DAY.test(day)) throw invalid('a count that is not valid');
    const key = `${day} ${shop}`;
    let add = byDay.get(key);
    if (!add) byDay.set(key, (add = { shop, day, rates: {}, fees: [], filters: [] }));
    return add;
  };
  for (const c of counts) {
    const kind = RATE_KIND[c.outcome];
    if (!kind) throw invalid('an unknown outcome');
    if (!isAmount(c.count, BATCH_LIMITS.count)) throw invalid('a count that is not valid');
    const add = addOf(c.shop, c.day);
    add.rates[kind] = (add.rates[kind] ?? 0) + c.count;
  }
  for (const d of details) {
    const add = addOf(d.shop, d.day);
    if (
      d.feeBuckets.length > FEE_BUCKETS.length ||
      !d.feeBuckets.every((n) => isAmount(n, BATCH_LIMITS.count))
    )
      throw invalid('fee buckets that are not valid');
    d.feeBuckets.forEach((n, b) => (add.fees[b] = (add.fees[b] ?? 0) + n));
    for (const f of d.filters) {
      const owner = OWNER[f.owner];
      if (
        !owner ||
        !OBJECT_ID.test(f.ownerId) ||
        f.filterId.length === 0 ||
        f.filterId.length > FILTER_ID_CHARS ||
        !isAmount(f.matched, BATCH_LIMITS.count) ||
        !isAmount(f.stopped, f.matched) ||
        !Number.isSafeInteger(f.fee) ||
        Math.abs(f.fee) > BATCH_LIMITS.fee
      )
        throw invalid('a filter count that is not valid');
      if (f.matched === 0) continue;
      add.filters.push({
        key: filterKey(owner, f.ownerId.toLowerCase(), f.filterId),
        matched: f.matched,
        stopped: f.stopped,
        fee: f.fee,
      });
    }
  }
  return [...byDay.values()];
}

function cartRecord(cart: rulesV1.CheckoutCart): SampleCartRecord {
  const at = cartPlaceValid(cart);
  const lines = storedLines(cart.lines);
  return {
    shop: cart.shop,
    outcome: kindOf(cart.outcome),
    at,
    country: cart.country,
    currency: cart.currency,
    lines,
  };
}

export function checkoutOutcomeHandlers(deps: {
  outcomeDays: OutcomeDaysRepository;
  sampleCarts: SampleCartsRepository;
  recentCheckouts: RecentCheckoutsRepository;
  shadowCheckouts: ShadowCheckoutsRepository;
  settings: SettingsRepository;
}): Pick<
  HandlersOf<typeof rulesV1.RulesService>,
  'recordCheckoutOutcomes' | 'getCheckoutOutcomes'
> {
  let prunedAt = 0;
  return {
    recordCheckoutOutcomes: async ({ counts, carts, recent, details, shadow }) => {
      if (
        counts.length > BATCH_LIMITS.counts ||
        carts.length > BATCH_LIMITS.carts ||
        recent.length > BATCH_LIMITS.recent ||
        shadow.length > BATCH_LIMITS.shadow ||
        details.length > BATCH_LIMITS.details
      )
        throw invalid('too many entries');
      const adds = dayAdds(counts, details);
      const cartsByShop = groupByShop(carts.map(cartRecord));
      const recentByShop = groupByShop(recent.map(recentRecord));
      // Checked in full before anything is written; carts first, so a count a reader sees has its carts.
      for (const [shop, list] of cartsByShop) await deps.sampleCarts.add(shop, list);
      await storeRecent(deps, recentByShop);
      await storeShadow(deps, shadow);
      await deps.outcomeDays.add(adds);
      const time = new Date();
      if (time.getTime() - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = time.getTime();
        await deps.outcomeDays.pruneExpired(time);
        await deps.sampleCarts.pruneExpired(time);
        await deps.recentCheckouts.pruneExpired(time);
      }
      return {};
    },
    getCheckoutOutcomes: async ({ shop, days }) => {
      if (!Number.isInteger(days) || days < 1 || days > OUTCOME_RETENTION_DAYS)
        throw new AppError(
          'invalid_data',
          `Outcomes are kept for 1 to ${OUTCOME_RETENTION_DAYS} days.`,
        );
      const time = new Date();
      const firstDay = firstDayOf(days, time);
      const totals = await deps.outcomeDays.totals(shop, firstDay);
      const carts = await deps.sampleCarts.latest(shop, new Date(`${firstDay}T00:00:00.000Z`));
      return {
        fallback: totals.fallback,
        noRate: totals.no_rate,
        // A part of no rate: a batch that said otherwise cannot make a negative miss.
        blocked: Math.min(totals.blocked, totals.no_rate),
        carts: carts.map((cart) => ({
          shop: cart.shop,
          outcome: OUTCOME[cart.outcome],
          at: cart.at.toISOString(),
          country: cart.country,
          currency: cart.currency,
          lines: cart.lines.map((line) => cartLineToWire(cartLineFromJson(line))),
        })),
      };
    },
  };
}
