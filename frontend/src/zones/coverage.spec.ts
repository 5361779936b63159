import {
  countryCoverage,
  destinationsReach,
  sortProfiles,
  withZones,
  zoneCoverage,
  zoneCoverageLines,
  zonesHolding,
} from './coverage';
import { country, generalProfile, profile, REST_OF_WORLD, zone } from './testing';

const names = {
  country: (code: string) => ({ US: 'United States', CA: 'Canada', DE: 'Germany' })[code] ?? code,
  region: (code: string) =>
    ({ 'CA-ON': 'Ontario', 'CA-QC': 'Quebec', 'US-CA': 'California' })[code] ?? code,
};

describe('shipping zone coverage', () => {
  it('says where a zone reaches, Rest of world last', () => {
    expect(countryCoverage(country('US'), names)).toBe('United States (all states)');
    expect(countryCoverage(country('DE'), names)).toBe('Germany');
    expect(countryCoverage(country('CA', ['ON', 'QC']), names)).toBe('Canada: Ontario, Quebec');
    const many = Array.from({ length: 11 }, (_, i) => `P${i}`);
    expect(countryCoverage(country('US', many), names)).toBe(
      'United States: US-P0, US-P1, US-P2, US-P3, US-P4, US-P5, US-P6, US-P7 and 3 more',
    );
    expect(zoneCoverageLines(zone('1', 'Mixed', [REST_OF_WORLD, country('DE')]), names)).toEqual([
      'Germany',
      'Rest of world',
    ]);
    expect(zoneCoverageLines(zone('2', 'Empty', []), names)).toEqual(['No countries']);
  });

  it('tells a list of every province, as Shopify answers a whole country, from the region table', () => {
    const table = { ...names, regionsOf: (code: string) => REGIONS[code] ?? [] };
    const US_STATES = ['AK', 'AL', 'CA', 'NY'];
    const REGIONS: Record<string, string[]> = {
      // ISO 3166-2:US lists outlying areas too; Shopify ships there as countries.
      US: [...US_STATES, 'PR', 'VI'].map((s) => `US-${s}`),
      CA: ['CA-ON', 'CA-QC', 'CA-BC'],
    };
    expect(countryCoverage(country('US', US_STATES), table)).toBe('United States (all states)');
    expect(countryCoverage(country('US', ['AK', 'AL', 'NY']), table)).toBe(
      'United States: US-AK, US-AL, US-NY',
    );
    expect(countryCoverage(country('CA', ['ON', 'QC', 'BC']), table)).toBe(
      'Canada (all provinces and territories)',
    );
    // While the table loads, the list as it is.
    expect(countryCoverage(country('CA', ['ON', 'QC', 'BC']), names)).toBe(
      'Canada: Ontario, Quebec, CA-BC',
    );
  });

  it('puts the General profile first and counts the zones that ask Ratesmith', () => {
    const custom = profile('2', 'Heavy goods', [zone('9', 'US heavy', [country('US')], true)]);
    const sorted = sortProfiles([custom, generalProfile({ domestic: true })]);
    expect(sorted.map((p) => p.name)).toEqual(['General', 'Heavy goods']);
    expect(zoneCoverage(sorted)).toEqual({ asking: 2, total: 4 });
    expect(zoneCoverage(withZones(sorted, ['gid://shopify/DeliveryZone/9'], false))).toEqual({
      asking: 1,
      total: 4,
    });
  });

  it('finds the zones holding a country or a state, Rest of world only for unlisted countries', () => {
    const general = generalProfile();
    const ids = (destination: string) => zonesHolding(general, destination).map((z) => z.name);
    expect(ids('US')).toEqual(['Domestic']);
    expect(ids('US-CA')).toEqual(['Domestic']);
    expect(ids('CA-ON')).toEqual(['North America']);
    expect(ids('CA')).toEqual(['North America']);
    // Canada is listed (Ontario and Quebec only): British Columbia is in no zone.
    expect(ids('CA-BC')).toEqual([]);
    expect(ids('DE')).toEqual(['International']);
    expect(ids('DE-BY')).toEqual(['International']);
  });

  it('names the destinations no asking zone holds, and the zones that would reach them', () => {
    const noWorld = profile('2', 'Local', [zone('7', 'Home', [country('US')], true)], true);
    const reach = destinationsReach(['US', 'CA-ON', 'CA-BC', 'DE'], [noWorld]);
    expect(reach).toEqual({
      unreached: ['CA-ON', 'CA-BC', 'DE'],
      fixable: [],
      zoneIds: [],
      inNoZone: ['CA-ON', 'CA-BC', 'DE'],
    });

    const general = generalProfile({ domestic: true });
    expect(destinationsReach(['US', 'CA-ON', 'CA-BC', 'MX', 'DE'], [general])).toEqual({
      unreached: ['CA-ON', 'CA-BC', 'MX', 'DE'],
      fixable: ['CA-ON', 'MX', 'DE'],
      zoneIds: ['gid://shopify/DeliveryZone/2', 'gid://shopify/DeliveryZone/3'],
      inNoZone: ['CA-BC'],
    });
    // A destination is reached when any profile's zone holding it asks Ratesmith.
    const custom = profile('3', 'Heavy', [zone('8', 'Germany', [country('DE')], true)]);
    expect(destinationsReach(['DE'], [general, custom]).unreached).toEqual([]);
  });
});
