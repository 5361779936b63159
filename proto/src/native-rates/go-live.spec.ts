import {
  methodDefinitionId,
  merchantRateStates,
  nativeRatesOffSchema,
  nativeRatesToTurnOff,
  nativeRateText,
  sameRates,
} from './go-live';
import type { NativeProfile } from './import';

type Zone = NativeProfile['profileLocationGroups'][number]['locationGroupZones'][number];
type Method = Zone['methodDefinitions'][number];

let seq = 0;
const rate = (name: string, amount: string, more: Partial<Method> = {}): Method => ({
  id: `gid://shopify/DeliveryMethodDefinition/${++seq}`,
  name,
  active: true,
  description: null,
  rateProvider: { __typename: 'DeliveryRateDefinition', price: { amount, currencyCode: 'USD' } },
  methodConditions: [],
  ...more,
});
const carrier = (name: string, active = true): Method => ({
  id: `gid://shopify/DeliveryMethodDefinition/${++seq}`,
  name,
  active,
  description: null,
  rateProvider: {
    __typename: 'DeliveryParticipant',
    carrierService: { id: `gid://shopify/DeliveryCarrierService/${name}`, formattedName: name },
  },
  methodConditions: [],
});
const zone = (id: string, methods: Method[]): Zone => ({
  zone: { id, name: `Zone ${id}`, countries: [] },
  methodDefinitions: methods,
});
const profile = (isDefault: boolean, groups: Zone[][]): NativeProfile => ({
  id: `p${++seq}`,
  name: isDefault ? 'General profile' : 'Other',
  default: isDefault,
  profileLocationGroups: groups.map((zones, i) => ({
    locationGroup: { id: `g${i}` },
    locationGroupZones: zones,
  })),
});

describe('nativeRatesToTurnOff', () => {
  it("takes the active merchant rates of the checkout group's zones where Ratesmith takes part, nothing else", () => {
    const standard = rate('Standard', '5.00', {
      methodConditions: [
        {
          field: 'TOTAL_PRICE',
          operator: 'LESS_THAN_OR_EQUAL_TO',
          conditionCriteria: { __typename: 'MoneyV2', amount: '49.99', currencyCode: 'USD' },
        },
        {
          field: 'TOTAL_WEIGHT',
          operator: 'GREATER_THAN_OR_EQUAL_TO',
          conditionCriteria: { __typename: 'Weight', value: 1, unit: 'POUNDS' },
        },
      ],
    });
    const express = rate('Express', '15.00');
    const old = rate('Old', '1.00', { active: false });
    const elsewhere = rate('Elsewhere', '9.00');
    const secondGroup = rate('Second group', '9.00');
    const otherProfile = rate('Other profile', '9.00');
    const profiles = [
      profile(false, [[zone('a', [otherProfile])]]),
      profile(true, [
        [
          zone('a', [standard, carrier('Ratesmith'), carrier('Other app'), express, old]),
          zone('b', [elsewhere]),
        ],
        [zone('c', [secondGroup])],
      ]),
    ];
    const off = nativeRatesToTurnOff(profiles, new Set(['a', 'c']));
    expect(off).toEqual([
      {
        id: standard.id,
        zone: 'Zone a',
        name: 'Standard',
        price: '5.00 USD, order up to 49.99 USD, weight from 1 lb',
      },
      { id: express.id, zone: 'Zone a', name: 'Express', price: '15.00 USD' },
    ]);
    expect(nativeRatesOffSchema.safeParse(off).success).toBe(true);
    // Zone b has no Ratesmith: its rates stay, or checkout there would have none.
    expect(nativeRatesToTurnOff(profiles, new Set(['b'])).map((r) => r.name)).toEqual([
      'Elsewhere',
    ]);
    expect(nativeRatesToTurnOff(profiles, new Set())).toEqual([]);
    // Every merchant rate of every profile, active or not; no carrier.
    const states = merchantRateStates(profiles);
    expect(states.size).toBe(6);
    expect(states.get(old.id)).toBe(false);
    expect(states.get(otherProfile.id)).toBe(true);
    expect(nativeRatesToTurnOff([], new Set(['a']))).toEqual([]);
  });

  it('describes no price for a carrier', () => {
    expect(nativeRateText(carrier('Other app'))).toBe('');
  });
});

describe('sameRates', () => {
  const plan = [
    { id: 'x', zone: 'Z', name: 'A', price: '' },
    { id: 'y', zone: 'Z', name: 'B', price: '' },
  ];
  it('holds for the same ids in any order, and for nothing else', () => {
    expect(sameRates(['y', 'x'], plan)).toBe(true);
    expect(sameRates(['x'], plan)).toBe(false);
    expect(sameRates(['x', 'y', 'z'], plan)).toBe(false);
    expect(sameRates(['x', 'x'], plan.slice(0, 1).concat(plan[0]!))).toBe(false);
    expect(sameRates(['x', 'z'], plan)).toBe(false);
    expect(sameRates([], [])).toBe(true);
  });
});

describe('methodDefinitionId', () => {
  it('takes a DeliveryMethodDefinition gid and nothing else', () => {
    const ok = (id: string) => methodDefinitionId.safeParse(id).success;
    expect(ok('gid://shopify/DeliveryMethodDefinition/1')).toBe(true);
    expect(ok(`gid://shopify/DeliveryMethodDefinition/${'9'.repeat(20)}`)).toBe(true);
    for (const id of [
      '1',
      'gid://shopify/DeliveryZone/1',
      `gid://shopify/DeliveryMethodDefinition/${'9'.repeat(21)}`,
      ' gid://shopify/DeliveryMethodDefinition/1',
      'gid://shopify/DeliveryMethodDefinition/1x',
      'gid://shopify/DeliveryMethodDefinition/',
    ])
      expect({ id, ok: ok(id) }).toEqual({ id, ok: false });
  });
});
