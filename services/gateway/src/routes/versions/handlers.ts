import {
  diffFilters,
  filterToJson,
  type rulesV1,
  type VersionJson,
  type VersionReply,
  type VersionRestoredReply,
  type VersionsList,
} from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import type { RequestHandler } from 'express';
import { shopOf, traced, userOf } from '../../http/context';
import { parseInput } from '../../http/validate';
import { idParams, versionParams } from '../global-rules/schemas';

type RulesClient = ClientOf<typeof rulesV1.RulesService>;

export function versionJson(version: rulesV1.Version | undefined): VersionJson {
  return {
    kind: (version?.kind ?? 'ruleset') as VersionJson['kind'],
    subject_id: version?.subjectId ?? '',
    subject_name: version?.subjectName ?? '',
    number: version?.number ?? 0,
    at: version?.at ?? '',
    user: version?.user ?? '',
    event: (version?.event ?? 'save') as VersionJson['event'],
    summary: version?.summary ?? '',
    checkout: version?.checkout ?? false,
  };
}

/**
 * A ruleset's or product rule's versions: the list, one version with what it
 * changed (diffed here, in the scope's words), and restore.
 */
export function versionHandlers(rules: RulesClient, kind: 'ruleset' | 'product_rule') {
  const scope = kind === 'ruleset' ? 'ruleset' : 'product';
  const noun = kind === 'ruleset' ? 'ruleset' : 'product rule';
  const list: RequestHandler = async (req, res) => {
    const { id } = parseInput(idParams, req.params);
    const reply = await rules.call('listVersions', { shop: shopOf(res), kind, id }, traced(res));
    res.json({ status: true, versions: reply.versions.map(versionJson) } satisfies VersionsList);
  };

  const get: RequestHandler = async (req, res) => {
    const { id, number } = parseInput(versionParams, req.params);
    const reply = await rules.call(
      'getVersion',
      { shop: shopOf(res), kind, id, number },
      traced(res),
    );
    const filters = reply.filters.map(filterToJson);
    res.json({
      status: true,
      version: versionJson(reply.version),
      rules: filters,
      previous_number: reply.previousNumber ?? null,
      changes: diffFilters(reply.previousFilters.map(filterToJson), filters, scope),
    } satisfies VersionReply);
  };

  const restore: RequestHandler = async (req, res) => {
    const { id, number } = parseInput(versionParams, req.params);
    const reply = await rules.call(
      'restoreVersion',
      { shop: shopOf(res), kind, id, number, user: userOf(res) },
      traced(res),
    );
    res.json({
      status: true,
      message:
        reply.number === undefined
          ? `The ${noun} already has version ${number}'s rules.`
          : `Version ${number} restored as version ${reply.number}.`,
      rules: reply.filters.map(filterToJson),
      number: reply.number ?? null,
    } satisfies VersionRestoredReply);
  };

  return { list, get, restore };
}
