import {
  cartLineFromWire,
  cartLineToJson,
  rulesV1,
  type CheckoutCartJson,
  type CheckoutOutcomesReply,
} from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import { Router, type RequestHandler } from 'express';
import { shopOf, traced } from '../../http/context';

/** The Dashboard's window. */
export const OUTCOME_DAYS = 7;

const OUTCOME_JSON: Partial<Record<rulesV1.CheckoutOutcome, CheckoutCartJson['outcome']>> = {
  [rulesV1.CheckoutOutcome.FALLBACK]: 'fallback',
  [rulesV1.CheckoutOutcome.NO_RATE]: 'no_rate',
};

/**
 * GET /api/checkout-outcomes: how many checkouts of the last 7 days got the
 * fallback rate or no rate, and the latest such carts (figures only), so the
 * Dashboard can open them in the preview. No input: the shop is the token's.
 */
export function checkoutOutcomesRouter(rules: ClientOf<typeof rulesV1.RulesService>): Router {
  const get: RequestHandler = async (_req, res) => {
    const shop = shopOf(res);
    const [outcomes, settings] = await Promise.all([
      rules.call('getCheckoutOutcomes', { shop, days: OUTCOME_DAYS }, traced(res)),
      rules.call('getSettings', { shop }, traced(res)),
    ]);
    res.json({
      status: true,
      message: '',
      days: OUTCOME_DAYS,
      fallback: outcomes.fallback,
      no_rate: outcomes.noRate,
      blocked: outcomes.blocked,
      fallback_enabled: settings.settings?.fallbackEnabled ?? false,
      carts: outcomes.carts.flatMap((cart) => {
        const outcome = OUTCOME_JSON[cart.outcome];
        if (!outcome) return [];
        return [
          {
            outcome,
            at: cart.at,
            country: cart.country,
            currency: cart.currency,
            lines: cart.lines.map((line) => cartLineToJson(cartLineFromWire(line))),
          },
        ];
      }),
    } satisfies CheckoutOutcomesReply);
  };
  const router = Router();
  router.get('/', get);
  return router;
}
