import type { GlobalRulesList } from '../api';
import { useGet, type Loaded } from '../components/useLoader';

/** GET /api/global-rules: the shop's rulesets and which one is enabled. */
export function useRulesets(): Loaded<GlobalRulesList> {
  return useGet<GlobalRulesList>('/api/global-rules');
}
