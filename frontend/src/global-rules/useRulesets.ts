import { useCallback } from 'react';
import { useApi, type GlobalRulesList } from '../api';
import { useLoader, type Loaded } from '../components/useLoader';

/** GET /api/global-rules: the shop's rulesets and which one is enabled. */
export function useRulesets(): Loaded<GlobalRulesList> {
  const api = useApi();
  return useLoader(
    useCallback(
      (signal: AbortSignal) => api.get<GlobalRulesList>('/api/global-rules', { signal }),
      [api],
    ),
  );
}
