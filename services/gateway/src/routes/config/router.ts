import type { catalogV1, rulesV1 } from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import { Router } from 'express';
import { configHandlers } from './handlers';

export function configRouter(
  rules: ClientOf<typeof rulesV1.RulesService>,
  catalog: ClientOf<typeof catalogV1.CatalogService>,
  catalogTimeoutMs: number,
): Router {
  const h = configHandlers(rules, catalog, catalogTimeoutMs);
  const router = Router();
  router.get('/export', h.exportConfig);
  router.post('/import', h.importConfig);
  return router;
}
