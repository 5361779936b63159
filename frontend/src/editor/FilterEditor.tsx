import {
  Banner,
  BlockStack,
  Button,
  Card,
  Icon,
  InlineStack,
  List,
  Text,
  TextField,
} from '@shopify/polaris';
import { PlusIcon, SearchIcon } from '@shopify/polaris-icons';
import { useMemo, useRef, useState } from 'react';
import { FilterCard, ruleCardId, ruleNameId, type FilterActions } from './FilterCard';
import { focusWhenReady } from '../shell/focus';
import { firstControl } from '../shell/focus-targets';
import type { FilterScope } from '@ratesmith/contracts/filters';
import { duplicateFilter, newFilter, type EditorFilter } from './model';
import { move, moveTo } from './tree';
import type { FiltersUpdate } from './useFilterDraft';
import { useShopCurrency } from '../money/useShopCurrency';
import type { FilterCountsJson } from '../api';

export interface FilterEditorProps {
  filters: EditorFilter[];
  /** Takes a new list or a function of the current one (useFilterDraft's setFilters). */
  onChange(update: FiltersUpdate): void;
  scope: FilterScope;
  bumpEnabled: boolean;
  /** What stands between the merchant and Save All, as far as shown yet (useFilterDraft's `shownErrors`). */
  errors: readonly string[];
  /** Focus left an input of this filter: its errors may show (useFilterDraft's `reveal`). */
  onLeaveFilter?(id: string): void;
  /** Warnings that never block, by filter id (useFilterDraft's `warnings`). */
  warnings: ReadonlyMap<string, readonly string[]>;
  /** Checkout counts of the saved filters by id (useFilterAnalytics); none while unknown or not in use. */
  counts?: ReadonlyMap<string, FilterCountsJson>;
  /** The days the counts cover. */
  countsDays?: number;
}

/**
 * From this many filters on, a card renders its inputs only when it comes
 * near the screen (docs/performance.md, "The editor with 100 filters").
 */
export const LAZY_FROM = 10;

const NONE: ReadonlySet<string> = new Set();
const NO_WARNINGS: readonly string[] = [];

interface Search {
  text: string;
  /**
   * The filters that did not match when the text was typed. Kept as a set, not
   * re-matched on every edit, so a card stays while its name is being changed
   * and a new or duplicated rule shows.
   */
  hidden: ReadonlySet<string>;
}

const matches = (filter: EditorFilter, text: string) =>
  filter.name.toLowerCase().includes(text.trim().toLowerCase());

const ADD_RULE_ID = 'add-rule';

/**
 * Focuses rule `id` once it shows (issue 36, point 9): its name field, or its
 * first button while a long list has not drawn its inputs yet (LAZY_FROM).
 */
export function focusRule(id: string | undefined): () => void {
  return focusWhenReady(() => ruleTarget(id));
}

function ruleTarget(id: string | undefined): HTMLElement | null {
  if (id === undefined) return document.getElementById(ADD_RULE_ID);
  return (
    document.getElementById(ruleNameId(id)) ?? firstControl(document.getElementById(ruleCardId(id)))
  );
}

/** The ordered filter list of a ruleset or a product rule, with search and collapse. */
export function FilterEditor({
  filters,
  onChange,
  scope,
  bumpEnabled,
  errors,
  onLeaveFilter,
  warnings,
  counts,
  countsDays = 0,
}: FilterEditorProps) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(NONE);
  const currency = useShopCurrency();
  const [search, setSearch] = useState<Search>({ text: '', hidden: NONE });

  // One actions object for the editor's life: the cards' props stay equal between keys.
  const change = useRef(onChange);
  change.current = onChange;
  const leave = useRef(onLeaveFilter);
  leave.current = onLeaveFilter;
  const current = useRef(filters);
  current.current = filters;
  const actions = useMemo<FilterActions>(() => {
    const update = (fn: (filters: EditorFilter[]) => EditorFilter[]) => change.current(fn);
    const at = (filters: EditorFilter[], id: string) => filters.findIndex((f) => f.id === id);
    return {
      edit: (id, patch) =>
        update((filters) => filters.map((f) => (f.id === id ? { ...f, ...patch } : f))),
      move: (id, offset) => update((filters) => move(filters, at(filters, id), offset)),
      moveTo: (id, position) => update((filters) => moveTo(filters, at(filters, id), position - 1)),
      duplicate: (id) => {
        // One copy per click, even if React runs the update twice: its id is the card's key.
        let copy: EditorFilter | undefined;
        update((filters) => {
          const index = at(filters, id);
          if (index < 0) return filters;
          copy ??= duplicateFilter(filters[index]!, index + 1);
          const next = [...filters];
          next.splice(index + 1, 0, copy);
          return next;
        });
        // The copy: the update has run by the time its card is drawn.
        focusWhenReady(() => (copy ? ruleTarget(copy.id) : null));
      },
      remove: (id) => {
        // The rule that takes its place, or Add Rule after the last one.
        const list = current.current;
        const next = list[at(list, id) + 1]?.id;
        update((filters) => filters.filter((f) => f.id !== id));
        focusRule(next);
      },
      leave: (id) => leave.current?.(id),
      toggle: (id) =>
        setCollapsed((was) => {
          const next = new Set(was);
          if (!next.delete(id)) next.add(id);
          return next;
        }),
    };
  }, []);

  const searching = search.text.trim() !== '';
  const lazy = filters.length > LAZY_FROM;
  const cards = filters.map((filter, index) =>
    searching && search.hidden.has(filter.id) ? null : (
      <FilterCard
        key={filter.id}
        filter={filter}
        number={index + 1}
        count={filters.length}
        scope={scope}
        bumpEnabled={bumpEnabled}
        currency={currency}
        collapsed={collapsed.has(filter.id)}
        lazy={lazy}
        actions={actions}
        warnings={warnings.get(filter.id) ?? NO_WARNINGS}
        counts={counts?.get(filter.id)}
        countsDays={countsDays}
      />
    ),
  );
  const shown = cards.filter(Boolean).length;
  const clearSearch = () => setSearch({ text: '', hidden: NONE });

  return (
    <BlockStack gap="400">
      {errors.length > 0 && <ErrorList errors={errors} />}
      {filters.length === 0 && (
        <Card>
          <Text as="p" alignment="center" tone="subdued">
            No rules found
          </Text>
        </Card>
      )}
      {filters.length > 1 && (
        <Card>
          <BlockStack gap="200">
            <InlineStack gap="300" align="space-between" blockAlign="end" wrap={false}>
              <div style={{ flex: 1 }}>
                <TextField
                  label="Search rules by name"
                  autoComplete="off"
                  prefix={<Icon source={SearchIcon} tone="base" />}
                  placeholder="Rule name"
                  value={search.text}
                  onChange={(text) =>
                    setSearch({
                      text,
                      hidden: new Set(filters.filter((f) => !matches(f, text)).map((f) => f.id)),
                    })
                  }
                  clearButton
                  onClearButtonClick={clearSearch}
                />
              </div>
              <InlineStack gap="200" wrap={false}>
                <Button onClick={() => setCollapsed(new Set(filters.map((f) => f.id)))}>
                  Collapse all
                </Button>
                <Button onClick={() => setCollapsed(NONE)}>Expand all</Button>
              </InlineStack>
            </InlineStack>
            <Text as="p" tone="subdued">
              <span role="status">
                {searching
                  ? `${shown} of ${filters.length} rules match “${search.text.trim()}”`
                  : `${filters.length} rules`}
              </span>
            </Text>
          </BlockStack>
        </Card>
      )}
      {searching && shown === 0 && (
        <Card>
          <BlockStack gap="200" inlineAlign="center">
            <Text as="p" alignment="center" tone="subdued">
              No rules match “{search.text.trim()}”.
            </Text>
            <Button onClick={clearSearch}>Clear search</Button>
          </BlockStack>
        </Card>
      )}
      {cards}
      <div>
        <Button
          icon={PlusIcon}
          id={ADD_RULE_ID}
          onClick={() => {
            const added = newFilter();
            onChange((filters) => [...filters, added]);
            focusRule(added.id);
          }}
        >
          Add Rule
        </Button>
      </div>
    </BlockStack>
  );
}

export function ErrorList({ errors }: { errors: readonly string[] }) {
  return (
    <Banner tone="critical" title="Please fix the following errors:">
      <List type="bullet">
        {errors.map((error) => (
          <List.Item key={error}>{error}</List.Item>
        ))}
      </List>
    </Banner>
  );
}
