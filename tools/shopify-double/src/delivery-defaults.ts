import type {
  Condition,
  Country,
  DeliveryProfile,
  MethodDefinition,
  Province,
} from './delivery-rates';

/**
 * The delivery profiles a shop has until a test sets its own: Shopify's
 * General profile (the default one) with one location group and four zones,
 * each with custom rates of the kinds a merchant sets up (flat, by order
 * price, by weight, free over an amount). No carrier service takes part
 * anywhere: since 2026-10 a merchant (or the app) adds it to zones.
 */

const US_STATES: [string, string][] = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['DC', 'District of Columbia'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
];

const CA_PROVINCES: [string, string][] = [
  ['AB', 'Alberta'],
  ['BC', 'British Columbia'],
  ['MB', 'Manitoba'],
  ['NB', 'New Brunswick'],
  ['NL', 'Newfoundland and Labrador'],
  ['NT', 'Northwest Territories'],
  ['NS', 'Nova Scotia'],
  ['NU', 'Nunavut'],
  ['ON', 'Ontario'],
  ['PE', 'Prince Edward Island'],
  ['QC', 'Quebec'],
  ['SK', 'Saskatchewan'],
  ['YT', 'Yukon'],
];

const EUROPE: [string, string][] = [
  ['DE', 'Germany'],
  ['FR', 'France'],
  ['GB', 'United Kingdom'],
  ['IT', 'Italy'],
  ['ES', 'Spain'],
  ['NL', 'Netherlands'],
  ['IE', 'Ireland'],
];

/** Ids from one counter per kind, so a shop's profiles read like Shopify's gids. */
export class GidCounter {
  private next = 1;
  constructor(private readonly base: number) {}
  id(kind: string): string {
    return `gid://shopify/${kind}/${this.base + this.next++}`;
  }
}

export function defaultDeliveryProfiles(ids: GidCounter, currencyCode = 'USD'): DeliveryProfile[] {
  const money = (amount: string) => ({ amount, currencyCode });
  const provinces = (list: [string, string][]): Province[] =>
    list.map(([code, name]) => ({ id: ids.id('DeliveryProvince'), code, name }));
  const country = (countryCode: string, name: string, list: Province[] = []): Country => ({
    id: ids.id('DeliveryCountry'),
    name,
    code: { countryCode, restOfWorld: false },
    provinces: list,
  });
  const price = (operator: Condition['operator'], amount: string): Condition => ({
    id: ids.id('DeliveryCondition'),
    field: 'TOTAL_PRICE',
    operator,
    conditionCriteria: { __typename: 'MoneyV2', ...money(amount) },
  });
  const weight = (operator: Condition['operator'], value: number): Condition => ({
    id: ids.id('DeliveryCondition'),
    field: 'TOTAL_WEIGHT',
    operator,
    conditionCriteria: { __typename: 'Weight', value, unit: 'KILOGRAMS' },
  });
  const rate = (name: string, amount: string, conditions: Condition[] = []): MethodDefinition => ({
    id: ids.id('DeliveryMethodDefinition'),
    name,
    active: true,
    description: null,
    rateProvider: {
      __typename: 'DeliveryRateDefinition',
      id: ids.id('DeliveryRateDefinition'),
      price: money(amount),
    },
    methodConditions: conditions,
  });
  const zone = (name: string, countries: Country[], methods: MethodDefinition[]) => ({
    zone: { id: ids.id('DeliveryZone'), name, countries },
    methodDefinitions: methods,
  });
  return [
    {
      id: ids.id('DeliveryProfile'),
      name: 'General profile',
      default: true,
      profileLocationGroups: [
        {
          locationGroup: { id: ids.id('DeliveryLocationGroup') },
          locationGroupZones: [
            zone(
              'Domestic',
              [country('US', 'United States', provinces(US_STATES))],
              [
                rate('Standard', '5.00', [price('LESS_THAN_OR_EQUAL_TO', '49.99')]),
                rate('Free shipping', '0.00', [price('GREATER_THAN_OR_EQUAL_TO', '50.00')]),
                rate('Express', '15.00'),
              ],
            ),
            zone(
              'Canada',
              [country('CA', 'Canada', provinces(CA_PROVINCES))],
              [
                rate('Standard', '9.00', [weight('LESS_THAN_OR_EQUAL_TO', 2)]),
                rate('Heavy', '19.00', [weight('GREATER_THAN_OR_EQUAL_TO', 2.001)]),
                rate('Free shipping', '0.00', [price('GREATER_THAN_OR_EQUAL_TO', '100.00')]),
              ],
            ),
            zone(
              'Europe',
              EUROPE.map(([code, name]) => country(code, name)),
              [
                rate('International', '25.00', [
                  weight('GREATER_THAN_OR_EQUAL_TO', 0),
                  weight('LESS_THAN_OR_EQUAL_TO', 20),
                ]),
              ],
            ),
            zone(
              'Rest of world',
              [
                {
                  id: ids.id('DeliveryCountry'),
                  name: 'Rest of World',
                  code: { countryCode: null, restOfWorld: true },
                  provinces: [],
                },
              ],
              [rate('International', '35.00')],
            ),
          ],
        },
      ],
    },
  ];
}

/** Provinces the double knows by country (for `includeAllProvinces` and names). */
export const KNOWN_PROVINCES: Record<string, [string, string][]> = {
  US: US_STATES,
  CA: CA_PROVINCES,
};

/** Country names the double knows; another code is named by its code. */
export const COUNTRY_NAMES: Record<string, string> = {
  US: 'United States',
  CA: 'Canada',
  MX: 'Mexico',
  AU: 'Australia',
  JP: 'Japan',
  ...Object.fromEntries(EUROPE),
};
