import type { rulesV1 } from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import { Router } from 'express';
import { globalRulesHandlers } from './handlers';
import { versionHandlers } from '../versions/handlers';

/** The original app's ruleset routes, unchanged in method and path, plus duplicate, rename and versions. */
export function globalRulesRouter(rules: ClientOf<typeof rulesV1.RulesService>): Router {
  const h = globalRulesHandlers(rules);
  const versions = versionHandlers(rules, 'ruleset');
  const router = Router();
  router.get('/', h.list);
  router.post('/', h.create);
  router.get('/rules', h.filters);
  router.post('/update/:id', h.saveFilters);
  router.get('/:id/toggle', h.toggle);
  router.post('/:id/duplicate', h.duplicate);
  router.post('/:id/rename', h.rename);
  router.get('/:id/versions', versions.list);
  router.get('/:id/versions/:number', versions.get);
  router.post('/:id/versions/:number/restore', versions.restore);
  router.delete('/:id', h.remove);
  return router;
}
