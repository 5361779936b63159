import { useMemo } from 'react';
import type { FilterAnalyticsReply, FilterCountsJson } from '../api';
import { useGet, type Loaded } from '../components/useLoader';

/** Whose filters an editor shows: a ruleset or a product rule, by id. */
export interface AnalyticsOwner {
  owner: 'ruleset' | 'product_rule';
  id: string;
}

export interface FilterAnalytics {
  loaded: Loaded<FilterAnalyticsReply>;
  /**
   * Each saved filter's counts by filter id, the reply's own objects (a card's
   * props stay equal between keys); undefined when nothing is said per filter
   * (loading, failed, not in use, nothing counted yet).
   */
  byFilter: ReadonlyMap<string, FilterCountsJson> | undefined;
}

/** The editor's counts: read once when the editor opens, never per key. */
export function useFilterAnalytics({ owner, id }: AnalyticsOwner): FilterAnalytics {
  const loaded = useGet<FilterAnalyticsReply>('/api/analytics/filters', { query: { owner, id } });
  const reply = loaded.data;
  const byFilter = useMemo(
    () =>
      reply && reply.inUse && reply.countingSince !== null
        ? new Map(reply.filters.map((counts) => [counts.filterId, counts]))
        : undefined,
    [reply],
  );
  return { loaded, byFilter };
}
