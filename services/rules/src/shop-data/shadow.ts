import {
  nativeLocationGroupSchema,
  shadowFigures,
  shadowVerdict,
  type rulesV1,
} from '@ratesmith/contracts';
import { AppError, type HandlersOf } from '@ratesmith/kit';
import type { RulesetsRepository } from '../data/rulesets.repository';
import type { SettingsRepository } from '../data/settings.repository';
import type {
  ShadowCheckoutRecord,
  ShadowCheckoutsRepository,
} from '../data/shadow-checkouts.repository';
import { RULESET_NOT_FOUND } from '../domain/rulesets-app';
import type { SnapshotPublisher } from '../snapshots/publisher';
import { cartPlaceValid, invalid, storedLines } from './outcome-batch';
import { groupByShop } from './recent-checkouts';

/**
 * Shadow mode (docs/shopify.md, "Shadow mode"): the shop's shadow is stored
 * on its settings document and put in its snapshot (publisher.ts builds it);
 * the engine's carts of it come in the checkout outcomes' batches.
 */

/** A native location group larger than this is refused (Shopify's own limits are far lower). */
const NATIVE_JSON_BYTES = 512 * 1024;
const CENTS = /^\d{1,12}$/;

/** The first rate of a list as the report compares it; throws on one not valid. */
function firstRate(rates: rulesV1.RecentRate[]): { name: string; cents: number } | null {
  if (rates.length > 20) throw invalid('a shadow cart that is not valid');
  const first = rates[0];
  if (!first) return null;
  if (first.serviceName.length > 200 || !CENTS.test(first.totalPrice))
    throw invalid('a shadow cart that is not valid');
  return { name: first.serviceName, cents: Number(first.totalPrice) };
}

/** A batch's shadow cart as stored: checked first, like a recent checkout. */
export function shadowRecord(checkout: rulesV1.ShadowCheckout): ShadowCheckoutRecord {
  const at = cartPlaceValid(checkout);
  const ratesmith = firstRate(checkout.quoted);
  const native = firstRate(checkout.native);
  return {
    shop: checkout.shop,
    at,
    country: checkout.country,
    currency: checkout.currency,
    lines: storedLines(checkout.lines),
    ratesmith,
    native,
    ...shadowVerdict(ratesmith?.cents ?? null, native?.cents ?? null),
  };
}

/** Stores each shop's carts of its running shadow; carts of a shadow since stopped are dropped. */
export async function storeShadow(
  deps: { shadowCheckouts: ShadowCheckoutsRepository; settings: SettingsRepository },
  checkouts: rulesV1.ShadowCheckout[],
): Promise<void> {
  for (const [shop, list] of groupByShop(checkouts.map(shadowRecord))) {
    const { shadow } = await deps.settings.get(shop);
    if (!shadow) continue;
    const current = list.filter((c) => c.at >= shadow.started_at);
    if (current.length) await deps.shadowCheckouts.add(shop, current);
  }
}

export function shadowHandlers(deps: {
  settings: SettingsRepository;
  rulesets: RulesetsRepository;
  shadowCheckouts: ShadowCheckoutsRepository;
  publisher: SnapshotPublisher;
}): Pick<
  HandlersOf<typeof rulesV1.RulesService>,
  'startShadow' | 'stopShadow' | 'getShadowReport'
> {
  return {
    startShadow: async ({ shop, rulesetId, nativeJson }) => {
      if (!(await deps.rulesets.get(shop, rulesetId)))
        throw new AppError('not_found', RULESET_NOT_FOUND);
      let native: unknown;
      try {
        native = JSON.parse(nativeJson);
      } catch {
        native = undefined;
      }
      if (
        nativeJson.length > NATIVE_JSON_BYTES ||
        !nativeLocationGroupSchema.safeParse(native).success
      )
        throw new AppError('invalid_data', 'The native rates are not valid.');
      const startedAt = new Date();
      await deps.publisher.change(shop, async () => {
        // A new shadow starts counting from nothing.
        await deps.shadowCheckouts.deleteShop(shop);
        await deps.settings.setShadow(shop, {
          ruleset_id: rulesetId,
          native_json: nativeJson,
          started_at: startedAt,
        });
      });
      return { startedAt: startedAt.toISOString() };
    },
    stopShadow: async ({ shop, forget }) => {
      await deps.publisher.change(shop, () => deps.settings.setShadow(shop, null));
      if (forget) await deps.shadowCheckouts.deleteShop(shop);
      return {};
    },
    getShadowReport: async ({ shop }) => {
      const { shadow } = await deps.settings.get(shop);
      if (!shadow) return { rulesetId: '', rulesetName: '', startedAt: '', figuresJson: '' };
      const ruleset = await deps.rulesets.get(shop, shadow.ruleset_id);
      const carts = await deps.shadowCheckouts.list(shop, shadow.started_at);
      const figures = shadowFigures(
        carts.map(({ shop: _shop, at, ...cart }) => ({ ...cart, at: at.toISOString() })),
      );
      return {
        rulesetId: shadow.ruleset_id,
        rulesetName: ruleset?.name ?? '',
        startedAt: shadow.started_at.toISOString(),
        figuresJson: JSON.stringify(figures),
      };
    },
  };
}
