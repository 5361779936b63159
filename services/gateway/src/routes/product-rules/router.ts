import type { catalogV1, rulesV1 } from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import { Router } from 'express';
import { catalogHandlers } from './catalog-handlers';
import { filterListOwnerRoutes } from '../filter-list';
import { productRulesHandlers } from './handlers';

export function productRulesRouter(
  rules: ClientOf<typeof rulesV1.RulesService>,
  catalog: ClientOf<typeof catalogV1.CatalogService>,
  catalogTimeoutMs: number,
): Router {
  const h = productRulesHandlers(rules);
  const store = catalogHandlers(catalog, catalogTimeoutMs);
  const router = Router();
  router.get('/', h.list);
  router.get('/shopify-products', store.list);
  router.get('/shopify-products/:id/variants', store.variants);
  router.post('/add-shopify-product', store.add);
  router.get('/:id/rules', h.filters);
  filterListOwnerRoutes(router, rules, 'product_rule', h);
  return router;
}
