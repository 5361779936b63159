import { useCallback } from 'react';
import { messageOf, useApi, type GlobalRuleReply, type GlobalRulesList } from '../api';
import { useGet, type Loaded } from '../components/useLoader';
import { useToast } from '../toast';

/** GET /api/global-rules: the shop's rulesets and which one is enabled. */
export function useRulesets(): Loaded<GlobalRulesList> {
  return useGet<GlobalRulesList>('/api/global-rules');
}

/**
 * Renames a ruleset (the list's Rename and the editor's), saying how it went in a
 * toast: the renamed ruleset; a failure is thrown too, so the name modal stays open.
 */
export function useRenameRuleset(): (id: string, name: string) => Promise<GlobalRuleReply['rule']> {
  const api = useApi();
  const toast = useToast();
  return useCallback(
    async (id, name) => {
      try {
        const reply = await api.post<GlobalRuleReply>(
          `/api/global-rules/${encodeURIComponent(id)}/rename`,
          { name },
        );
        toast.success(reply.message);
        return reply.rule;
      } catch (err) {
        toast.error(messageOf(err, 'Failed to rename ruleset'));
        throw err;
      }
    },
    [api, toast],
  );
}
