import type { catalogV1, rulesV1 } from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import { Router } from 'express';
import { catalogHandlers } from './catalog-handlers';
import { versionHandlers } from '../versions/handlers';
import { productRulesHandlers } from './handlers';

export function productRulesRouter(
  rules: ClientOf<typeof rulesV1.RulesService>,
  catalog: ClientOf<typeof catalogV1.CatalogService>,
  catalogTimeoutMs: number,
): Router {
  const h = productRulesHandlers(rules);
  const store = catalogHandlers(catalog, catalogTimeoutMs);
  const versions = versionHandlers(rules, 'product_rule');
  const router = Router();
  router.get('/', h.list);
  router.get('/shopify-products', store.list);
  router.get('/shopify-products/:id/variants', store.variants);
  router.post('/add-shopify-product', store.add);
  router.get('/:id/rules', h.filters);
  router.post('/update/:id', h.saveFilters);
  router.get('/:id/toggle', h.toggle);
  router.get('/:id/versions', versions.list);
  router.get('/:id/versions/:number', versions.get);
  router.post('/:id/versions/:number/restore', versions.restore);
  router.delete('/:id', h.remove);
  return router;
}
