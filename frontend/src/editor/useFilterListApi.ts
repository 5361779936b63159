import { useCallback, useMemo } from 'react';
import type { FilterDraft, FilterScope } from '@ratesmith/contracts/filters';
import {
  useApi,
  type FiltersSavedReply,
  type ProductRuleFiltersReply,
  type RulesetFiltersReply,
} from '../api';
import { filterListPaths } from './filter-list-paths';
import type { LoadedRules } from './RulesEditorPage';

/**
 * The load and Save All of one filter list, a ruleset's or a product rule's:
 * the same calls and answers for both (the gateway's saveFilterListHandler).
 */
export function useFilterListApi(scope: FilterScope, id: string) {
  const api = useApi();
  const paths = useMemo(() => filterListPaths(scope, id), [scope, id]);
  const { load: loadPath, loadQuery, save: savePath, subject } = paths;

  const load = useCallback(
    async (signal: AbortSignal): Promise<LoadedRules> => {
      const reply = await api.get<RulesetFiltersReply | ProductRuleFiltersReply>(loadPath, {
        query: loadQuery,
        signal,
      });
      const owner = 'globalRule' in reply ? reply.globalRule : reply.productRule;
      return { name: owner?.name ?? '', rules: reply.rules ?? [] };
    },
    [api, loadPath, loadQuery],
  );

  const save = useCallback(
    (rules: FilterDraft[]) => api.post<FiltersSavedReply>(savePath, { rules }),
    [api, savePath],
  );

  return { load, save, subjectPath: subject };
}
