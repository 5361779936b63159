import type { ShippingProfileJson, ShippingZoneCountryJson, ShippingZoneJson } from '../api';

/**
 * What the shop's shipping zones say about checkout and Ratesmith: which zones
 * ask it for rates, where a zone reaches in words, and which zones hold a
 * destination. Pure functions over the /api/shipping-zones reply, shared by
 * the Shipping zones page and the Dashboard.
 */

/** The General profile first (Shopify's default), then the others as Shopify lists them. */
export function sortProfiles(profiles: readonly ShippingProfileJson[]): ShippingProfileJson[] {
  return [...profiles].sort((a, b) => Number(b.default) - Number(a.default));
}

/** The General profile: the one every product is in unless a custom profile takes it. */
export function generalProfile(
  profiles: readonly ShippingProfileJson[],
): ShippingProfileJson | undefined {
  return profiles.find((profile) => profile.default);
}

export function allZones(profiles: readonly ShippingProfileJson[]): ShippingZoneJson[] {
  return profiles.flatMap((profile) => profile.zones);
}

/** Zones where checkout asks Ratesmith, of all zones. */
export function zoneCoverage(profiles: readonly ShippingProfileJson[]): {
  asking: number;
  total: number;
} {
  const zones = allZones(profiles);
  return { asking: zones.filter((zone) => zone.ratesmith).length, total: zones.length };
}

/** `1 shipping zone`, `3 shipping zones`. */
export const zonesWord = (n: number) => `${n} shipping zone${n === 1 ? '' : 's'}`;

/**
 * The word for a country's first-level divisions where Shopify lets a zone
 * hold only some of them; elsewhere a zone holds the whole country and its
 * name says it all.
 */
const DIVISIONS: Record<string, string> = {
  US: 'states',
  AU: 'states and territories',
  BR: 'states',
  IN: 'states and territories',
  MX: 'states',
  MY: 'states',
  NG: 'states',
  CA: 'provinces and territories',
  AR: 'provinces',
  CN: 'provinces',
  ES: 'provinces',
  IT: 'provinces',
  PH: 'provinces',
  ZA: 'provinces',
  KR: 'provinces',
  TH: 'provinces',
  ID: 'provinces',
  JP: 'prefectures',
  IE: 'counties',
  NZ: 'regions',
  CL: 'regions',
  PE: 'regions',
  CO: 'departments',
  AE: 'emirates',
};

/** Provinces named before "and N more". */
export const PROVINCES_LISTED = 8;

export interface PlaceNames {
  country(code: string): string;
  /** `US-CA` -> `California` (the code itself while the names load). */
  region(code: string): string;
  /** The country's ISO 3166-2 subdivisions (`US-CA`, …), once their table has loaded. */
  regionsOf?(country: string): readonly string[];
}

/**
 * Subdivisions ISO 3166-2 lists under a country that Shopify ships to as
 * countries of their own (Puerto Rico, Hong Kong…): a zone holding all of the
 * country's provinces does not list them.
 */
const OWN_COUNTRIES: Record<string, ReadonlySet<string>> = {
  US: new Set(['US-AS', 'US-GU', 'US-MP', 'US-PR', 'US-UM', 'US-VI']),
  CN: new Set(['CN-HK', 'CN-MO', 'CN-TW']),
};

/**
 * Shopify lists every province of a country a zone holds whole, so "all of
 * them" is told by comparing with the country's subdivisions; false while
 * their table loads, or where Shopify's provinces are not ISO's first level.
 */
function holdsEveryProvince(entry: ShippingZoneCountryJson, names: PlaceNames): boolean {
  const own = OWN_COUNTRIES[entry.code];
  const regions = (names.regionsOf?.(entry.code) ?? []).filter((code) => !own?.has(code));
  if (regions.length === 0) return false;
  const listed = new Set(entry.provinces.map((province) => `${entry.code}-${province}`));
  return regions.every((code) => listed.has(code));
}

/**
 * One country of a zone in words: `Germany`, `United States (all states)`,
 * `Canada: Ontario, Quebec`. No provinces means all of them (and so does a
 * list of every one, as Shopify answers it).
 */
export function countryCoverage(entry: ShippingZoneCountryJson, names: PlaceNames): string {
  if (entry.rest_of_world) return 'Rest of world';
  const name = names.country(entry.code);
  if (entry.provinces.length === 0 || holdsEveryProvince(entry, names)) {
    const divisions = DIVISIONS[entry.code] ?? (entry.provinces.length > 0 ? 'regions' : undefined);
    return divisions ? `${name} (all ${divisions})` : name;
  }
  const listed = entry.provinces
    .slice(0, PROVINCES_LISTED)
    .map((province) => names.region(`${entry.code}-${province}`));
  const more = entry.provinces.length - listed.length;
  return `${name}: ${listed.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** Where a zone reaches, one line per country; "No countries" for an empty zone. */
export function zoneCoverageLines(zone: ShippingZoneJson, names: PlaceNames): string[] {
  // Rest of world reads last, as in Shopify's own settings.
  const countries = [...zone.countries].sort(
    (a, b) => Number(a.rest_of_world) - Number(b.rest_of_world),
  );
  return countries.length === 0
    ? ['No countries']
    : countries.map((entry) => countryCoverage(entry, names));
}

/**
 * A place a ruleset's conditions name: a country (`US`) or a state/province
 * (`US-CA`, the filter language's region, ISO 3166-2).
 */
export type Destination = string;

const holds = (entry: ShippingZoneCountryJson, country: string, province: string | undefined) =>
  !entry.rest_of_world &&
  entry.code === country &&
  (province === undefined || entry.provinces.length === 0 || entry.provinces.includes(province));

/**
 * The zones of one profile that a destination lies in: those listing its
 * country (for a state, the whole country or that state), else, when no zone of
 * the profile lists its country at all, the profile's Rest of world zone.
 */
export function zonesHolding(
  profile: ShippingProfileJson,
  destination: Destination,
): ShippingZoneJson[] {
  const [country = '', province] = destination.toUpperCase().split('-', 2);
  const listed = profile.zones.filter((zone) =>
    zone.countries.some((entry) => holds(entry, country, province)),
  );
  if (listed.length > 0) return listed;
  const countryListed = profile.zones.some((zone) =>
    zone.countries.some((entry) => !entry.rest_of_world && entry.code === country),
  );
  if (countryListed) return [];
  return profile.zones.filter((zone) => zone.countries.some((entry) => entry.rest_of_world));
}

export interface DestinationsReach {
  /** Destinations in no zone that asks Ratesmith, in the order given. */
  unreached: Destination[];
  /** Of those, the ones some zone holds, with the zones (not asking Ratesmith) that would reach them. */
  fixable: Destination[];
  /** Ids of the zones that would reach the `fixable` destinations once they ask Ratesmith. */
  zoneIds: string[];
  /** Of the unreached, those no shipping zone holds at all (the merchant adds them in Shopify). */
  inNoZone: Destination[];
}

/** Which destinations checkout never asks Ratesmith about, and which zones would fix that. */
export function destinationsReach(
  destinations: readonly Destination[],
  profiles: readonly ShippingProfileJson[],
): DestinationsReach {
  const reach: DestinationsReach = { unreached: [], fixable: [], zoneIds: [], inNoZone: [] };
  for (const destination of destinations) {
    const zones = profiles.flatMap((profile) => zonesHolding(profile, destination));
    if (zones.some((zone) => zone.ratesmith)) continue;
    reach.unreached.push(destination);
    if (zones.length === 0) {
      reach.inNoZone.push(destination);
      continue;
    }
    reach.fixable.push(destination);
    for (const zone of zones) if (!reach.zoneIds.includes(zone.id)) reach.zoneIds.push(zone.id);
  }
  return reach;
}

/** The profiles with the zones of `ids` set to ask (or not ask) Ratesmith, as a reply would say. */
export function withZones(
  profiles: readonly ShippingProfileJson[],
  ids: readonly string[],
  ratesmith: boolean,
): ShippingProfileJson[] {
  const set = new Set(ids);
  return profiles.map((profile) => ({
    ...profile,
    zones: profile.zones.map((zone) => (set.has(zone.id) ? { ...zone, ratesmith } : zone)),
  }));
}
