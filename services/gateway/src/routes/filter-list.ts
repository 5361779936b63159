import {
  filterFromJson,
  filterToJson,
  type FiltersSavedReply,
  type rulesV1,
  type StatusReply,
} from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import type { RequestHandler, Response, Router } from 'express';
import { shopOf, traced, userOf } from '../http/context';
import { parseInput } from '../http/validate';
import { filtersBodySchema } from './filter.schemas';
import { idParams } from './global-rules/schemas';
import { versionHandlers } from './versions/handlers';

/** The rules service's saves of a filter list, one a kind of owner (same request, same answer). */
type SaveMethod = 'saveRulesetFilters' | 'saveProductRuleFilters';

/**
 * Save All of a filter list, a ruleset's (`POST /api/global-rules/update/{id}`)
 * or a product rule's (`POST /api/product-rules/update/{id}`): one body, one
 * shape check, one answer; the rules service saves both the same way
 * (services/rules/src/domain/filter-list.ts).
 */
export function saveFilterListHandler(
  rules: ClientOf<typeof rulesV1.RulesService>,
  method: SaveMethod,
): RequestHandler {
  return async (req, res) => {
    const { id } = parseInput(idParams, req.params);
    const body = parseInput(filtersBodySchema, req.body);
    const request = {
      shop: shopOf(res),
      id,
      filters: body.rules.map(filterFromJson),
      user: userOf(res),
    };
    const reply =
      method === 'saveRulesetFilters'
        ? await rules.call('saveRulesetFilters', request, traced(res))
        : await rules.call('saveProductRuleFilters', request, traced(res));
    res.json({
      status: true,
      message: 'Rules saved.',
      rules: reply.filters.map(filterToJson),
    } satisfies FiltersSavedReply);
  };
}

/** How the admin's messages name the owner of a filter list. */
type OwnerNoun = 'Ruleset' | 'Product rule';

/** A rules service call about one owner, of the token's shop (`res`) and the path's id. */
type OwnerCall<T> = (res: Response, id: string) => Promise<T>;

/** `GET /{id}/toggle` of a ruleset or a product rule: the answer says which way it went. */
export function toggleHandler(
  noun: OwnerNoun,
  toggle: OwnerCall<{ active: boolean }>,
): RequestHandler {
  return async (req, res) => {
    const { id } = parseInput(idParams, req.params);
    const { active } = await toggle(res, id);
    res.json({
      status: true,
      message: active ? `${noun} enabled.` : `${noun} disabled.`,
    } satisfies StatusReply);
  };
}

/** `DELETE /{id}` of a ruleset or a product rule. */
export function deleteHandler(noun: OwnerNoun, remove: OwnerCall<unknown>): RequestHandler {
  return async (req, res) => {
    const { id } = parseInput(idParams, req.params);
    await remove(res, id);
    res.json({ status: true, message: `${noun} deleted.` } satisfies StatusReply);
  };
}

/**
 * The routes a ruleset (`/api/global-rules`) and a product rule
 * (`/api/product-rules`) have alike, below their own prefix: Save All, toggle,
 * the versions (list, one, restore) and delete.
 */
export function filterListOwnerRoutes(
  router: Router,
  rules: ClientOf<typeof rulesV1.RulesService>,
  kind: 'ruleset' | 'product_rule',
  owner: { saveFilters: RequestHandler; toggle: RequestHandler; remove: RequestHandler },
): void {
  const versions = versionHandlers(rules, kind);
  router.post('/update/:id', owner.saveFilters);
  router.get('/:id/toggle', owner.toggle);
  router.get('/:id/versions', versions.list);
  router.get('/:id/versions/:number', versions.get);
  router.post('/:id/versions/:number/restore', versions.restore);
  router.delete('/:id', owner.remove);
}
