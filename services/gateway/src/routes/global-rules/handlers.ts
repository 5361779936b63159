import {
  filterToJson,
  type GlobalRuleReply,
  type GlobalRulesList,
  type GlobalRuleSummary,
  type RulesetFiltersReply,
  type rulesV1,
} from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import type { Request, RequestHandler, Response } from 'express';
import { shopOf, traced, userOf } from '../../http/context';
import { parseInput } from '../../http/validate';
import { deleteHandler, saveFilterListHandler, toggleHandler } from '../filter-list';
import {
  createHeaders,
  createRulesetBody,
  idParams,
  renameRulesetBody,
  rulesQuery,
} from './schemas';

type RulesClient = ClientOf<typeof rulesV1.RulesService>;

/** The original app's ruleset JSON. */
export function rulesetJson(ruleset: rulesV1.Ruleset | undefined): GlobalRuleSummary {
  return {
    id: ruleset?.id ?? '',
    name: ruleset?.name ?? '',
    position: ruleset?.position ?? 0,
    filters_count: ruleset?.filterCount ?? 0,
    active: ruleset?.active ?? false,
    created_at: ruleset?.createdAt ?? '',
  };
}

/** Answers a change that makes or alters one ruleset: what happened, and the ruleset now. */
function sendRuleset(res: Response, message: string, ruleset: rulesV1.Ruleset | undefined): void {
  res.json({ status: true, message, rule: rulesetJson(ruleset) } satisfies GlobalRuleReply);
}

/** A create's key (create and duplicate): the same key sent again answers the first's ruleset. */
function requestKeyOf(req: Request): string {
  return parseInput(createHeaders, req.headers)['idempotency-key'];
}

export function globalRulesHandlers(rules: RulesClient) {
  const list: RequestHandler = async (_req, res) => {
    const shop = shopOf(res);
    const reply = await rules.call('listRulesets', { shop }, traced(res));
    res.json({
      shop: { shop, global_rule_id: reply.globalRuleId || null },
      globalRules: reply.rulesets.map(rulesetJson),
    } satisfies GlobalRulesList);
  };

  const create: RequestHandler = async (req, res) => {
    const { name } = parseInput(createRulesetBody, req.body);
    const reply = await rules.call(
      'createRuleset',
      { shop: shopOf(res), name, requestKey: requestKeyOf(req) },
      traced(res),
    );
    sendRuleset(res, 'Ruleset created.', reply.ruleset);
  };

  const toggle = toggleHandler('Ruleset', (res, id) =>
    rules.call('toggleRuleset', { shop: shopOf(res), id, user: userOf(res) }, traced(res)),
  );

  /** POST /api/global-rules/{id}/rename: the name rules of Add Ruleset; answers the renamed rule. */
  const rename: RequestHandler = async (req, res) => {
    const { id } = parseInput(idParams, req.params);
    const { name } = parseInput(renameRulesetBody, req.body);
    const reply = await rules.call(
      'renameRuleset',
      { shop: shopOf(res), id, name, user: userOf(res) },
      traced(res),
    );
    sendRuleset(res, 'Ruleset renamed.', reply.ruleset);
  };

  const remove = deleteHandler('Ruleset', (res, id) =>
    rules.call('deleteRuleset', { shop: shopOf(res), id }, traced(res)),
  );

  const duplicate: RequestHandler = async (req, res) => {
    const { id } = parseInput(idParams, req.params);
    const reply = await rules.call(
      'duplicateRuleset',
      { shop: shopOf(res), id, requestKey: requestKeyOf(req) },
      traced(res),
    );
    sendRuleset(res, 'Ruleset duplicated.', reply.ruleset);
  };

  const filters: RequestHandler = async (req, res) => {
    const { globalRuleId } = parseInput(rulesQuery, req.query);
    const reply = await rules.call(
      'getRulesetFilters',
      { shop: shopOf(res), id: globalRuleId },
      traced(res),
    );
    res.json({
      status: true,
      globalRule: rulesetJson(reply.ruleset),
      rules: reply.filters.map(filterToJson),
    } satisfies RulesetFiltersReply);
  };

  const saveFilters = saveFilterListHandler(rules, 'saveRulesetFilters');

  return { list, create, toggle, rename, remove, duplicate, filters, saveFilters };
}
