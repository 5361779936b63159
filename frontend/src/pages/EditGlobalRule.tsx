import type { BannerHandles } from '@shopify/polaris';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { messageOf, useApi, type GlobalRulesList, type StatusReply } from '../api';
import { useToast } from '../toast';
import { focusWhenReady, pageHeading } from '../shell/focus';
import type { FilterDraft } from '@ratesmith/contracts/filters';
import { RulesEditorPage } from '../editor/RulesEditorPage';
import { useRenameRuleset } from '../global-rules/useRulesets';
import { NoRulesetBanner, useCheckoutWithoutRuleset } from '../global-rules/withoutRuleset';
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

  /*
   * A saved ruleset is not live until it is enabled: after a save in a shop where no
   * ruleset is, the editor says so and offers to enable this one (its toggle route, as
   * the Global Rules list does). With another ruleset live, enabling is the list's,
   * which names both first.
   */
  const [notLive, setNotLive] = useState(false);
  const [enabling, setEnabling] = useState(false);
  const withoutRuleset = useCheckoutWithoutRuleset(notLive);
  // The banner appears after a save (issue 36, point 9): focus goes to it, whose next Tab
  // is "Enable it"; once enabled the banner goes and the page's heading takes focus.
  const banner = useRef<BannerHandles>(null);
  useEffect(() => {
    if (notLive) banner.current?.focus();
  }, [notLive]);
  const saveAndCheck = useCallback(
    async (rules: FilterDraft[]) => {
      const reply = await save(rules);
      api.get<GlobalRulesList>('/api/global-rules').then(
        (list) => setNotLive(list.shop.global_rule_id === null),
        // Unknown: say nothing rather than something untrue.
        () => undefined,
      );
      return reply;
    },
    [api, save],
  );
  const enableIt = async (reloadCounts: () => void) => {
    setEnabling(true);
    try {
      const reply = await api.get<StatusReply>(
        `/api/global-rules/${encodeURIComponent(id)}/toggle`,
      );
      toast.success(reply.message);
      setNotLive(false);
      focusWhenReady(() => pageHeading());
      reloadCounts();
    } catch (err) {
      toast.error(messageOf(err, 'Failed to update ruleset'));
      banner.current?.focus();
    } finally {
      setEnabling(false);
    }
  };

  const preview = usePreview();

  const renameRuleset = useRenameRuleset();
  const rename = useCallback(
    async (name: string) => (await renameRuleset(id, name)).name,
    [renameRuleset, id],
  );

  return (
    <RulesEditorPage
      scope="ruleset"
      title={(name) =>
        name === undefined ? 'Global Rules' : `Global Rules: ${name || 'Untitled Ruleset'}`
      }
      backUrl="/global-rules"
      load={load}
      save={saveAndCheck}
      rename={rename}
      analyticsOwner={{ owner: 'ruleset', id }}
      notice={({ reloadCounts }) =>
        notLive && (
          <NoRulesetBanner
            bannerRef={banner}
            title="This ruleset is not live"
            facts={withoutRuleset}
            tense="now"
            action={{
              content: 'Enable it',
              loading: enabling,
              onAction: () => void enableIt(reloadCounts),
            }}
          />
        )
      }
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
