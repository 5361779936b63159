import { isShopDomain, rulesV1 } from '@ratesmith/contracts';
import { AppError, type HandlersOf } from '@ratesmith/kit';
import type { RecentCheckoutsRepository } from '../data/recent-checkouts.repository';
import type { SettingsRepository } from '../data/settings.repository';
import { groupByShop, recentRecord, storeRecent } from './recent-checkouts';
import {
  firstDayOf,
  OUTCOME_RETENTION_DAYS,
  type OutcomeDaysRepository,
  type CartLineRecord,
  type OutcomeKind,
  type SampleCartRecord,
  type SampleCartsRepository,
} from '../data/checkout-outcomes.repository';

/**
 * Checkout outcomes (docs/architecture.md): the rate engine sends what its
 * callbacks answered in batches, the admin's Dashboard reads a shop's last days.
 * A batch comes from the engine, not a merchant, yet is still checked and
 * bounded: it becomes stored data.
 */

/** What one batch may hold at most (the engine's own caps are lower). */
export const BATCH_LIMITS = {
  counts: 20_000,
  carts: 1_000,
  recent: 1_000,
  lines: 50,
  count: 1_000_000,
};
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^\d{0,20}$/;
const COUNTRY = /^[A-Z]{0,3}$/;
const CURRENCY = /^[A-Z]{3}$|^$/;
/** Expired rows go at most this often where there is no TTL index. */
const PRUNE_EVERY_MS = 60_000;

const KIND: Partial<Record<rulesV1.CheckoutOutcome, OutcomeKind>> = {
  [rulesV1.CheckoutOutcome.FALLBACK]: 'fallback',
  [rulesV1.CheckoutOutcome.NO_RATE]: 'no_rate',
};
const OUTCOME: Record<OutcomeKind, rulesV1.CheckoutOutcome> = {
  fallback: rulesV1.CheckoutOutcome.FALLBACK,
  no_rate: rulesV1.CheckoutOutcome.NO_RATE,
};

export const invalid = (what: string) =>
  new AppError('invalid_data', `The checkout outcomes batch has ${what}.`);

function kindOf(outcome: rulesV1.CheckoutOutcome): OutcomeKind {
  const kind = KIND[outcome];
  if (!kind) throw invalid('an unknown outcome');
  return kind;
}

const isAmount = (n: number, max: number) => Number.isInteger(n) && n >= 0 && n <= max;

/** A checked cart line (a sample cart's and a recent checkout's). */
export function lineRecord(line: rulesV1.CheckoutCartLine): CartLineRecord {
  if (
    !ID.test(line.productId) ||
    !ID.test(line.variantId) ||
    !isAmount(line.quantity, 1_000_000) ||
    !isAmount(line.price, 1_000_000_000) ||
    !isAmount(line.grams, 1_000_000_000)
  )
    throw invalid('a cart line that is not valid');
  return {
    product_id: line.productId,
    variant_id: line.variantId,
    quantity: line.quantity,
    price: line.price,
    grams: line.grams,
  };
}

/** A checked cart's where and when (a sample cart's and a recent checkout's). */
export function cartPlaceValid(cart: {
  shop: string;
  at: string;
  country: string;
  currency: string;
  lines: unknown[];
}): Date {
  const at = new Date(cart.at);
  if (
    !isShopDomain(cart.shop) ||
    Number.isNaN(at.getTime()) ||
    !COUNTRY.test(cart.country) ||
    !CURRENCY.test(cart.currency) ||
    cart.lines.length > BATCH_LIMITS.lines
  )
    throw invalid('a cart that is not valid');
  return at;
}

function cartRecord(cart: rulesV1.CheckoutCart): SampleCartRecord {
  const at = cartPlaceValid(cart);
  const lines = cart.lines.map(lineRecord);
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
  settings: SettingsRepository;
}): Pick<
  HandlersOf<typeof rulesV1.RulesService>,
  'recordCheckoutOutcomes' | 'getCheckoutOutcomes'
> {
  let prunedAt = 0;
  return {
    recordCheckoutOutcomes: async ({ counts, carts, recent }) => {
      if (
        counts.length > BATCH_LIMITS.counts ||
        carts.length > BATCH_LIMITS.carts ||
        recent.length > BATCH_LIMITS.recent
      )
        throw invalid('too many entries');
      const adds = counts.map((c) => {
        if (!isShopDomain(c.shop) || !DAY.test(c.day) || !isAmount(c.count, BATCH_LIMITS.count))
          throw invalid('a count that is not valid');
        return { shop: c.shop, day: c.day, outcome: kindOf(c.outcome), count: c.count };
      });
      const cartsByShop = groupByShop(carts.map(cartRecord));
      const recentByShop = groupByShop(recent.map(recentRecord));
      // Checked in full before anything is written; carts first, so a count a reader sees has its carts.
      for (const [shop, list] of cartsByShop) await deps.sampleCarts.add(shop, list);
      await storeRecent(deps, recentByShop);
      await deps.outcomeDays.add(adds.filter((a) => a.count > 0));
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
        carts: carts.map((cart) => ({
          shop: cart.shop,
          outcome: OUTCOME[cart.outcome],
          at: cart.at.toISOString(),
          country: cart.country,
          currency: cart.currency,
          lines: cart.lines.map((line) => ({
            productId: line.product_id,
            variantId: line.variant_id,
            quantity: line.quantity,
            price: line.price,
            grams: line.grams,
          })),
        })),
      };
    },
  };
}
