import {
  nativeLocationGroupSchema,
  nativeRatesOffSchema,
  NO_SHADOW,
  NOTHING_TO_UNDO,
  shadowFigures,
  shadowVerdict,
  type GoLiveRecordJson,
  type NativeRateOff,
  type rulesV1,
} from '@ratesmith/contracts';
import { AppError, type HandlersOf } from '@ratesmith/kit';
import type { RulesetsRepository } from '../data/rulesets.repository';
import type { GoLiveState, SettingsRepository } from '../data/settings.repository';
import type {
  ShadowCheckoutRecord,
  ShadowCheckoutsRepository,
} from '../data/shadow-checkouts.repository';
import { CONCURRENT_CHANGE } from '../domain/concurrent-change';
import { listVersion } from '../domain/filter-list';
import type { Versions } from '../domain/versions';
import { RULESET_NOT_FOUND } from '../domain/rulesets-app';
import type { SnapshotPublisher } from '../snapshots/publisher';
import { cartPlaceValid, invalid, storedLines } from './outcome-batch';
import { groupByShop } from './recent-checkouts';

/**
 * Shadow mode (docs/shopify.md, "Shadow mode"): the shop's shadow is stored
 * on its settings document and put in its snapshot (publisher.ts builds it);
 * the engine's carts of it come in the checkout outcomes' batches.
 */

/** The rates a go-live records: MAX_RATES_OFF short entries stay far below this. */
const TURN_OFF_JSON_BYTES = 256 * 1024;

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

/** The rates a go-live is to turn off, checked: its record names them for the undo. */
function parsedRates(json: string): NativeRateOff[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    value = undefined;
  }
  const parsed = nativeRatesOffSchema.safeParse(value);
  if (json.length > TURN_OFF_JSON_BYTES || !parsed.success)
    throw new AppError('invalid_data', 'The Shopify rates to disable are not valid.');
  return parsed.data;
}

/** The go-live record as the report carries it (the page offers Undo after a reload). */
async function goLiveJsonOf(
  rulesets: RulesetsRepository,
  shop: string,
  record: GoLiveState,
): Promise<GoLiveRecordJson> {
  const ruleset = await rulesets.get(shop, record.ruleset_id);
  return {
    ruleset_id: record.ruleset_id,
    ruleset_name: ruleset?.name ?? '',
    at: record.at.toISOString(),
    turned_off: parsedRates(record.turn_off_json),
  };
}

export function shadowHandlers(deps: {
  settings: SettingsRepository;
  rulesets: RulesetsRepository;
  shadowCheckouts: ShadowCheckoutsRepository;
  publisher: SnapshotPublisher;
  /** The activity log: going live and its undo enable and disable rulesets like a toggle does. */
  versions: Pick<Versions, 'keepLater'>;
}): Pick<
  HandlersOf<typeof rulesV1.RulesService>,
  'startShadow' | 'stopShadow' | 'getShadowReport' | 'goLive' | 'undoGoLive'
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
        // The carts a go-live's undo would bring back are gone: nothing to undo any more.
        await deps.settings.clearGoLive(shop);
        await deps.settings.setShadow(shop, {
          ruleset_id: rulesetId,
          native_json: nativeJson,
          started_at: startedAt,
        });
      });
      return { startedAt: startedAt.toISOString() };
    },
    stopShadow: async ({ shop, forget }) => {
      const { shadow } = await deps.settings.get(shop);
      await deps.publisher.change(shop, () => deps.settings.setShadow(shop, null));
      // Without a running shadow, the carts kept are a go-live's, for its undo.
      if (forget && shadow) await deps.shadowCheckouts.deleteShop(shop);
      return {};
    },
    goLive: async ({ shop, user, turnOffJson }) => {
      const { shadow, globalRuleId } = await deps.settings.get(shop);
      if (!shadow) throw new AppError('invalid_data', NO_SHADOW);
      const ruleset = await deps.rulesets.get(shop, shadow.ruleset_id);
      if (!ruleset) throw new AppError('not_found', RULESET_NOT_FOUND);
      const turnOff = parsedRates(turnOffJson);
      const record = {
        ruleset_id: ruleset.id,
        enabled_before: globalRuleId,
        shadow,
        turn_off_json: JSON.stringify(turnOff),
        at: new Date(),
        user,
      };
      await deps.publisher.change(
        shop,
        async () => {
          if (!(await deps.settings.goLive(shop, record)))
            throw new AppError('conflict', CONCURRENT_CHANGE);
        },
        { activeId: ruleset.id },
      );
      if (globalRuleId !== ruleset.id)
        deps.versions.keepLater(shop, () =>
          listVersion('ruleset', ruleset, {
            user,
            event: 'enable',
            checkout: true,
            summary: 'Enabled: went live from shadow mode',
          }),
        );
      return { rulesetId: ruleset.id, rulesetName: ruleset.name };
    },
    undoGoLive: async ({ shop, user }) => {
      const { goLive } = await deps.settings.get(shop);
      if (!goLive) throw new AppError('invalid_data', NOTHING_TO_UNDO);
      const ruleset = await deps.rulesets.get(shop, goLive.ruleset_id);
      // The ruleset enabled before, unless deleted since: never a dangling active id.
      const before =
        goLive.enabled_before && (await deps.rulesets.get(shop, goLive.enabled_before))
          ? goLive.enabled_before
          : null;
      await deps.publisher.change(
        shop,
        async () => {
          if (!(await deps.settings.undoGoLive(shop, { ...goLive, enabled_before: before })))
            throw new AppError('conflict', CONCURRENT_CHANGE);
        },
        before ? { activeId: before } : {},
      );
      const enabled = before ? await deps.rulesets.get(shop, before) : null;
      if (ruleset && before !== ruleset.id) {
        const change = enabled
          ? {
              event: 'enable' as const,
              record: enabled,
              summary: 'Enabled again: going live was undone',
            }
          : {
              event: 'disable' as const,
              record: ruleset,
              summary: 'Disabled: going live was undone',
            };
        deps.versions.keepLater(shop, () =>
          listVersion('ruleset', change.record, {
            user,
            event: change.event,
            checkout: true,
            summary: change.summary,
          }),
        );
      }
      return { rulesetId: goLive.ruleset_id, rulesetName: ruleset?.name ?? '' };
    },
    getShadowReport: async ({ shop }) => {
      const { shadow, goLive } = await deps.settings.get(shop);
      const goLiveJson = goLive
        ? JSON.stringify(await goLiveJsonOf(deps.rulesets, shop, goLive))
        : '';
      if (!shadow)
        return { rulesetId: '', rulesetName: '', startedAt: '', figuresJson: '', goLiveJson };
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
        goLiveJson,
      };
    },
  };
}
