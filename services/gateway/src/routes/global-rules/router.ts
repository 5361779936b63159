import type { rulesV1 } from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import { Router } from 'express';
import { globalRulesHandlers } from './handlers';
import { filterListOwnerRoutes } from '../filter-list';

/** The original app's ruleset routes, unchanged in method and path, plus duplicate, rename and versions. */
export function globalRulesRouter(rules: ClientOf<typeof rulesV1.RulesService>): Router {
  const h = globalRulesHandlers(rules);
  const router = Router();
  router.get('/', h.list);
  router.post('/', h.create);
  router.get('/rules', h.filters);
  // Before /:id/rename: POST /update/rename is a Save All of a ruleset named by that id.
  filterListOwnerRoutes(router, rules, 'ruleset', h);
  router.post('/:id/duplicate', h.duplicate);
  router.post('/:id/rename', h.rename);
  return router;
}
