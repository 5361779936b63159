import { Banner, BlockStack, Box, Layout, Page } from '@shopify/polaris';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { FOCUS_FIRST_RULE } from '../shell/focus-targets';
import { isAbort, messageOf, useApi, type SettingsReply } from '../api';
import { ListState } from '../components/ListState';
import { useLoader } from '../components/useLoader';
import { useToast } from '../toast';
import type { FilterScope } from '@ratesmith/contracts/filters';
import { FilterEditor, focusRule } from './FilterEditor';
import type { FilterDraft } from '@ratesmith/contracts/filters';
import { SaveBar } from '../components/SaveBar';
import { RenameRulesetModal } from '../global-rules/RulesetNameModal';
import { useFilterDraft, type FilterDraftState } from './useFilterDraft';
import { setWeightUnit } from './model';
import { useShopWeightUnit } from '../money/useShopCurrency';
import { FilterAnalyticsNote } from '../analytics/FilterCounts';
import { useFilterAnalytics, type AnalyticsOwner } from '../analytics/useFilterAnalytics';

/** What checkout gets when no rule of a ruleset matches (the FAQ says more). */
export const NO_MATCH_HELP =
  'Rules are tried in order. When none matches a cart, checkout gets no Ratesmith rate (Shopify keeps that answer for about 15 minutes), or your fallback rate if one is enabled in Settings.';

export interface LoadedRules {
  /** The ruleset's or product's name; '' when it has none. */
  name: string;
  rules: FilterDraft[];
}

export interface RulesEditorPageProps {
  scope: FilterScope;
  title(name: string | undefined): string;
  backUrl: string;
  load(signal: AbortSignal): Promise<LoadedRules>;
  /** Saves the whole list (Save All); answers the server's message and stored filters. */
  save(rules: FilterDraft[]): Promise<{ message: string; rules: FilterDraft[] }>;
  /** Shown under the filters, given the current draft (the rate preview). */
  below?(draft: FilterDraftState): ReactNode;
  /** Renames what is edited (a ruleset); answers the stored name. Adds a Rename action by the title. */
  rename?(name: string): Promise<string>;
  /** Whose filters these are, for the checkout counts beside each saved filter. */
  analyticsOwner: AnalyticsOwner;
  /** The kept versions (a ruleset's), as a dialog; adds a Versions action by the title. */
  versions?(dialog: VersionsDialog): ReactNode;
  /** A notice above the filters (the ruleset's "not live" banner); `reloadCounts` reads the checkout counts again. */
  notice?(page: { reloadCounts(): void }): ReactNode;
}

/** What the editor gives its versions dialog: open state, and a reload after a restore. */
export interface VersionsDialog {
  open: boolean;
  onClose(): void;
  onRestored(): void;
  /** The draft has unsaved edits (a restore replaces them). */
  dirty: boolean;
}

const NO_ACTION_GROUPS: never[] = [];

/** The filter editor screen of a ruleset or a product rule: load, edit, Save All. */
export function RulesEditorPage({
  scope,
  title,
  backUrl,
  load,
  save,
  below,
  rename,
  versions,
  analyticsOwner,
  notice,
}: RulesEditorPageProps) {
  const api = useApi();
  const toast = useToast();
  const draft = useFilterDraft(scope);
  // New weights start in the shop's unit (Shopify's default weight unit) once it is known.
  const shopWeightUnit = useShopWeightUnit();
  useEffect(() => {
    if (shopWeightUnit) setWeightUnit(shopWeightUnit);
  }, [shopWeightUnit]);
  const { reset } = draft;
  // Its own load: slow or failed counts never hold up the filters or Save All.
  const analytics = useFilterAnalytics(analyticsOwner);
  const [saving, setSaving] = useState(false);
  // The rules as saved (loaded, or answered by the last save): Discard goes back to them.
  const savedRules = useRef<FilterDraft[]>([]);

  const loaded = useLoader(
    useCallback(
      async (signal: AbortSignal) => {
        const [rules, settings] = await Promise.all([
          load(signal),
          // The bump inputs only need to know whether bump shipping is on; without
          // settings they stay disabled and the editor still works.
          api.get<SettingsReply>('/api/settings', { signal }).catch((err: unknown) => {
            if (isAbort(err)) throw err;
            return null;
          }),
        ]);
        reset(rules.rules);
        savedRules.current = rules.rules;
        return { name: rules.name, settings: settings?.settings ?? null };
      },
      [api, load, reset],
    ),
  );

  const saveAll = async () => {
    // Validation on save: what is still wrong shows (the error list), nothing is sent.
    if (draft.errors.length > 0) {
      draft.revealAll();
      return;
    }
    setSaving(true);
    try {
      const reply = await save(draft.wire);
      draft.reset(reply.rules);
      savedRules.current = reply.rules;
      toast.success(reply.message || 'Rules saved.');
    } catch (err) {
      const apiErrors = (err as { errors?: unknown }).errors;
      if (Array.isArray(apiErrors) && apiErrors.length > 0) draft.setServerErrors(apiErrors);
      toast.error(messageOf(err, 'Failed to save the rules'));
    } finally {
      setSaving(false);
    }
  };

  const [renaming, setRenaming] = useState(false);
  const renameTo = async (name: string) => {
    if (!rename) return;
    const stored = await rename(name);
    loaded.setData((current) => current && { ...current, name: stored });
    setRenaming(false);
  };

  const [showingVersions, setShowingVersions] = useState(false);

  const data = loaded.data;
  const location = useLocation();
  const wantsFirstRule =
    (location.state as { focus?: string } | null)?.focus === FOCUS_FIRST_RULE.focus;
  const firstRuleId = data ? draft.filters[0]?.id : undefined;
  const focusedFirstRule = useRef(false);
  useEffect(() => {
    if (!wantsFirstRule || !firstRuleId || focusedFirstRule.current) return;
    focusedFirstRule.current = true;
    focusRule(firstRuleId);
  }, [wantsFirstRule, firstRuleId]);

  // The same arrays from key to key: Polaris' Page measures its secondary actions (a forced
  // layout of the whole page) whenever it gets a new array of actions or of groups (it
  // makes a new empty one when given none), which costs the most on a long list.
  const loadedData = Boolean(data);
  const canRename = Boolean(rename);
  const hasVersions = Boolean(versions);
  const secondaryActions = useMemo(
    () =>
      loadedData
        ? [
            ...(canRename ? [{ content: 'Rename', onAction: () => setRenaming(true) }] : []),
            ...(hasVersions
              ? [{ content: 'Versions', onAction: () => setShowingVersions(true) }]
              : []),
          ]
        : [],
    [loadedData, canRename, hasVersions],
  );
  return (
    <Page
      title={title(data?.name)}
      subtitle={scope === 'ruleset' ? NO_MATCH_HELP : undefined}
      backAction={{ content: 'Back', url: backUrl }}
      primaryAction={{
        content: 'Save All',
        onAction: saveAll,
        loading: saving,
        disabled: !data || draft.shownErrors.length > 0,
      }}
      secondaryActions={secondaryActions.length ? secondaryActions : undefined}
      actionGroups={NO_ACTION_GROUPS}
    >
      {versions?.({
        open: showingVersions,
        onClose: () => setShowingVersions(false),
        // The restored filters replace the draft: load them as on opening the page.
        onRestored: () => void loaded.reload(),
        dirty: draft.dirty,
      })}
      {rename && (
        <RenameRulesetModal
          open={renaming}
          initialName={data?.name ?? ''}
          onClose={() => setRenaming(false)}
          onSubmit={renameTo}
        />
      )}
      <SaveBar
        dirty={Boolean(data) && draft.dirty}
        saving={saving}
        saveDisabled={draft.shownErrors.length > 0}
        onSave={() => void saveAll()}
        onDiscard={() => draft.reset(savedRules.current)}
        subject="these rules"
      />
      <Box paddingBlockEnd="800">
        <ListState label="Loading rules" loaded={loaded} emptyHeading="No rules found">
          <Layout>
            <Layout.Section>
              <BlockStack gap="400">
                {data && !data.settings && (
                  <Banner tone="warning">
                    <p>
                      The settings could not be loaded, so the bump shipping inputs stay disabled.
                    </p>
                  </Banner>
                )}
                {notice?.({ reloadCounts: () => void analytics.loaded.reload() })}
                <FilterAnalyticsNote analytics={analytics} />
                <FilterEditor
                  filters={draft.filters}
                  onChange={draft.setFilters}
                  scope={scope}
                  bumpEnabled={Boolean(data?.settings?.bump_shipping_enabled)}
                  errors={draft.shownErrors}
                  onLeaveFilter={draft.reveal}
                  warnings={draft.warnings}
                  counts={analytics.byFilter}
                  countsDays={analytics.loaded.data?.days}
                />
              </BlockStack>
            </Layout.Section>
            {below && <Layout.Section>{below(draft)}</Layout.Section>}
          </Layout>
        </ListState>
      </Box>
    </Page>
  );
}
