import { authV1, type CarrierServiceReply, type CarrierServiceStatus } from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import { Router, type RequestHandler } from 'express';
import { shopOf, traced } from '../../http/context';
import { SHOPIFY_BACKED_TIMEOUT_MS } from '../../shopify-backed-calls';

const STATE: Record<authV1.CarrierState, CarrierServiceStatus['state']> = {
  [authV1.CarrierState.UNSPECIFIED]: 'unknown',
  [authV1.CarrierState.ACTIVE]: 'active',
  [authV1.CarrierState.INACTIVE]: 'inactive',
  [authV1.CarrierState.NEEDS_PLAN]: 'needs_plan',
  [authV1.CarrierState.ERROR]: 'error',
};

function carrierJson(status: authV1.CarrierStatus | undefined): CarrierServiceStatus {
  return {
    state: STATE[status?.state ?? authV1.CarrierState.UNSPECIFIED] ?? 'unknown',
    detail: status?.detail ?? '',
    checked_at: status?.checkedAt || null,
    zones: status?.zones ? { asking: status.zones.asking, total: status.zones.total } : null,
  };
}

/**
 * Whether checkout calls the app: GET the last known carrier status, POST
 * /check to register or reactivate it now ("Check again").
 */
export function carrierServiceRouter(auth: ClientOf<typeof authV1.AuthService>): Router {
  const get: RequestHandler = async (_req, res) => {
    const reply = await auth.call('getCarrierStatus', { shop: shopOf(res) }, traced(res));
    res.json({
      status: true,
      carrier_service: carrierJson(reply.status),
      message: '',
    } satisfies CarrierServiceReply);
  };
  const check: RequestHandler = async (_req, res) => {
    // Registering makes up to three Shopify calls, then the zones are read: a longer wait.
    const reply = await auth.call(
      'checkCarrierService',
      { shop: shopOf(res) },
      { ...traced(res), timeoutMs: SHOPIFY_BACKED_TIMEOUT_MS },
    );
    const carrier = carrierJson(reply.status);
    res.json({
      status: true,
      carrier_service: carrier,
      message: carrier.state === 'active' ? 'Checkout uses Ratesmith.' : 'Checked with Shopify.',
    } satisfies CarrierServiceReply);
  };
  const router = Router();
  router.get('/', get);
  router.post('/check', check);
  return router;
}
