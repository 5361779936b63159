import type { authV1 } from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import { Router } from 'express';
import { jsonParser } from '../../http/json-body';
import { requireJsonBody } from '../../http/security-headers';
import type { GatewayShopify } from '../../auth/shopify';
import { installHandlers } from './handlers';

/**
 * POST /api/install, GET /api/verify, POST /api/reinstall: mounted on /api
 * before the session check, with their own small body limit. Other paths
 * fall through to the session-checked API.
 */
export function installRouter(
  auth: ClientOf<typeof authV1.AuthService>,
  shopify: GatewayShopify,
): Router {
  const h = installHandlers(auth, shopify);
  const router = Router();
  const body = [requireJsonBody, jsonParser('8kb')];
  router.use(['/install', '/verify', '/reinstall'], (_req, res, next) => {
    res.setHeader('cache-control', 'no-store');
    next();
  });
  router.post('/install', ...body, h.install);
  router.get('/verify', h.verify);
  router.post('/reinstall', ...body, h.reinstall);
  return router;
}
