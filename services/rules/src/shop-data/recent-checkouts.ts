import {
  cartLineFromJson,
  cartLineToWire,
  recentRateFromWire,
  recentRateToWire,
  type rulesV1,
} from '@ratesmith/contracts';
import { AppError, type HandlersOf } from '@ratesmith/kit';
import type {
  RecentCheckoutRecord,
  RecentCheckoutsRepository,
} from '../data/recent-checkouts.repository';
import type { SettingsRepository } from '../data/settings.repository';
import { cartPlaceValid, invalid, storedLines } from './outcome-batch';

/**
 * Recent checkouts (docs/architecture.md): the engine's sampled callbacks come
 * in the checkout outcomes' batches (checked here before anything is stored);
 * the admin lists a shop's and opens one with its trace.
 */

/** An encoded trace larger than this is refused (the engine keeps none above 64,000 bytes). */
const TRACE_BYTES = 65_536;
const RATES = 10;
const SERVICE_CODE = /^[A-Z0-9_]{0,64}$/;
const CENTS = /^\d{1,16}$/;

export function recentRecord(checkout: rulesV1.RecentCheckout): RecentCheckoutRecord {
  const at = cartPlaceValid(checkout);
  if (
    checkout.rates.length > RATES ||
    checkout.trace.length > TRACE_BYTES ||
    !Number.isInteger(checkout.latencyUs) ||
    checkout.latencyUs < 0 ||
    checkout.snapshotVersion < 0n ||
    checkout.rates.some(
      (rate) =>
        rate.serviceName.length > 200 ||
        !SERVICE_CODE.test(rate.serviceCode) ||
        !CENTS.test(rate.totalPrice),
    )
  )
    throw invalid('a recent checkout that is not valid');
  return {
    shop: checkout.shop,
    at,
    country: checkout.country,
    currency: checkout.currency,
    lines: storedLines(checkout.lines),
    rates: checkout.rates.map(recentRateFromWire),
    latency_us: checkout.latencyUs,
    snapshot_version: Number(checkout.snapshotVersion),
    trace: Buffer.from(checkout.trace),
  };
}

/** Entries grouped by their shop, in order. */
export function groupByShop<T extends { shop: string }>(entries: T[]): Map<string, T[]> {
  const byShop = new Map<string, T[]>();
  for (const entry of entries) {
    const list = byShop.get(entry.shop) ?? [];
    list.push(entry);
    byShop.set(entry.shop, list);
  }
  return byShop;
}

type Stored = Awaited<ReturnType<RecentCheckoutsRepository['list']>>[number];

function toProto(stored: Stored) {
  return {
    id: stored.id,
    shop: stored.shop,
    at: stored.at.toISOString(),
    country: stored.country,
    currency: stored.currency,
    lines: stored.lines.map((line) => cartLineToWire(cartLineFromJson(line))),
    rates: stored.rates.map(recentRateToWire),
    latencyUs: stored.latency_us,
    snapshotVersion: BigInt(stored.snapshot_version),
    trace: stored.trace ? new Uint8Array(stored.trace) : new Uint8Array(),
  };
}

/**
 * Stores a batch's checkouts of each shop for the days of its setting; a shop
 * that turned Recent checkouts off since they were sampled gets none stored.
 */
export async function storeRecent(
  deps: { recentCheckouts: RecentCheckoutsRepository; settings: SettingsRepository },
  byShop: Map<string, RecentCheckoutRecord[]>,
): Promise<void> {
  for (const [shop, list] of byShop) {
    const { settings } = await deps.settings.get(shop);
    if (!settings.recent_checkouts_enabled) continue;
    await deps.recentCheckouts.add(shop, list, settings.recent_checkouts_days);
  }
}

export function recentCheckoutHandlers(deps: {
  recentCheckouts: RecentCheckoutsRepository;
  settings: SettingsRepository;
}): Pick<HandlersOf<typeof rulesV1.RulesService>, 'listRecentCheckouts' | 'getRecentCheckout'> {
  const daysOf = async (shop: string) =>
    (await deps.settings.get(shop)).settings.recent_checkouts_days;
  return {
    listRecentCheckouts: async ({ shop }) => ({
      checkouts: (await deps.recentCheckouts.list(shop, await daysOf(shop))).map(toProto),
    }),
    getRecentCheckout: async ({ shop, id }) => {
      const found = await deps.recentCheckouts.get(shop, id, await daysOf(shop));
      if (!found) throw new AppError('not_found', 'This checkout is no longer kept.');
      return { checkout: toProto(found) };
    },
  };
}
