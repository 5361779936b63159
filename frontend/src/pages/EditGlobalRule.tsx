import { useCallback, useMemo } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { messageOf, useApi, type GlobalRuleReply } from '../api';
import { useToast } from '../toast';
import { RulesEditorPage } from '../editor/RulesEditorPage';
import { useFilterListApi } from '../editor/useFilterListApi';
import { cartPresetOf } from '../preview/cart-link';
import { LazyRatePreview, previewBlockedBy } from '../preview/LazyRatePreview';
import { usePreview } from '../preview/usePreview';
import { VersionsModal } from '../versions/VersionsModal';

/**
 * /edit-global-rule/{id}: the filters of one ruleset, with the rate preview below.
 * `?country=&currency=&line=` (the Dashboard's link to a checkout) fills the preview's cart.
 */
export default function EditGlobalRule() {
  const { id = '' } = useParams();
  const [query] = useSearchParams();
  const initialCart = useMemo(() => cartPresetOf(query), [query]);
  const api = useApi();
  const toast = useToast();

  const { load, save, subjectPath } = useFilterListApi('ruleset', id);

  const preview = usePreview();

  const rename = useCallback(
    async (name: string) => {
      try {
        const reply = await api.post<GlobalRuleReply>(
          `/api/global-rules/${encodeURIComponent(id)}/rename`,
          { name },
        );
        toast.success(reply.message);
        return reply.rule.name;
      } catch (err) {
        toast.error(messageOf(err, 'Failed to rename ruleset'));
        throw err;
      }
    },
    [api, id, toast],
  );

  return (
    <RulesEditorPage
      scope="ruleset"
      title={(name) =>
        name === undefined ? 'Global Rules' : `Global Rules: ${name || 'Untitled Ruleset'}`
      }
      backUrl="/global-rules"
      load={load}
      save={save}
      rename={rename}
      analyticsOwner={{ owner: 'ruleset', id }}
      versions={(dialog) => <VersionsModal subjectPath={subjectPath} noun="ruleset" {...dialog} />}
      below={(draft) => (
        <LazyRatePreview
          {...preview}
          draft={{ globalRuleId: id, rules: draft.wire }}
          blockedReason={previewBlockedBy(draft.errors)}
          initialCart={initialCart}
        />
      )}
    />
  );
}
