import { useEffect, useState } from 'react';
import type { RegionTable } from './region-table';

export type { Region, RegionTable } from './region-table';

/**
 * ISO 3166-2 subdivisions (states, provinces, counties) for the Shipping
 * State/Province condition and the rate preview, from the maintained
 * `iso-3166` package rather than a list typed here. A region is
 * `COUNTRY-PROVINCE` (`US-CA`), the form Shopify's country and province codes
 * make together (docs/rates.md).
 *
 * The table is loaded on first use, after the page has rendered: it is larger
 * than the rest of the editor, and the first screen does not need it
 * (docs/performance.md, "First load of the admin").
 */
let loading: Promise<RegionTable> | undefined;
let loaded: RegionTable | undefined;

export function loadRegions(): Promise<RegionTable> {
  loading ??= import('./region-table').then(
    ({ regionTable }) => (loaded = regionTable),
    (err: unknown) => {
      // A failed chunk load is tried again by the next caller.
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

export interface Regions {
  /** The table once loaded; undefined while it loads or when it could not be loaded. */
  table: RegionTable | undefined;
  /** Its chunk could not be loaded (the network, a deploy in between): say so, show codes. */
  failed: boolean;
}

/**
 * The region table for a component: loading, loaded, or failed (a later mount tries
 * again). `needed: false` loads nothing (yet): a component that names regions only in
 * some cases spares a page its largest chunk in the others.
 */
export function useRegions(needed = true): Regions {
  const [state, setState] = useState<Regions>(() => ({ table: loaded, failed: false }));
  useEffect(() => {
    if (state.table || !needed) return;
    let live = true;
    loadRegions().then(
      (table) => live && setState({ table, failed: false }),
      () => live && setState({ table: undefined, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [state.table, needed]);
  return state;
}
