import {
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  Divider,
  Icon,
  InlineStack,
  Text,
  TextField,
} from '@shopify/polaris';
import {
  AlertTriangleIcon,
  ArrowDownIcon,
  ArrowUpIcon,
  ChevronDownIcon,
  ChevronRightIcon,
  DeleteIcon,
  DuplicateIcon,
} from '@shopify/polaris-icons';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FilterCountsJson } from '../api';
import { FilterCounts } from '../analytics/FilterCounts';
import { ActionInputs } from './ActionInputs';
import { ConditionEditor } from './ConditionEditor';
import {
  actionLabel,
  conditionsHint,
  describeFilter,
  LIMITS,
  type FilterScope,
} from '@ratesmith/contracts/filters';
import type { EditorFilter, EditorGroup } from './model';
import { MoveToPosition } from './MoveToPosition';
import { sentenceFormat } from './sentenceFormat';
import { useRegions } from '../data/regions';
import { conditionCount } from './tree';
import { wireOf } from './useFilterDraft';
import { leftUnchanged } from '../shell/focus-targets';

/** Edits of one filter, addressed by its id: the same functions for every card and render. */
export interface FilterActions {
  edit(id: string, patch: Partial<EditorFilter>): void;
  move(id: string, offset: -1 | 1): void;
  /** To `position`, 1-based. */
  moveTo(id: string, position: number): void;
  duplicate(id: string): void;
  remove(id: string): void;
  toggle(id: string): void;
  /** Focus left one of the filter's inputs (validation on blur). */
  leave(id: string): void;
}

/** A rule's card and its name field, by the filter's id: where focus goes when a rule is added. */
export const ruleCardId = (filterId: string) => `rule-${filterId}`;
export const ruleNameId = (filterId: string) => `rule-name-${filterId}`;

/** The elements whose blur validates: typing and choosing, not the card's buttons. */
const FORM_FIELDS = new Set(['INPUT', 'SELECT', 'TEXTAREA']);

export interface FilterCardProps {
  filter: EditorFilter;
  /** 1-based position, as in "Rule #N". */
  number: number;
  count: number;
  scope: FilterScope;
  bumpEnabled: boolean;
  /** The shop's currency for the rule's sentence, null while unknown. */
  currency: string | null;
  collapsed: boolean;
  /**
   * Render the inputs only once the card comes near the screen (a long list:
   * 100 filters of 11 conditions are ~30,000 elements, most never looked at).
   */
  lazy: boolean;
  actions: FilterActions;
  /** Sentences of the checks that never block (lintFilters); the same array while they stay the same. */
  warnings: readonly string[];
  /** The saved filter's checkout counts, the same object between keys; undefined: nothing to say. */
  counts?: FilterCountsJson;
  /** The days the counts cover. */
  countsDays?: number;
}

/**
 * One filter: name, conditions, action, override and stop/continue, with
 * collapse, reorder, duplicate and remove. Memoised: a card renders again
 * only when its own filter, position or switches change (useFilterDraft keeps
 * the other filters' objects), so a key in one filter of 100 renders one card.
 */
export const FilterCard = memo(function FilterCard(props: FilterCardProps) {
  const {
    filter,
    number,
    count,
    scope,
    bumpEnabled,
    currency,
    collapsed,
    lazy,
    actions,
    warnings,
    counts,
    countsDays,
  } = props;
  const [limitNote, setLimitNote] = useState(false);
  const ref = useRef<HTMLElement>(null);
  const near = useNearScreen(ref, lazy);
  const title = `Rule #${number}`;
  const name = filter.name.trim();
  const bodyId = `rule-body-${filter.id}`;
  const max = scope === 'ruleset' ? LIMITS.filtersPerRuleset : LIMITS.filtersPerProductRule;
  const owner = scope === 'ruleset' ? 'A ruleset' : 'A product rule';

  const { id } = filter;
  const patch = useCallback((p: Partial<EditorFilter>) => actions.edit(id, p), [actions, id]);
  const setQuery = useCallback((raw_query: EditorGroup) => patch({ raw_query }), [patch]);
  // Redone only when this filter changes: a key in another card leaves it as it was.
  const regions = useRegions().table;
  const sentence = useMemo(
    () => describeFilter(wireOf(filter), sentenceFormat(currency, regions), scope),
    [filter, currency, regions, scope],
  );

  return (
    <Card>
      <section
        aria-label={title}
        id={ruleCardId(filter.id)}
        ref={ref}
        onBlur={(event) => {
          if (FORM_FIELDS.has(event.target.tagName) && !leftUnchanged(event.target))
            actions.leave(id);
        }}
      >
        {/* A form per card: on every key Chromium's autofill reads the typed field's form
            again, and fields outside any form make one form of the whole page (at 100 rules
            that took 10 ms a key; docs/performance.md, "The editor with 100 filters"). */}
        <form noValidate onSubmit={(event) => event.preventDefault()}>
          <BlockStack gap="400">
            <InlineStack align="space-between" blockAlign="center" gap="200">
              <InlineStack gap="100" blockAlign="center" wrap={false}>
                <Button
                  icon={collapsed ? ChevronRightIcon : ChevronDownIcon}
                  variant="tertiary"
                  accessibilityLabel={`${collapsed ? 'Expand' : 'Collapse'} rule #${number}`}
                  ariaExpanded={!collapsed}
                  ariaControls={bodyId}
                  onClick={() => actions.toggle(id)}
                />
                <Text as="h3" variant="headingMd">
                  {title}
                  {name ? `: ${name}` : ''}
                </Text>
              </InlineStack>
              <InlineStack gap="100">
                <Button
                  icon={ArrowUpIcon}
                  variant="tertiary"
                  disabled={number === 1}
                  accessibilityLabel={`Move rule #${number} up`}
                  onClick={() => actions.move(id, -1)}
                />
                <Button
                  icon={ArrowDownIcon}
                  variant="tertiary"
                  disabled={number === count}
                  accessibilityLabel={`Move rule #${number} down`}
                  onClick={() => actions.move(id, 1)}
                />
                <MoveToPosition
                  number={number}
                  count={count}
                  onMove={(position) => actions.moveTo(id, position)}
                />
                <Button
                  icon={DuplicateIcon}
                  variant="tertiary"
                  accessibilityLabel={`Duplicate rule #${number}`}
                  onClick={() => {
                    if (count >= max) setLimitNote(true);
                    else actions.duplicate(id);
                  }}
                >
                  Duplicate
                </Button>
                <Button
                  icon={DeleteIcon}
                  tone="critical"
                  variant="tertiary"
                  onClick={() => actions.remove(id)}
                >
                  Remove rule
                </Button>
              </InlineStack>
            </InlineStack>
            <Text as="p" tone="subdued">
              <span data-rule-sentence>{sentence}</span>
            </Text>
            {counts && countsDays ? (
              <FilterCounts counts={counts} days={countsDays} currency={currency} />
            ) : null}
            {warnings.length > 0 && <RuleWarnings warnings={warnings} number={number} />}
            {limitNote && count >= max && (
              <Banner tone="warning" onDismiss={() => setLimitNote(false)}>
                <p>
                  {owner} can have at most {max} rules, so {title} was not duplicated. Remove a rule
                  first.
                </p>
              </Banner>
            )}
            <div id={bodyId}>
              {collapsed ? (
                <Text as="p" tone="subdued">
                  {summary(filter, scope)}
                </Text>
              ) : near ? (
                <BlockStack gap="400">
                  <TextField
                    label="Rule name"
                    id={ruleNameId(filter.id)}
                    autoComplete="off"
                    maxLength={LIMITS.filterName}
                    showCharacterCount
                    value={filter.name}
                    onChange={(name) => patch({ name })}
                  />
                  <ConditionEditor
                    query={filter.raw_query}
                    onChange={setQuery}
                    hint={conditionsHint(scope)}
                  />
                  <Divider />
                  <ActionInputs
                    filter={filter}
                    scope={scope}
                    bumpEnabled={bumpEnabled}
                    onChange={patch}
                  />
                </BlockStack>
              ) : (
                // Until it is near the screen: about the height it will have, so the page's
                // length and the scroll bar stay put while the cards above fill in.
                <Box minHeight={`${estimatedHeight(filter)}px`}>
                  <Text as="p" tone="subdued">
                    {summary(filter, scope)}
                  </Text>
                </Box>
              )}
            </div>
          </BlockStack>
        </form>
      </section>
    </Card>
  );
});

/**
 * What may be wrong with a rule but does not stop Save All: on a warning
 * background, each with an icon and the word "Warning" (not colour alone).
 * Shown on a collapsed card too.
 */
function RuleWarnings({ warnings, number }: { warnings: readonly string[]; number: number }) {
  return (
    <Box background="bg-surface-warning" padding="300" borderRadius="200">
      <BlockStack as="ul" gap="200" aria-label={`Warnings for rule #${number}`}>
        {warnings.map((warning) => (
          <InlineStack as="li" key={warning} gap="200" wrap={false} blockAlign="start">
            <span>
              <Icon source={AlertTriangleIcon} tone="caution" />
            </span>
            <Text as="p">
              <Text as="span" fontWeight="semibold">
                Warning:
              </Text>{' '}
              {warning}
            </Text>
          </InlineStack>
        ))}
      </BlockStack>
    </Box>
  );
}

/** What a collapsed card says of its filter. */
function summary(filter: EditorFilter, scope: FilterScope): string {
  const conditions = conditionCount(filter.raw_query);
  const amount =
    filter.action_type >= 1 && filter.action_data.trim() ? `: ${filter.action_data.trim()}` : '';
  return `${conditions} condition${conditions === 1 ? '' : 's'} · ${actionLabel(filter.action_type, scope)}${amount}`;
}

/** The rendered card's height, roughly (px): name, each condition row, groups, the action inputs. */
function estimatedHeight(filter: EditorFilter): number {
  const rows = conditionCount(filter.raw_query);
  const overridden = filter.is_shipping_overridden === 'Yes' ? 200 : 0;
  return 330 + overridden + rows * 48 + groupCount(filter.raw_query) * 80;
}

function groupCount(group: EditorGroup): number {
  return group.rules.reduce((n, rule) => (rule.type === 'group' ? n + 1 + groupCount(rule) : n), 0);
}

/**
 * True once the element has come within a screen's height of the viewport
 * (and from then on); always true when `lazy` is off or the browser has no
 * IntersectionObserver (jsdom), so nothing depends on it but the timing.
 */
function useNearScreen(ref: React.RefObject<HTMLElement | null>, lazy: boolean): boolean {
  const [near, setNear] = useState(() => !lazy || typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: '100% 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, ref]);
  return near;
}
