import { AppProvider } from '@shopify/polaris';
import en from '@shopify/polaris/locales/en.json';
import { render } from '@testing-library/react';
import { useEffect, type ReactElement } from 'react';
import type { FilterDraft, FilterScope } from '@ratesmith/contracts/filters';
import type { FilterCountsJson } from '../api';
import { FilterEditor } from './FilterEditor';
import { useFilterDraft, type FilterDraftState } from './useFilterDraft';

// jsdom lays nothing out, so every element's offsetParent is null, and Polaris
// popovers (the country Autocomplete) wait for one before they open.
// Component tests only: these fill gaps of jsdom, not of the app.
if (typeof HTMLElement !== 'undefined' && !('__layoutShim' in HTMLElement.prototype)) {
  Object.defineProperty(HTMLElement.prototype, 'offsetParent', {
    configurable: true,
    get(this: HTMLElement) {
      return this.parentElement;
    },
  });
  // Listboxes scroll the active option into view.
  if (!HTMLElement.prototype.scrollBy) HTMLElement.prototype.scrollBy = () => undefined;
  // Modals lock and restore the page scroll.
  window.scroll = () => undefined;
  Object.defineProperty(HTMLElement.prototype, '__layoutShim', { value: true });
}

/** Renders inside Polaris' AppProvider, as the app does (component tests only). */
export function renderWithPolaris(ui: ReactElement) {
  return render(<AppProvider i18n={en}>{ui}</AppProvider>);
}

const NO_FILTERS: FilterDraft[] = [];

/**
 * The editor as RulesEditorPage wires it, started from saved filters (a new
 * array resets it); `seen` gets each draft (component tests only).
 */
export function DraftEditor({
  saved = NO_FILTERS,
  scope = 'ruleset',
  seen,
  counts,
}: {
  saved?: FilterDraft[];
  scope?: FilterScope;
  seen?(draft: FilterDraftState): void;
  /** Checkout counts by filter id, as RulesEditorPage passes them (30 days). */
  counts?: ReadonlyMap<string, FilterCountsJson>;
}) {
  const draft = useFilterDraft(scope);
  const { reset } = draft;
  useEffect(() => reset(saved), [reset, saved]);
  seen?.(draft);
  return (
    <FilterEditor
      filters={draft.filters}
      onChange={draft.setFilters}
      scope={scope}
      bumpEnabled={false}
      errors={draft.shownErrors}
      onLeaveFilter={draft.reveal}
      warnings={draft.warnings}
      counts={counts}
      countsDays={30}
    />
  );
}
