import { useCallback, useMemo, useState } from 'react';
import type { FilterScope } from './fields';
import { filterFromWire, filterToWire, type EditorFilter, type WireFilter } from './model';
import { validateFilters } from './validation';

export interface FilterDraft {
  filters: EditorFilter[];
  setFilters(filters: EditorFilter[]): void;
  /** Start again from what the server holds (after a load or a save). */
  reset(saved: readonly WireFilter[]): void;
  /** What Save All would send. */
  wire: WireFilter[];
  /** True when the filters differ from the last loaded or saved ones. */
  dirty: boolean;
  /** The client's check, then the server's answer to the last save until the next edit. */
  errors: string[];
  setServerErrors(errors: string[]): void;
}

/** The editing state of one filter list: the draft, its baseline, its errors. */
export function useFilterDraft(scope: FilterScope): FilterDraft {
  const [filters, setFiltersState] = useState<EditorFilter[]>([]);
  const [baseline, setBaseline] = useState('[]');
  const [serverErrors, setServerErrors] = useState<string[]>([]);

  const wire = useMemo(() => filters.map(filterToWire), [filters]);
  const clientErrors = useMemo(() => validateFilters(filters, scope), [filters, scope]);

  const setFilters = useCallback((next: EditorFilter[]) => {
    setFiltersState(next);
    setServerErrors([]);
  }, []);

  const reset = useCallback((saved: readonly WireFilter[]) => {
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
