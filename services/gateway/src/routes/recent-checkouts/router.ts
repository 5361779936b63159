import { fromBinary } from '@bufbuild/protobuf';
import {
  cartLineFromWire,
  cartLineToJson,
  rateEngineV1,
  recentRateFromWire,
  settingsToJson,
  type RecentCheckoutJson,
  type RecentCheckoutReply,
  type RecentCheckoutsReply,
  type rulesV1,
} from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { shopOf, traced } from '../../http/context';
import { parseInput } from '../../http/validate';
import { traceJson } from '../rate-preview/handlers';

/** How many recent checkouts the rules service keeps a shop (services/rules). */
const KEPT_AT_MOST = 200;

/** A stored checkout's id: the rules service's 24 hex digits. */
const idParams = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/i, 'Unknown checkout.') });

function checkoutJson(checkout: rulesV1.RecentCheckout): RecentCheckoutJson {
  return {
    id: checkout.id,
    at: checkout.at,
    country: checkout.country,
    currency: checkout.currency,
    lines: checkout.lines.map((line) => cartLineToJson(cartLineFromWire(line))),
    rates: checkout.rates.map(recentRateFromWire),
    latency_ms: Math.round(checkout.latencyUs / 10) / 100,
  };
}

/**
 * GET /api/recent-checkouts and /api/recent-checkouts/{id}: the carrier
 * callbacks the engine sampled, and one with its trace (docs/architecture.md,
 * "Recent checkouts"). The shop is the token's; the id is checked before any call.
 */
export function recentCheckoutsRouter(rules: ClientOf<typeof rulesV1.RulesService>): Router {
  const list: RequestHandler = async (_req, res) => {
    const shop = shopOf(res);
    const [reply, settings] = await Promise.all([
      rules.call('listRecentCheckouts', { shop }, traced(res)),
      rules.call('getSettings', { shop }, traced(res)),
    ]);
    const { recent_checkouts_enabled, recent_checkouts_days } = settingsToJson(settings.settings);
    res.json({
      status: true,
      message: '',
      checkouts: reply.checkouts.map(checkoutJson),
      enabled: recent_checkouts_enabled,
      retention_days: recent_checkouts_days,
      kept_at_most: KEPT_AT_MOST,
    } satisfies RecentCheckoutsReply);
  };
  const one: RequestHandler = async (req, res) => {
    const { id } = parseInput(idParams, req.params);
    const { checkout } = await rules.call(
      'getRecentCheckout',
      { shop: shopOf(res), id },
      traced(res),
    );
    if (!checkout) throw new Error('getRecentCheckout answered without a checkout');
    res.json({
      status: true,
      message: '',
      checkout: {
        ...checkoutJson(checkout),
        trace: traceJson(fromBinary(rateEngineV1.TraceSchema, checkout.trace)),
      },
    } satisfies RecentCheckoutReply);
  };
  const router = Router();
  router.get('/', list);
  router.get('/:id', one);
  return router;
}
