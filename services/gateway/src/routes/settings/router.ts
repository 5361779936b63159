import type { rulesV1 } from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import { Router } from 'express';
import { settingsHandlers } from './handlers';

export function settingsRouter(rules: ClientOf<typeof rulesV1.RulesService>): Router {
  const h = settingsHandlers(rules);
  const router = Router();
  router.get('/', h.get);
  router.post('/', h.save);
  return router;
}
