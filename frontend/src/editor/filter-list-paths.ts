import type { FilterScope } from '@ratesmith/contracts/filters';
import type { ApiClient } from '../api';

/** Where a filter list's owner lives in the API: a ruleset's and a product rule's paths. */
export function filterListPaths(scope: FilterScope, id: string) {
  const path = encodeURIComponent(id);
  return scope === 'ruleset'
    ? {
        load: '/api/global-rules/rules',
        globalRuleId: id,
        save: `/api/global-rules/update/${path}`,
        subject: `/api/global-rules/${path}`,
      }
    : {
        load: `/api/product-rules/${path}/rules`,
        globalRuleId: undefined,
        save: `/api/product-rules/update/${path}`,
        subject: `/api/product-rules/${path}`,
      };
}

/**
 * Starts the read of a filter list as its editor's code loads (a route's loader): the
 * editor's own load takes this answer (ApiClient.prefetch) instead of asking once the
 * screen has rendered, about 0.3 s later on a first visit.
 */
export function prefetchFilterList(client: ApiClient, scope: FilterScope, id: string): void {
  const { load, globalRuleId } = filterListPaths(scope, id);
  client.prefetch(load, { query: globalRuleId === undefined ? undefined : { globalRuleId } });
}
