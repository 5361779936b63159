import {
  ANALYTICS_MAX_DAYS,
  FEE_BUCKETS,
  rulesV1,
  type AnalyticsReply,
  type AnalyticsWindowJson,
  type FilterAnalyticsReply,
} from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { shopOf, traced } from '../../http/context';
import { parseInput } from '../../http/validate';

const DAYS_HINT = `days is a whole number from 1 to ${ANALYTICS_MAX_DAYS}`;

/** `?days=1..30`, 30 when absent; anything else is refused with a 400. */
const analyticsQuery = z.object({
  days: z
    .string()
    .regex(/^\d{1,2}$/, DAYS_HINT)
    .transform(Number)
    .pipe(z.number().int().min(1, DAYS_HINT).max(ANALYTICS_MAX_DAYS, DAYS_HINT))
    .default(ANALYTICS_MAX_DAYS),
});

const OWNERS = {
  ruleset: rulesV1.FilterOwner.RULESET,
  product_rule: rulesV1.FilterOwner.PRODUCT_RULE,
} as const;

/** `?owner=ruleset|product_rule&id=<24 hex digits>`: the rules service's ids. */
const filtersQuery = z.object({
  owner: z.enum(['ruleset', 'product_rule'], {
    message: 'owner is ruleset or product_rule',
  }),
  id: z.string().regex(/^[0-9a-f]{24}$/i, 'id is a ruleset or product rule id'),
});

const OWNER_JSON: Partial<Record<rulesV1.FilterOwner, 'ruleset' | 'product_rule'>> = {
  [rulesV1.FilterOwner.RULESET]: 'ruleset',
  [rulesV1.FilterOwner.PRODUCT_RULE]: 'product_rule',
};

function windowJson(window: rulesV1.AnalyticsWindow | undefined): AnalyticsWindowJson {
  if (!window) throw new Error('the rules service answered analytics without a window');
  return {
    days: window.days,
    from: window.from,
    to: window.to,
    countingSince: window.countingSince || null,
    checkouts: window.checkouts,
  };
}

const countsJson = (f: rulesV1.AnalyticsFilter) => ({
  filterId: f.filterId,
  matched: f.matched,
  stopped: f.stopped,
  feeCents: f.feeCents,
  neverMatched: f.neverMatched,
});

/**
 * GET /api/analytics and /api/analytics/filters: per-filter checkout
 * analytics (docs/architecture.md, "Per-filter analytics"), counts only,
 * of the token's shop; the rules service joins them with the current filters.
 */
export function analyticsRouter(rules: ClientOf<typeof rulesV1.RulesService>): Router {
  const overview: RequestHandler = async (req, res) => {
    const { days } = parseInput(analyticsQuery, req.query);
    const reply = await rules.call('getAnalytics', { shop: shopOf(res), days }, traced(res));
    res.json({
      status: true,
      message: '',
      ...windowJson(reply.window),
      daily: reply.daily.map(({ day, standard, bump, fallback, noRate }) => ({
        day,
        standard,
        bump,
        fallback,
        noRate,
      })),
      fees: FEE_BUCKETS.map((bucket, b) => ({ ...bucket, count: reply.feeBuckets[b] ?? 0 })),
      filters: reply.filters.flatMap((f) => {
        const owner = OWNER_JSON[f.owner];
        if (!owner) return [];
        return [
          {
            owner,
            ownerId: f.ownerId,
            ownerName: f.ownerName,
            filterName: f.filterName,
            ...countsJson(f),
          },
        ];
      }),
    } satisfies AnalyticsReply);
  };
  const ofOwner: RequestHandler = async (req, res) => {
    const { owner, id } = parseInput(filtersQuery, req.query);
    const reply = await rules.call(
      'getFilterAnalytics',
      { shop: shopOf(res), owner: OWNERS[owner], id },
      traced(res),
    );
    res.json({
      status: true,
      message: '',
      ...windowJson(reply.window),
      inUse: reply.inUse,
      filters: reply.filters.map(countsJson),
    } satisfies FilterAnalyticsReply);
  };
  const router = Router();
  router.get('/', overview);
  router.get('/filters', ofOwner);
  return router;
}
