import type { authV1 } from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import express, { Router } from 'express';
import { requireJsonBody } from '../../http/security-headers';
import { installHandlers } from './handlers';

/**
 * POST /api/install, GET /api/verify, POST /api/reinstall: mounted on /api
 * before the session check, with their own small body limit. Other paths
 * fall through to the session-checked API.
 */
export function installRouter(
  auth: ClientOf<typeof authV1.AuthService>,
  apiSecret: string,
): Router {
  const h = installHandlers(auth, apiSecret);
  const router = Router();
  const body = [requireJsonBody, express.json({ limit: '8kb', strict: true })];
  router.use(['/install', '/verify', '/reinstall'], (_req, res, next) => {
    res.setHeader('cache-control', 'no-store');
    next();
  });
  router.post('/install', ...body, h.install);
  router.get('/verify', h.verify);
  router.post('/reinstall', ...body, h.reinstall);
  return router;
}
