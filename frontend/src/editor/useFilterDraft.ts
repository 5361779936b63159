import { useCallback, useMemo, useState } from 'react';
import { validateFilters, type FilterDraft, type FilterScope } from '@ratesmith/contracts/filters';
import { filterFromWire, filterToWire, type EditorFilter } from './model';

export interface FilterDraftState {
  filters: EditorFilter[];
  setFilters(filters: EditorFilter[]): void;
  /** Start again from what the server holds (after a load or a save). */
  reset(saved: readonly FilterDraft[]): void;
  /** What Save All would send. */
  wire: FilterDraft[];
  /** True when the filters differ from the last loaded or saved ones. */
  dirty: boolean;
  /** The client's check, then the server's answer to the last save until the next edit. */
  errors: string[];
  setServerErrors(errors: string[]): void;
}

/** The editing state of one filter list: the draft, its baseline, its errors. */
export function useFilterDraft(scope: FilterScope): FilterDraftState {
  const [filters, setFiltersState] = useState<EditorFilter[]>([]);
  const [baseline, setBaseline] = useState('[]');
  const [serverErrors, setServerErrors] = useState<string[]>([]);

  const wire = useMemo(() => filters.map(filterToWire), [filters]);
  // The server's own check of exactly what Save All would send: the same messages before saving.
  const clientErrors = useMemo(() => validateFilters(wire, scope).errors, [wire, scope]);

  const setFilters = useCallback((next: EditorFilter[]) => {
    setFiltersState(next);
    setServerErrors([]);
  }, []);

  const reset = useCallback((saved: readonly FilterDraft[]) => {
    const next = saved.map(filterFromWire);
    setFiltersState(next);
    setBaseline(JSON.stringify(next.map(filterToWire)));
    setServerErrors([]);
  }, []);

  const errors = useMemo(
    () => [...clientErrors, ...serverErrors.filter((e) => !clientErrors.includes(e))],
    [clientErrors, serverErrors],
  );

  return {
    filters,
    setFilters,
    reset,
    wire,
    dirty: JSON.stringify(wire) !== baseline,
    errors,
    setServerErrors,
  };
}
