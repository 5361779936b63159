import { BlockStack, Card, IndexTable, Page, Text } from '@shopify/polaris';
import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  messageOf,
  useApi,
  type GlobalRuleReply,
  type GlobalRuleSummary,
  type StatusReply,
} from '../api';
// From its module, not the api barrel: re-exported there for this lazy page alone, it made
// Rollup split the entry chunk (2.7 kB gzip more on every first load; frontend/test/size-budget).
import { newRequestKey } from '../api/request-key';
import { ConfirmModal } from '../components/ConfirmModal';
import { ListState } from '../components/ListState';
import { RowActions } from '../components/RowActions';
import { EnabledToggle } from '../global-rules/EnabledToggle';
import { filterCountLabel } from '../global-rules/filterCount';
import type { RulesetTemplate } from '../global-rules/templates';
import { useRenameRuleset, useRulesets } from '../global-rules/useRulesets';
import { NoRulesetBanner, useCheckoutWithoutRuleset } from '../global-rules/withoutRuleset';
import { focusWhenReady, pageHeading } from '../shell/focus';
import { dialogOpener, firstControl, FOCUS_FIRST_RULE } from '../shell/focus-targets';
import { useToast } from '../toast';

/** Loaded on the first Add Ruleset click: its templates are not part of the list's first load. */
const AddRulesetModal = lazy(() =>
  import('../global-rules/AddRulesetModal').then((m) => ({ default: m.AddRulesetModal })),
);
/** Loaded on the first Rename click, as Add Ruleset's: the name check is not in the first load either. */
const RenameRulesetModal = lazy(() =>
  import('../global-rules/RulesetNameModal').then((m) => ({ default: m.RenameRulesetModal })),
);

export default function GlobalRules() {
  const api = useApi();
  const toast = useToast();
  const navigate = useNavigate();
  const list = useRulesets();
  const renameRuleset = useRenameRuleset();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<GlobalRuleSummary | undefined>(undefined);
  const [renaming, setRenaming] = useState<GlobalRuleSummary | undefined>(undefined);
  const [disabling, setDisabling] = useState<GlobalRuleSummary | undefined>(undefined);
  /** The ruleset to enable in place of the enabled one, asked first. */
  const [switching, setSwitching] = useState<GlobalRuleSummary | undefined>(undefined);
  /** The id whose toggle/duplicate/delete call is running (its button shows a spinner). */
  const [busy, setBusy] = useState<string | undefined>(undefined);

  const rules = list.data?.globalRules ?? [];
  const activeId = list.data?.shop.global_rule_id ?? null;
  const enabledRuleset = rules.find((rule) => rule.id === activeId);
  /** Deleting or disabling the enabled ruleset leaves checkout without one: say what it gets. */
  const deletingActive = deleting !== undefined && deleting.id === activeId;
  const withoutRuleset = useCheckoutWithoutRuleset(disabling !== undefined || deletingActive);
  /** Disable, and Delete of the enabled ruleset, say what checkout gets then. */
  const noRulesetBanner = (
    <NoRulesetBanner title="No ruleset will be enabled" facts={withoutRuleset} tense="will" />
  );

  /*
   * Focus after an action (issue 36, point 9): a row's buttons are disabled while its call
   * runs and a dialog leaves focus on nothing when it closes, so the keyboard would start
   * again from the top of the page. A created, copied or enabled ruleset's row gets it (its
   * first control, the Enabled toggle), a deletion the page's heading, a dialog closed
   * without acting the button that opened it.
   */
  const opener = useMemo(dialogOpener, []);
  const focusRow = (id: string) => focusWhenReady(() => firstControl(document.getElementById(id)));
  const focusHeading = () => focusWhenReady(() => pageHeading());
  const cancel = (close: (value: undefined) => void) => {
    close(undefined);
    opener.restore();
  };
  const openDialog =
    <T,>(open: (value: T) => void) =>
    (value: T) => {
      opener.remember();
      open(value);
    };

  /** The call's reply, or undefined once its failure is shown. */
  const run = async <R extends StatusReply>(
    id: string,
    call: () => Promise<R>,
    fallback: string,
  ): Promise<R | undefined> => {
    setBusy(id);
    try {
      const reply = await call();
      toast.success(reply.message);
      await list.reload();
      return reply;
    } catch (err) {
      toast.error(messageOf(err, fallback));
      return undefined;
    } finally {
      setBusy(undefined);
    }
  };

  const toggle = (rule: GlobalRuleSummary) => {
    if (rule.id === activeId) {
      toast.info('This ruleset is already enabled.');
      return;
    }
    // Another ruleset is live: checkout changes from its rules to these, so ask first.
    if (activeId !== null) {
      openDialog(setSwitching)(rule);
      return;
    }
    void enable(rule);
  };

  /** Its row keeps focus whether or not the call succeeds (its toggle says which). */
  const enable = async (rule: GlobalRuleSummary) => {
    await run(
      rule.id,
      () => api.get<StatusReply>(`/api/global-rules/${rule.id}/toggle`),
      'Failed to update ruleset',
    );
    focusRow(rule.id);
  };

  const confirmSwitch = async () => {
    if (!switching) return;
    await enable(switching);
    setSwitching(undefined);
  };

  // One key per action until it succeeds: a try again after an error resends it (newRequestKey).
  const copyKeys = useRef(new Map<string, string>());
  const createKey = useRef<string | undefined>(undefined);

  const duplicate = (rule: GlobalRuleSummary) => {
    const requestKey = copyKeys.current.get(rule.id) ?? newRequestKey();
    copyKeys.current.set(rule.id, requestKey);
    void run(
      rule.id,
      async () => {
        const reply = await api.post<GlobalRuleReply>(
          `/api/global-rules/${rule.id}/duplicate`,
          undefined,
          { requestKey },
        );
        copyKeys.current.delete(rule.id);
        return reply;
      },
      'Failed to duplicate ruleset',
    ).then((reply) => focusRow(reply?.rule.id ?? rule.id));
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const deleted = await run(
      deleting.id,
      () => api.delete<StatusReply>(`/api/global-rules/${deleting.id}`),
      'Failed to delete ruleset',
    );
    setDeleting(undefined);
    if (deleted) focusHeading();
    else focusRow(deleting.id);
  };

  /** The active ruleset's toggle route turns it off: no ruleset stays enabled. */
  const confirmDisable = async () => {
    if (!disabling) return;
    await run(
      disabling.id,
      () => api.get<StatusReply>(`/api/global-rules/${disabling.id}/toggle`),
      'Failed to update ruleset',
    );
    setDisabling(undefined);
    focusRow(disabling.id);
  };

  const rename = async (name: string) => {
    if (!renaming) return;
    const renamed = await renameRuleset(renaming.id, name);
    list.setData(
      (data) =>
        data && {
          ...data,
          globalRules: data.globalRules.map((r) =>
            r.id === renamed.id ? { ...r, name: renamed.name } : r,
          ),
        },
    );
    setRenaming(undefined);
    opener.restore();
  };

  /** A blank ruleset joins the list; one from a template opens in the editor with its filters. */
  const create = async (name: string, template: RulesetTemplate | undefined) => {
    createKey.current ??= newRequestKey();
    try {
      const reply = await api.post<GlobalRuleReply>(
        '/api/global-rules',
        { name },
        { requestKey: createKey.current },
      );
      createKey.current = undefined;
      if (template) {
        await api.post(`/api/global-rules/update/${reply.rule.id}`, { rules: template.filters() });
        setAdding(false);
        toast.success(
          `${reply.message} It starts from "${template.name}": edit it to fit your shop.`,
        );
        navigate(`/edit-global-rule/${reply.rule.id}`, { state: FOCUS_FIRST_RULE });
        return;
      }
      list.setData((data) => data && { ...data, globalRules: [...data.globalRules, reply.rule] });
      setAdding(false);
      focusRow(reply.rule.id);
      toast.success(reply.message);
    } catch (err) {
      toast.error(messageOf(err, 'Failed to add ruleset'));
      throw err;
    }
  };

  return (
    <Page
      title="Global Rules"
      subtitle="Only one ruleset is enabled at a time; its rules run first at checkout. Disable leaves no ruleset enabled."
      primaryAction={{ content: 'Add Ruleset', onAction: () => openDialog(setAdding)(true) }}
    >
      <ListState
        label="Loading rulesets"
        loaded={list}
        empty={rules.length === 0}
        emptyHeading="No rulesets yet"
        emptyText="A ruleset is an ordered list of rules that set the shipping fee. Add one to begin."
        emptyAction={{ content: 'Add Ruleset', onAction: () => openDialog(setAdding)(true) }}
      >
        <Card padding="0">
          <IndexTable
            resourceName={{ singular: 'ruleset', plural: 'rulesets' }}
            itemCount={rules.length}
            selectable={false}
            loading={list.loading}
            headings={[
              { title: 'Enabled' },
              { title: 'Name' },
              { title: 'Rules' },
              { title: 'Actions', alignment: 'end' },
            ]}
          >
            {rules.map((rule, index) => {
              const active = rule.id === activeId;
              const locked = busy !== undefined;
              return (
                <IndexTable.Row id={rule.id} key={rule.id} position={index}>
                  <IndexTable.Cell>
                    <EnabledToggle
                      name={rule.name}
                      active={active}
                      busy={busy === rule.id}
                      onToggle={() => toggle(rule)}
                    />
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <Text as="span" variant="bodyMd" fontWeight="semibold">
                      {rule.name || 'Untitled Ruleset'}
                    </Text>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <Text as="span" tone="subdued">
                      {filterCountLabel(rule.filters_count)}
                    </Text>
                  </IndexTable.Cell>
                  <RowActions
                    name={rule.name}
                    actions={[
                      { content: 'Edit', onAction: () => navigate(`/edit-global-rule/${rule.id}`) },
                      {
                        content: 'Rename',
                        onAction: () => openDialog(setRenaming)(rule),
                        disabled: locked,
                      },
                      active && {
                        content: 'Disable',
                        onAction: () => openDialog(setDisabling)(rule),
                        disabled: locked,
                      },
                      { content: 'Duplicate', onAction: () => duplicate(rule), disabled: locked },
                      {
                        content: 'Delete',
                        onAction: () => openDialog(setDeleting)(rule),
                        disabled: locked,
                        destructive: true,
                      },
                    ]}
                  />
                </IndexTable.Row>
              );
            })}
          </IndexTable>
        </Card>
      </ListState>

      {adding && (
        <Suspense fallback={null}>
          <AddRulesetModal
            open
            onClose={() => {
              // Another ruleset next time: a new key.
              createKey.current = undefined;
              cancel(() => setAdding(false));
            }}
            onCreate={create}
          />
        </Suspense>
      )}
      {renaming && (
        <Suspense fallback={null}>
          <RenameRulesetModal
            open
            initialName={renaming.name}
            onClose={() => cancel(setRenaming)}
            onSubmit={rename}
          />
        </Suspense>
      )}

      <ConfirmModal
        open={disabling !== undefined}
        onClose={() => cancel(setDisabling)}
        title={`Disable “${disabling?.name ?? ''}”?`}
        action="Disable"
        destructive
        busy={disabling !== undefined && busy === disabling.id}
        onConfirm={confirmDisable}
      >
        <BlockStack gap="300">
          <Text as="p">
            “{disabling?.name}” will be disabled and no ruleset will be enabled; it and its rules
            are kept.
          </Text>
          {noRulesetBanner}
        </BlockStack>
      </ConfirmModal>

      <ConfirmModal
        open={switching !== undefined}
        onClose={() => cancel(setSwitching)}
        title={`Enable “${switching?.name ?? ''}”?`}
        action="Enable"
        busy={switching !== undefined && busy === switching.id}
        onConfirm={confirmSwitch}
      >
        <Text as="p">
          Checkout will use the rules of “{switching?.name}” instead of those of “
          {enabledRuleset?.name}”. “{enabledRuleset?.name}” will be disabled; it and its rules are
          kept.
        </Text>
      </ConfirmModal>

      <ConfirmModal
        open={deleting !== undefined}
        onClose={() => cancel(setDeleting)}
        title={deletingActive ? 'Delete the enabled ruleset?' : 'Delete ruleset?'}
        action="Delete"
        destructive
        busy={deleting !== undefined && busy === deleting.id}
        onConfirm={confirmDelete}
      >
        <BlockStack gap="300">
          <Text as="p">
            “{deleting?.name}” and its rules will be deleted. This cannot be undone.
          </Text>
          {deletingActive && noRulesetBanner}
        </BlockStack>
      </ConfirmModal>
    </Page>
  );
}
