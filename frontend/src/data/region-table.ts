import { iso31662 } from 'iso-3166/2';

/**
 * The ISO 3166-2 table itself (about 56 KB gzip): imported only through
 * `loadRegions` in regions.ts, so it is its own chunk and no first page waits
 * for it.
 */
export interface Region {
  /** `US-CA`. */
  code: string;
  name: string;
}

export interface RegionTable {
  /** The subdivisions of a country (ISO 3166-1 alpha-2), by name; empty when it has none. */
  regionsOf(country: string): readonly Region[];
  /** `US-CA` -> `California`; the code itself when the dataset does not know it. */
  regionName(code: string): string;
  /** Countries with at least one subdivision (alpha-2). */
  readonly countries: ReadonlySet<string>;
}

const byCountry = new Map<string, Region[]>();
for (const { code, name } of iso31662) {
  const country = code.slice(0, 2);
  const list = byCountry.get(country) ?? [];
  list.push({ code, name });
  byCountry.set(country, list);
}
for (const list of byCountry.values()) list.sort((a, b) => a.name.localeCompare(b.name, 'en'));

const regionsOf = (country: string): readonly Region[] =>
  byCountry.get(country.toUpperCase()) ?? [];

export const regionTable: RegionTable = {
  regionsOf,
  regionName(code) {
    const upper = code.toUpperCase();
    return regionsOf(upper.slice(0, 2)).find((r) => r.code === upper)?.name ?? upper;
  },
  countries: new Set(byCountry.keys()),
};
