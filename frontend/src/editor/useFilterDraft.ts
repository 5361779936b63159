import { useCallback, useMemo, useState } from 'react';
import {
  LIMITS,
  lintFilters,
  validateFilters,
  type FilterDraft,
  type FilterScope,
} from '@ratesmith/contracts/filters';
import { filterFromWire, filterToWire, type EditorFilter } from './model';

/** A new list, or how to make one from the current list (as React's setState takes). */
export type FiltersUpdate = EditorFilter[] | ((filters: EditorFilter[]) => EditorFilter[]);

export interface FilterDraftState {
  filters: EditorFilter[];
  /** Stable across renders; an edit keeps every other filter's object (FilterCard skips them). */
  setFilters(update: FiltersUpdate): void;
  /** Start again from what the server holds (after a load or a save). */
  reset(saved: readonly FilterDraft[]): void;
  /** What Save All would send. */
  wire: FilterDraft[];
  /** True when the filters differ from the last loaded or saved ones. */
  dirty: boolean;
  /** The client's check, then the server's answer to the last save until the next edit. */
  errors: string[];
  /**
   * What the page shows of `errors`: a filter's once the merchant has left one
   * of its inputs (`reveal`), all of them once Save All was pressed
   * (`revealAll`), and the server's answer; none on opening or on Add Rule,
   * before anything was typed. Until the next load or save.
   */
  shownErrors: string[];
  reveal(id: string): void;
  revealAll(): void;
  /**
   * The checks that never block (lintFilters), by filter id: the same array
   * object while a filter's sentences stay the same, so its card does not
   * render again. A filter without warnings has no entry.
   */
  warnings: ReadonlyMap<string, readonly string[]>;
  setServerErrors(errors: string[]): void;
}

/**
 * Per filter, computed once per edit of that filter (typing in one
 * filter of 100 must not redo the other 99): its wire form, that form as
 * JSON (for `dirty`), and its messages under the label it had. Keyed by the
 * filter object, which the tree edits (tree.ts) and setFilters replace only
 * for the filter that changed.
 */
interface FilterFacts {
  wire: FilterDraft;
  json: string;
  scope?: FilterScope;
  label?: string;
  errors?: string[];
  /** The last warnings shown for this version of the filter. */
  warnings?: readonly string[];
}
const facts = new WeakMap<EditorFilter, FilterFacts>();

function factsOf(filter: EditorFilter): FilterFacts {
  let known = facts.get(filter);
  if (!known) {
    const wire = filterToWire(filter);
    known = { wire, json: JSON.stringify(wire) };
    facts.set(filter, known);
  }
  return known;
}

const ruleLabel = (index: number) => `Rule #${index + 1}`;

const NONE: string[] = [];
const NO_IDS: ReadonlySet<string> = new Set();

/**
 * The shared validation (validateFilters of @ratesmith/contracts/filters),
 * one filter at a time, as the server runs it on the whole list: the list's
 * only check of its own is the filter count, which answers alone when it
 * fails; every other message is one filter's, named by its position.
 */
export function draftErrors(
  filters: readonly EditorFilter[],
  scope: FilterScope,
  only: (filter: EditorFilter) => boolean = () => true,
): string[] {
  const max = scope === 'ruleset' ? LIMITS.filtersPerRuleset : LIMITS.filtersPerProductRule;
  if (filters.length > max) return validateFilters(filters.map(wireOf), scope).errors;
  return filters.flatMap((filter, index) => {
    if (!only(filter)) return NONE;
    const known = factsOf(filter);
    const label = ruleLabel(index);
    if (known.errors === undefined || known.label !== label || known.scope !== scope) {
      known.errors = validateFilters([known.wire], scope, { ruleLabel: () => label }).errors;
      known.label = label;
      known.scope = scope;
    }
    return known.errors;
  });
}

/** What Save All sends for one filter (made once per version of the filter). */
export const wireOf = (filter: EditorFilter): FilterDraft => factsOf(filter).wire;

/**
 * The list's warnings by filter id. The lint reads only the edited filter
 * again (it keeps its analysis per wire object); a filter whose sentences did
 * not change keeps its array, so FilterCard's memo holds.
 */
export function draftWarnings(
  filters: readonly EditorFilter[],
  scope: FilterScope,
): ReadonlyMap<string, readonly string[]> {
  const found = new Map<EditorFilter, string[]>();
  for (const warning of lintFilters(filters.map(wireOf), { scope, ruleLabel })) {
    const filter = filters[warning.filterIndex]!;
    found.set(filter, [...(found.get(filter) ?? []), warning.message]);
  }
  const byId = new Map<string, readonly string[]>();
  for (const [filter, messages] of found) {
    const known = factsOf(filter);
    const same =
      known.warnings?.length === messages.length &&
      known.warnings.every((message, i) => message === messages[i]);
    if (!same) known.warnings = messages;
    byId.set(filter.id, known.warnings!);
  }
  return byId;
}

/** The editing state of one filter list: the draft, its baseline, its errors. */
export function useFilterDraft(scope: FilterScope): FilterDraftState {
  const [filters, setFiltersState] = useState<EditorFilter[]>([]);
  // The saved filters' JSON, one string a filter: a changed filter is compared alone.
  const [baseline, setBaseline] = useState<string[]>([]);
  const [serverErrors, setServerErrors] = useState<string[]>(NONE);
  // Validation on blur and on save: the filters whose errors show, or all of them.
  const [revealed, setRevealed] = useState<ReadonlySet<string> | 'all'>(NO_IDS);

  const wire = useMemo(() => filters.map(wireOf), [filters]);
  // The server's own check of exactly what Save All would send: the same messages before saving.
  const clientErrors = useMemo(() => draftErrors(filters, scope), [filters, scope]);
  const warnings = useMemo(() => draftWarnings(filters, scope), [filters, scope]);
  const dirty = useMemo(
    () =>
      filters.length !== baseline.length ||
      filters.some((filter, i) => factsOf(filter).json !== baseline[i]),
    [filters, baseline],
  );

  const setFilters = useCallback((update: FiltersUpdate) => {
    setFiltersState(update);
    setServerErrors(NONE);
  }, []);

  const reset = useCallback((saved: readonly FilterDraft[]) => {
    const next = saved.map(filterFromWire);
    setFiltersState(next);
    setBaseline(next.map((filter) => factsOf(filter).json));
    setServerErrors(NONE);
    setRevealed(NO_IDS);
  }, []);

  const reveal = useCallback((id: string) => {
    setRevealed((was) => (was === 'all' || was.has(id) ? was : new Set(was).add(id)));
  }, []);
  const revealAll = useCallback(() => setRevealed('all'), []);

  const errors = useMemo(
    () => [...clientErrors, ...serverErrors.filter((e) => !clientErrors.includes(e))],
    [clientErrors, serverErrors],
  );
  const shownErrors = useMemo(() => {
    if (revealed === 'all') return errors;
    const shown = draftErrors(filters, scope, (filter) => revealed.has(filter.id));
    return [...shown, ...serverErrors.filter((e) => !shown.includes(e))];
  }, [errors, revealed, filters, scope, serverErrors]);

  return {
    filters,
    setFilters,
    reset,
    wire,
    dirty,
    errors,
    shownErrors,
    reveal,
    revealAll,
    warnings,
    setServerErrors,
  };
}
