import type { rateEngineV1 } from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import { Router } from 'express';
import { ratePreviewHandlers } from './handlers';

/** The admin's rate preview (interfaces.md "Rate preview"). */
export function ratePreviewRouter(engine: ClientOf<typeof rateEngineV1.RateEngineService>): Router {
  const h = ratePreviewHandlers(engine);
  const router = Router();
  router.post('/', h.preview);
  return router;
}
