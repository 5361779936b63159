import {
  ANALYTICS_MAX_DAYS,
  FEE_BUCKETS,
  rulesV1,
  type SnapshotFilter,
} from '@ratesmith/contracts';
import { AppError, type HandlersOf } from '@ratesmith/kit';
import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  filterKey,
  firstDayOf,
  type OutcomeDayDoc,
  type OutcomeDaysRepository,
} from '../data/checkout-outcomes.repository';
import type { ProductRulesRepository } from '../data/product-rules.repository';
import type { RulesetsRepository } from '../data/rulesets.repository';
import type { SettingsRepository } from '../data/settings.repository';

/**
 * Per-filter analytics (docs/architecture.md): the shop's day documents of the
 * window, joined with its CURRENT rulesets and product rules, so a removed
 * filter's counts are simply never shown (they expire with their day).
 */

type AnalyticsFilter = MessageInitShape<typeof rulesV1.AnalyticsFilterSchema>;
type Owner = 'ruleset' | 'product_rule';

const DAY_MS = 86_400_000;
const OWNER_CODE: Record<Owner, rulesV1.FilterOwner> = {
  ruleset: rulesV1.FilterOwner.RULESET,
  product_rule: rulesV1.FilterOwner.PRODUCT_RULE,
};
const NOT_FOUND = {
  ruleset: 'This ruleset was not found.',
  product_rule: 'This product rule was not found.',
};

/** The window of the last `days` UTC days and the shop's day documents in it. */
async function windowOf(outcomeDays: OutcomeDaysRepository, shop: string, days: number) {
  const now = new Date();
  const from = firstDayOf(days, now);
  const to = now.toISOString().slice(0, 10);
  const docs = (await outcomeDays.days(shop, from)).filter((d) => d.day <= to);
  const answered = (d: OutcomeDayDoc) => (d.standard ?? 0) + (d.fallback ?? 0) + (d.no_rate ?? 0);
  const counted = docs.filter((d) => answered(d) > 0);
  return {
    docs,
    window: {
      days,
      from,
      to,
      countingSince: counted[0]?.day ?? '',
      checkouts: counted.reduce((n, d) => n + answered(d), 0),
    },
  };
}

/** One owner's current filters with their counts summed over the window's days. */
function filterCounts(
  docs: OutcomeDayDoc[],
  owner: Owner,
  ownerId: string,
  ownerName: string,
  filters: SnapshotFilter[],
  neverMatchedCounts: boolean,
): AnalyticsFilter[] {
  return filters.map((filter) => {
    const key = filterKey(owner, ownerId, filter.id);
    let matched = 0;
    let stopped = 0;
    let feeCents = 0;
    for (const doc of docs) {
      const counts = doc.filters?.[key];
      if (!counts) continue;
      matched += counts.m ?? 0;
      stopped += counts.s ?? 0;
      feeCents += counts.f ?? 0;
    }
    return {
      owner: OWNER_CODE[owner],
      ownerId,
      ownerName,
      filterId: filter.id,
      filterName: filter.name,
      matched,
      stopped,
      feeCents,
      neverMatched: neverMatchedCounts && matched === 0,
    };
  });
}

function checkDays(days: number): void {
  if (!Number.isInteger(days) || days < 1 || days > ANALYTICS_MAX_DAYS)
    throw new AppError('invalid_data', `Analytics cover 1 to ${ANALYTICS_MAX_DAYS} days.`);
}

export function analyticsHandlers(deps: {
  outcomeDays: OutcomeDaysRepository;
  rulesets: RulesetsRepository;
  productRules: ProductRulesRepository;
  settings: SettingsRepository;
}): Pick<HandlersOf<typeof rulesV1.RulesService>, 'getAnalytics' | 'getFilterAnalytics'> {
  return {
    getAnalytics: async ({ shop, days }) => {
      checkDays(days);
      const { docs, window } = await windowOf(deps.outcomeDays, shop, days);
      const byDay = new Map(docs.map((d) => [d.day, d]));
      const daily = Array.from({ length: days }, (_, i) => {
        const day = new Date(Date.parse(`${window.from}T00:00:00Z`) + i * DAY_MS)
          .toISOString()
          .slice(0, 10);
        const d = byDay.get(day);
        return {
          day,
          standard: d?.standard ?? 0,
          bump: d?.bump ?? 0,
          fallback: d?.fallback ?? 0,
          noRate: d?.no_rate ?? 0,
        };
      });
      const feeBuckets = FEE_BUCKETS.map((_, b) =>
        docs.reduce((n, d) => n + (d.fees?.[`b${b}`] ?? 0), 0),
      );
      const { globalRuleId } = await deps.settings.get(shop);
      const ruleset = globalRuleId ? await deps.rulesets.get(shop, globalRuleId) : undefined;
      const productRules = (await deps.productRules.list(shop)).filter((rule) => rule.active);
      const inUse = window.checkouts > 0;
      const filters = [
        ...(ruleset
          ? filterCounts(docs, 'ruleset', ruleset.id, ruleset.name, ruleset.filters, inUse)
          : []),
        ...productRules.flatMap((rule) =>
          filterCounts(docs, 'product_rule', rule.id, rule.name, rule.filters, inUse),
        ),
      ];
      return { window, daily, feeBuckets, filters };
    },

    getFilterAnalytics: async ({ shop, owner, id }) => {
      const kind: Owner | undefined =
        owner === rulesV1.FilterOwner.RULESET
          ? 'ruleset'
          : owner === rulesV1.FilterOwner.PRODUCT_RULE
            ? 'product_rule'
            : undefined;
      if (!kind) throw new AppError('invalid_data', 'The owner is a ruleset or a product rule.');
      let found: { id: string; filters: SnapshotFilter[]; inUse: boolean } | undefined;
      if (kind === 'ruleset') {
        const ruleset = await deps.rulesets.get(shop, id);
        const { globalRuleId } = await deps.settings.get(shop);
        if (ruleset) found = { ...ruleset, inUse: ruleset.id === globalRuleId };
      } else {
        const rule = await deps.productRules.get(shop, id);
        if (rule) found = { ...rule, inUse: rule.active };
      }
      if (!found) throw new AppError('not_found', NOT_FOUND[kind]);
      const { docs, window } = await windowOf(deps.outcomeDays, shop, ANALYTICS_MAX_DAYS);
      const neverMatched = found.inUse && window.checkouts > 0;
      return {
        window,
        inUse: found.inUse,
        filters: filterCounts(docs, kind, found.id, '', found.filters, neverMatched),
      };
    },
  };
}
