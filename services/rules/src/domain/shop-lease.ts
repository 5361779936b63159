import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, remainingMs } from '@ratesmith/kit';
import type { ShopLeasesRepository } from '../data/shop-leases.repository';

/** What the admin shows when the shop's lease stayed taken for as long as the call could wait (409). */
export const SHOP_CHANGE_RUNNING =
  "Another change to this shop's rulesets or product rules is still being saved. Please wait for it to finish and try again.";

/**
 * How long a lease holds without its holder: longer than any import takes (the
 * writes of one run past the caller's deadline once started), short enough that
 * a replica that died holding one blocks the shop's creates for two minutes at most.
 */
const LEASE_TTL_MS = 120_000;
/** The longest a call waits for the lease when its caller set no deadline. */
const MAX_WAIT_MS = 10_000;

/**
 * Runs `fn` holding the shop's lease (services/rules/src/data/shop-leases.repository.ts):
 * the per-shop limits are counted and written inside, so they hold with any number of
 * calls at once, on any number of replicas. Waits for the lease while the caller's
 * deadline allows, then answers `conflict` with SHOP_CHANGE_RUNNING.
 */
export async function underShopLease<T>(
  leases: Pick<ShopLeasesRepository, 'tryTake' | 'release'>,
  shop: string,
  fn: () => Promise<T>,
): Promise<T> {
  const owner = randomUUID();
  // Decided before the first try: taking the lease is a write, which lifts the deadline.
  const waitUntil = Date.now() + Math.min(MAX_WAIT_MS, remainingMs() - 50);
  for (let pause = 10; !(await leases.tryTake(shop, owner, LEASE_TTL_MS));) {
    if (Date.now() + pause > waitUntil) throw new AppError('conflict', SHOP_CHANGE_RUNNING);
    await sleep(pause);
    pause = Math.min(pause * 2, 100);
  }
  try {
    return await fn();
  } finally {
    // Not given back (MongoDB gone): it lapses after LEASE_TTL_MS.
    await leases.release(shop, owner).catch(() => undefined);
  }
}
