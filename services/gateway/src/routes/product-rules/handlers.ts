import {
  filterToJson,
  type ProductRuleFiltersReply,
  type ProductRulesList,
  type ProductRuleSummary,
  type rulesV1,
} from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import type { RequestHandler } from 'express';
import { shopOf, traced } from '../../http/context';
import { parseInput } from '../../http/validate';
import { deleteHandler, saveFilterListHandler, toggleHandler } from '../filter-list';
import { idParams } from '../global-rules/schemas';

/** The original app's product rule JSON: metadata carries the image and the variants. */
export function productRuleJson(rule: rulesV1.ProductRule): ProductRuleSummary {
  return {
    id: rule.id,
    product_id: rule.productId,
    name: rule.name,
    image: rule.image,
    metadata: {
      image: { src: rule.image },
      variants: rule.variants.map((v) => ({ id: v.id, title: v.title, price: v.price })),
    },
    variants_count: rule.variants.length,
    variant_ids: rule.variantIds,
    active: rule.active,
    filters: rule.filters.map(filterToJson),
    created_at: rule.createdAt,
  };
}

export function productRulesHandlers(rules: ClientOf<typeof rulesV1.RulesService>) {
  const list: RequestHandler = async (_req, res) => {
    const reply = await rules.call('listProductRules', { shop: shopOf(res) }, traced(res));
    res.json({
      products: { data: reply.productRules.map(productRuleJson) },
    } satisfies ProductRulesList);
  };

  const toggle = toggleHandler('Product rule', (res, id) =>
    rules.call('toggleProductRule', { shop: shopOf(res), id }, traced(res)),
  );

  const remove = deleteHandler('Product rule', (res, id) =>
    rules.call('deleteProductRule', { shop: shopOf(res), id }, traced(res)),
  );

  /** The filter editor's read: same shape as GET /api/global-rules/rules. */
  const filters: RequestHandler = async (req, res) => {
    const { id } = parseInput(idParams, req.params);
    const reply = await rules.call('getProductRuleFilters', { shop: shopOf(res), id }, traced(res));
    if (!reply.productRule) throw new Error('rules answered without the product rule');
    res.json({
      status: true,
      productRule: productRuleJson(reply.productRule),
      rules: reply.filters.map(filterToJson),
    } satisfies ProductRuleFiltersReply);
  };

  /** Save All for a product rule: the one save of a filter list, as a ruleset's. */
  const saveFilters = saveFilterListHandler(rules, 'saveProductRuleFilters');

  return { list, toggle, remove, filters, saveFilters };
}
