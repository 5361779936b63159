import {
  cartLineToWire,
  filterFromJson,
  type PreviewAnswer,
  type PreviewTrace,
  type RateJson,
  type rateEngineV1,
} from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import type { RequestHandler } from 'express';
import { shopOf, traced } from '../../http/context';
import { parseInput } from '../../http/validate';
import { ratePreviewBody } from './schemas';

type RateEngineClient = ClientOf<typeof rateEngineV1.RateEngineService>;

/** Shopify's rate JSON. */
export function rateJson(rate: rateEngineV1.Rate): RateJson {
  return {
    service_name: rate.serviceName,
    service_code: rate.serviceCode,
    total_price: rate.totalPrice,
    description: rate.description,
    currency: rate.currency,
    // Shopify's shape: a rate without a delivery window has neither key.
    ...(rate.minDeliveryDate !== undefined && rate.maxDeliveryDate !== undefined
      ? { min_delivery_date: rate.minDeliveryDate, max_delivery_date: rate.maxDeliveryDate }
      : {}),
  };
}

/** The trace of interfaces.md (fees in cents, product fields only on product steps). */
export function traceJson(trace: rateEngineV1.Trace | undefined): PreviewTrace {
  const free = trace?.freeItems;
  return {
    steps: (trace?.steps ?? []).map((step) => ({
      scope: step.scope === 'product' ? 'product' : 'global',
      ...(step.scope === 'product'
        ? { productRuleId: step.productRuleId, productId: step.productId }
        : {}),
      filterId: step.filterId,
      filterName: step.filterName,
      matched: step.matched,
      ...(step.actionType !== undefined ? { actionType: step.actionType } : {}),
      feeBefore: Number(step.feeBefore),
      feeAfter: Number(step.feeAfter),
      stopped: step.stopped,
      ...(step.cartWeight !== undefined ? { cartWeight: Number(step.cartWeight) } : {}),
      ...(step.region !== undefined ? { region: step.region } : {}),
      ...(step.postalCode !== undefined ? { postalCode: step.postalCode } : {}),
      ...(step.scopeWeight !== undefined ? { scopeWeight: Number(step.scopeWeight) } : {}),
      ...(step.weightSteps !== undefined ? { weightSteps: Number(step.weightSteps) } : {}),
    })),
    freeItems: free
      ? {
          totalUnits: Number(free.totalUnits),
          freeUnits: Number(free.freeUnits),
          feeBefore: Number(free.feeBefore),
          feeAfter: Number(free.feeAfter),
        }
      : null,
    matchedAny: trace?.matchedAny ?? false,
    blocked: trace?.blocked ?? false,
    fee: Number(trace?.fee ?? 0n),
  };
}

export function ratePreviewHandlers(engine: RateEngineClient) {
  /** POST /api/rate-preview: quotes a cart against the shop's rules, or a draft of them. */
  const preview: RequestHandler = async (req, res) => {
    const { rate, draft, ordered_at } = parseInput(ratePreviewBody, req.body);
    const reply = await engine.call(
      'previewRates',
      {
        shop: shopOf(res),
        destinationCountry: rate.destination.country,
        destinationProvince: rate.destination.province ?? '',
        destinationPostalCode: rate.destination.postal_code ?? '',
        currency: rate.currency,
        lines: rate.items.map(cartLineToWire),
        draft: draft
          ? {
              globalRuleId: draft.globalRuleId ?? '',
              productRuleId: draft.productRuleId ?? '',
              filters: draft.rules.map(filterFromJson),
            }
          : undefined,
        orderedAt: ordered_at,
      },
      traced(res),
    );
    res.json({
      status: true,
      rates: reply.rates.map(rateJson),
      trace: traceJson(reply.trace),
    } satisfies PreviewAnswer);
  };
  return { preview };
}
