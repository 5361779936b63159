import { iso31662 } from 'iso-3166/2';

/**
 * ISO 3166-2 subdivisions (states, provinces, counties) for the Shipping
 * State/Province condition and the rate preview, from the maintained
 * `iso-3166` package rather than a list typed here. A region is
 * `COUNTRY-PROVINCE` (`US-CA`), the form Shopify's country and province codes
 * make together (docs/rates.md).
 */
export interface Region {
  /** `US-CA`. */
  code: string;
  name: string;
}

const byCountry = new Map<string, Region[]>();
for (const { code, name } of iso31662) {
  const country = code.slice(0, 2);
  const list = byCountry.get(country) ?? [];
  list.push({ code, name });
  byCountry.set(country, list);
}
for (const list of byCountry.values()) list.sort((a, b) => a.name.localeCompare(b.name, 'en'));

/** The subdivisions of a country (ISO 3166-1 alpha-2), by name; empty when it has none. */
export function regionsOf(country: string): readonly Region[] {
  return byCountry.get(country.toUpperCase()) ?? [];
}

/** `US-CA` -> `California`; the code itself when the dataset does not know it. */
export function regionName(code: string): string {
  const upper = code.toUpperCase();
  return regionsOf(upper.slice(0, 2)).find((r) => r.code === upper)?.name ?? upper;
}
