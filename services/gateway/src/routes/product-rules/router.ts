import type { rulesV1 } from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import { Router } from 'express';
import { productRulesHandlers } from './handlers';

export function productRulesRouter(rules: ClientOf<typeof rulesV1.RulesService>): Router {
  const h = productRulesHandlers(rules);
  const router = Router();
  router.get('/', h.list);
  router.get('/:id/rules', h.filters);
  router.post('/update/:id', h.saveFilters);
  router.get('/:id/toggle', h.toggle);
  router.delete('/:id', h.remove);
  return router;
}
