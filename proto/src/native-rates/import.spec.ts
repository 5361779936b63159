import { validateFilters } from '../filters/validate';
import { importNativeRates, nativeProfilesSchema, type NativeProfile } from './import';

type Zone = NativeProfile['profileLocationGroups'][number]['locationGroupZones'][number];
type Method = Zone['methodDefinitions'][number];
type Criteria = Method['methodConditions'][number];

let seq = 0;
const price = (op: 'min' | 'max', amount: string, currencyCode = 'USD'): Criteria => ({
  field: 'TOTAL_PRICE',
  operator: op === 'min' ? 'GREATER_THAN_OR_EQUAL_TO' : 'LESS_THAN_OR_EQUAL_TO',
  conditionCriteria: { __typename: 'MoneyV2', amount, currencyCode },
});
const weight = (op: 'min' | 'max', value: number, unit: 'KILOGRAMS' | 'POUNDS'): Criteria => ({
  field: 'TOTAL_WEIGHT',
  operator: op === 'min' ? 'GREATER_THAN_OR_EQUAL_TO' : 'LESS_THAN_OR_EQUAL_TO',
  conditionCriteria: { __typename: 'Weight', value, unit },
});
const rate = (
  name: string,
  amount: string,
  methodConditions: Criteria[] = [],
  more: Partial<Method> = {},
): Method => ({
  id: `m${++seq}`,
  name,
  active: true,
  description: null,
  rateProvider: { __typename: 'DeliveryRateDefinition', price: { amount, currencyCode: 'USD' } },
  methodConditions,
  ...more,
});
const country = (code: string | null, provinces: string[] = []) => ({
  code: { countryCode: code, restOfWorld: code === null },
  provinces: provinces.map((p) => ({ code: p })),
});
const zone = (name: string, countries: Zone['zone']['countries'], methods: Method[]): Zone => ({
  zone: { id: `z-${name}`, name, countries },
  methodDefinitions: methods,
});
const profile = (zones: Zone[], isDefault = true, name = 'General profile'): NativeProfile => ({
  id: `p-${name}`,
  name,
  default: isDefault,
  profileLocationGroups: [{ locationGroup: { id: 'g' }, locationGroupZones: zones }],
});

describe('importNativeRates', () => {
  it('turns zones and tiers into rules: place AND bounds → the rate, its name, stop', () => {
    const plan = importNativeRates(
      [
        profile([
          zone(
            'Domestic',
            [country('US', ['CA', 'NY'])],
            [
              rate('Standard', '5.00', [price('max', '49.99')], { description: '3 to 5 days' }),
              rate('Free', '0.00', [price('min', '50.00')]),
              rate('Express', '15.00'),
            ],
          ),
          zone('Rest of world', [country(null)], [rate('International', '35.00')]),
        ]),
      ],
      'USD',
    );
    expect(plan.summary).toBe(
      '2 zones, 4 rates → 1 ruleset of 3 rules; 1 rate cannot be imported:',
    );
    expect(plan.skipped).toEqual([
      expect.objectContaining({
        name: 'Express',
        zone: 'Domestic',
        reason:
          'checkout shows it next to “Standard” for some carts, and Ratesmith answers one rate a cart',
      }),
    ]);
    // Cheapest first within a zone.
    expect(plan.filters.map((f) => [f.name, f.action_type, f.action_data])).toEqual([
      ['Domestic: Free', 0, null],
      ['Domestic: Standard', 5, 5],
      ['Rest of world: International', 5, 35],
    ]);
    const standard = plan.filters[1]!;
    expect(standard).toMatchObject({
      is_shipping_overridden: 'Yes',
      shipping_name: 'Standard',
      shipping_description: '3 to 5 days',
      post_processing_action_type: 0,
    });
    const conditions = (i: number) =>
      plan.filters[i]!.raw_query.rules.map((r) =>
        'field' in r ? [r.field, r.operator, r.value] : r,
      );
    expect(conditions(1)).toEqual([
      ['shipping_region', 'in', ['US-CA', 'US-NY']],
      ['cart_price', 'less_or_equal', 49.99],
    ]);
    expect(conditions(2)).toEqual([['shipping_country', 'not_in', ['US']]]);
    expect(validateFilters(plan.filters, 'ruleset').errors).toEqual([]);
  });

  it('writes weight bounds as the whole grams a cart must reach, in the merchant unit when exact', () => {
    const plan = importNativeRates(
      [
        profile([
          zone(
            'Canada',
            [country('CA')],
            [
              rate('Light', '9.00', [weight('max', 1, 'POUNDS')]),
              rate('Heavy', '19.00', [
                weight('min', 2.001, 'KILOGRAMS'),
                weight('max', 30, 'KILOGRAMS'),
              ]),
            ],
          ),
        ]),
      ],
      'USD',
    );
    const values = plan.filters.map((f) =>
      f.raw_query.rules.slice(1).map((r) => 'value' in r && r.value),
    );
    // At most 1 lb (453.59237 g) is at most 453 g; 1 lb itself would round to 454 g.
    expect(values).toEqual([
      [{ amount: 0.453, unit: 'kg' }],
      [
        { amount: 2.001, unit: 'kg' },
        { amount: 30, unit: 'kg' },
      ],
    ]);
  });

  it('rounds price bounds to the cents a cart can have', () => {
    const plan = importNativeRates(
      [
        profile([
          zone(
            'US',
            [country('US')],
            [rate('Band', '1.00', [price('min', '10.005'), price('max', '20.009')])],
          ),
        ]),
      ],
      'USD',
    );
    expect(plan.filters[0]!.raw_query.rules.slice(1).map((r) => 'value' in r && r.value)).toEqual([
      10.01, 20,
    ]);
  });

  it('keeps overlapping rates of one name (checkout shows the cheapest) but not of two names', () => {
    const plan = importNativeRates(
      [
        profile([
          zone(
            'EU',
            [country('DE'), country('FR')],
            [
              rate('Standard', '21.90', [weight('min', 2, 'KILOGRAMS')]),
              rate('Standard', '14.90', [weight('max', 2, 'KILOGRAMS')]),
              rate('Express', '30.00', [weight('min', 50, 'KILOGRAMS')]),
            ],
          ),
        ]),
      ],
      'USD',
    );
    expect(plan.imported.map((i) => `${i.name} ${i.price}`)).toEqual([
      'Standard 14.90',
      'Standard 21.90',
    ]);
    expect(plan.skipped.map((s) => s.name)).toEqual(['Express']);
  });

  it('leaves out a rate that another of its name, not importable, beats at checkout', () => {
    const plan = importNativeRates(
      [
        profile([
          zone(
            'US',
            [country('US')],
            [
              rate('Free', '0.00', [price('min', '100.00')]),
              rate('Express', '9.00', [price('min', '50.00'), price('max', '99.99')]),
              // Shows next to Free over 100.00, so it cannot be imported; from 50.00 to 99.99
              // it is the cheaper Express, and checkout shows it rather than the 9.00 one.
              rate('Express', '2.00'),
            ],
          ),
        ]),
      ],
      'USD',
    );
    expect(plan.imported.map((i) => i.name)).toEqual(['Free']);
    expect(plan.skipped.map((s) => `${s.name} ${s.reason}`)).toEqual([
      'Express checkout shows it next to “Free” for some carts, and Ratesmith answers one rate a cart',
      'Express for some carts checkout shows instead another “Express” rate, which cannot be imported',
    ]);
  });

  it('lists, never drops, what it cannot import, each with its reason', () => {
    const carrier: Method = {
      ...rate('UPS', '0'),
      rateProvider: {
        __typename: 'DeliveryParticipant',
        carrierService: { id: 'cs', formattedName: 'UPS Shipping' },
      },
    };
    const plan = importNativeRates(
      [
        profile(
          [zone('Heavy goods', [country('US')], [rate('Freight', '99.00')])],
          false,
          'Furniture',
        ),
        profile([
          zone(
            'Domestic',
            [country('US')],
            [
              carrier,
              rate('Old', '3.00', [], { active: false }),
              rate('Euro', '3.00', [price('min', '10.00', 'EUR')]),
              rate('Never', '3.00', [price('min', '10.00'), price('max', '5.00')]),
              rate('Cents', '3.005'),
            ],
          ),
          zone('Japan', [country('JP', ['JP-13'])], [rate('Tokyo', '12.00')]),
        ]),
      ],
      'USD',
    );
    expect(plan.filters).toEqual([]);
    expect(plan.summary).toBe(
      '3 zones, 7 rates → 1 ruleset of 0 rules; 7 rates cannot be imported:',
    );
    expect(Object.fromEntries(plan.skipped.map((s) => [s.name, s.reason]))).toEqual({
      UPS: 'its rates are calculated by the carrier app “UPS Shipping”',
      Old: 'it is disabled in Shopify, so checkout does not show it',
      Euro: "its order-price condition is in EUR, not the store's currency (USD)",
      Never: 'its conditions leave no cart, so checkout never shows it',
      Cents: 'its price 3.005 is not an amount a rule can set',
      Tokyo: "the zone's province JP-13 (JP) cannot be written as a region",
      Freight:
        'the profile “Furniture” applies only to its own products, and a ruleset applies to every cart',
    });
  });

  it('stops at the most rules a ruleset holds, listing the rest', () => {
    const zones = Array.from({ length: 101 }, (_, i) =>
      zone(
        `Z${i}`,
        [country(String.fromCharCode(65 + (i % 26), 65 + Math.floor(i / 26)))],
        [rate('Flat', '1.00')],
      ),
    );
    const plan = importNativeRates([profile(zones)], 'USD');
    expect(plan.filters).toHaveLength(100);
    expect(plan.skipped).toEqual([
      expect.objectContaining({ zone: 'Z100', reason: 'a ruleset holds at most 100 rules' }),
    ]);
  });

  it('reads the shape the auth service sends, and bounds its sizes', () => {
    const one = profile([zone('US', [country('US')], [rate('Flat', '1.00')])]);
    expect(nativeProfilesSchema.parse([one])).toEqual([one]);
    expect(nativeProfilesSchema.safeParse(Array(101).fill(one)).success).toBe(false);
    const many = profile([zone('US', [country('US')], Array(101).fill(rate('Flat', '1.00')))]);
    expect(nativeProfilesSchema.safeParse([many]).success).toBe(false);
  });
});
