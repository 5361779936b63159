import {
  DEFAULT_SETTINGS,
  importNativeRates,
  snapshotSchema,
  validateFilters,
} from '@ratesmith/contracts';
import {
  cartTotals,
  carrierRateRequest,
  nativeRates,
  zoneFor,
  type Condition,
  type DeliveryProfile,
  type MethodDefinition,
  type WeightUnit,
} from '@ratesmith/shopify-double';
import fc from 'fast-check';
import { compileSnapshot, quote } from './engine';
import { parseRateRequest } from './engine/request';

/**
 * Proof by difference (docs/shopify.md, "Importing the shop's Shopify rates"):
 * random profiles are imported, and for random carts the double's native
 * rates (tools/shopify-double/src/delivery-rates.ts, the documented
 * semantics) are compared with what the engine quotes for the imported
 * ruleset. Only the rates the import says it handled are compared: of the
 * rates checkout shows (every rate of the zone counted, imported or not),
 * those the import handled must be exactly what Ratesmith answers.
 */

const PLACES: Record<string, string[]> = {
  US: ['CA', 'NY', 'TX', 'WA'],
  CA: ['ON', 'QC', 'BC'],
  AU: ['NSW', 'VIC'],
  DE: [],
  FR: [],
  GB: [],
  JP: [],
  MX: [],
};
const COUNTRIES = Object.keys(PLACES);
const NAMES = ['Standard', 'Express', 'Free', 'Economy'];
const UNITS: WeightUnit[] = ['GRAMS', 'KILOGRAMS', 'OUNCES', 'POUNDS'];
const PROFILES = 1_000;
const CARTS = 100;

const amount = fc.oneof(
  fc.integer({ min: 0, max: 30_000 }).map((c) => (c / 100).toFixed(2)),
  fc.constantFrom('0.00', '4.99', '5.00', '49.99', '50.00', '100.00', '100.01', '49.995'),
);
const weightValue = fc.oneof(
  fc.integer({ min: 0, max: 40_000 }).map((g) => g / 1000),
  fc.constantFrom(0.5, 1, 2, 2.001, 5, 20),
);
const operator = fc.constantFrom<Condition['operator']>(
  'GREATER_THAN_OR_EQUAL_TO',
  'LESS_THAN_OR_EQUAL_TO',
);
const condition: fc.Arbitrary<Condition> = fc.oneof(
  fc.record({ operator, amount }).map(({ operator, amount }) => ({
    id: 'c',
    field: 'TOTAL_PRICE' as const,
    operator,
    conditionCriteria: { __typename: 'MoneyV2' as const, amount, currencyCode: 'USD' },
  })),
  fc
    .record({ operator, value: weightValue, unit: fc.constantFrom(...UNITS) })
    .map(({ operator, value, unit }) => ({
      id: 'w',
      field: 'TOTAL_WEIGHT' as const,
      operator,
      conditionCriteria: { __typename: 'Weight' as const, value, unit },
    })),
);
const method = fc.record({
  name: fc.constantFrom(...NAMES),
  price: fc.oneof(
    fc.constant('0.00'),
    fc.integer({ min: 0, max: 5_000 }).map((c) => (c / 100).toFixed(2)),
  ),
  description: fc.option(fc.constantFrom('2 to 5 days', 'Tracked'), { nil: null }),
  active: fc.integer({ min: 0, max: 9 }).map((n) => n < 8),
  carrier: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
  conditions: fc.array(condition, { maxLength: 3 }),
});
/**
 * Tiers as merchants set them: consecutive bands of one rate name on the
 * order price (49.99 | 50.00) or the weight (both bands include the shared
 * bound, as Shopify's own example does), the top band often free.
 */
const tiers = fc
  .record({
    field: fc.constantFrom('TOTAL_PRICE' as const, 'TOTAL_WEIGHT' as const),
    unit: fc.constantFrom(...UNITS),
    cuts: fc.uniqueArray(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 4 }),
    prices: fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 5, maxLength: 5 }),
    freeTop: fc.boolean(),
  })
  .map(({ field, unit, cuts, prices, freeTop }) => {
    const bounds = [...cuts].sort((a, b) => a - b);
    const band = (op: Condition['operator'], at: number, below: boolean): Condition =>
      field === 'TOTAL_PRICE'
        ? {
            id: 'c',
            field,
            operator: op,
            conditionCriteria: {
              __typename: 'MoneyV2',
              amount: (at * 10 - (below ? 0.01 : 0)).toFixed(2),
              currencyCode: 'USD',
            },
          }
        : {
            id: 'w',
            field,
            operator: op,
            conditionCriteria: { __typename: 'Weight', value: at / 10, unit },
          };
    return [0, ...bounds].map((lo, i) => {
      const hi = bounds[i];
      const top = hi === undefined;
      return {
        name: 'Standard',
        price: top && freeTop ? '0.00' : (prices[i]! / 100).toFixed(2),
        description: null as string | null,
        active: true,
        carrier: false,
        conditions: [
          ...(lo > 0 ? [band('GREATER_THAN_OR_EQUAL_TO', lo, false)] : []),
          ...(top ? [] : [band('LESS_THAN_OR_EQUAL_TO', hi, true)]),
        ],
      };
    });
  });

/** Each country goes to one zone or none (-1), whole or by some of its provinces. */
const profile = fc.record({
  zones: fc.integer({ min: 1, max: 5 }),
  rest: fc.boolean(),
  where: fc.array(fc.integer({ min: -1, max: 4 }), {
    minLength: COUNTRIES.length,
    maxLength: COUNTRIES.length,
  }),
  split: fc.array(fc.boolean(), { minLength: COUNTRIES.length, maxLength: COUNTRIES.length }),
  methods: fc.array(fc.oneof(tiers, fc.array(method, { minLength: 1, maxLength: 5 })), {
    minLength: 6,
    maxLength: 6,
  }),
});

type ProfileDraft = typeof profile extends fc.Arbitrary<infer T> ? T : never;

let ids = 0;
function toProfile(p: ProfileDraft): DeliveryProfile {
  const zone = (index: number) => {
    const countries = COUNTRIES.flatMap((code, i) => {
      if (p.where[i]! % p.zones !== index || p.where[i]! < 0) return [];
      const provinces = p.split[i] ? PLACES[code]!.slice(0, 2) : PLACES[code]!;
      return [
        {
          id: `c${++ids}`,
          name: code,
          code: { countryCode: code as string | null, restOfWorld: false },
          provinces: provinces.map((c) => ({ code: c, name: c })),
        },
      ];
    });
    return { countries, methods: p.methods[index]! };
  };
  const zones = Array.from({ length: p.zones }, (_, i) => zone(i));
  if (p.rest) {
    zones.push({
      countries: [
        {
          id: 'row',
          name: 'Rest of world',
          code: { countryCode: null, restOfWorld: true },
          provinces: [],
        },
      ],
      methods: p.methods[5]!,
    });
  }
  return {
    id: 'gid://shopify/DeliveryProfile/1',
    name: 'General profile',
    default: true,
    profileLocationGroups: [
      {
        locationGroup: { id: 'gid://shopify/DeliveryLocationGroup/1' },
        locationGroupZones: zones.map((z, i) => ({
          zone: {
            id: `gid://shopify/DeliveryZone/${i}`,
            name: `Zone ${i}`,
            countries: z.countries,
          },
          methodDefinitions: z.methods.map((m): MethodDefinition => ({
            id: `gid://shopify/DeliveryMethodDefinition/${++ids}`,
            name: m.name,
            active: m.active,
            description: m.description,
            rateProvider: m.carrier
              ? {
                  __typename: 'DeliveryParticipant',
                  id: `p${ids}`,
                  carrierService: { id: 'gid://shopify/DeliveryCarrierService/9' },
                  adaptToNewServicesFlag: true,
                  fixedFee: null,
                  percentageOfRateFee: 0,
                  participantServices: [],
                }
              : {
                  __typename: 'DeliveryRateDefinition',
                  id: `r${ids}`,
                  price: { amount: m.price, currencyCode: 'USD' },
                },
            methodConditions: m.conditions.map((c, k) => ({ ...c, id: `${ids}-${k}` })),
          })),
        })),
      },
    ],
  } as DeliveryProfile;
}

/** Cart figures around every bound of the profile (either side of it), and some anywhere. */
function boundaries(p: DeliveryProfile): { cents: number[]; grams: number[] } {
  const cents = new Set<number>([0, 1, 100_000]);
  const grams = new Set<number>([0, 1, 60_000]);
  const conditions = p.profileLocationGroups[0]!.locationGroupZones.flatMap((z) =>
    z.methodDefinitions.flatMap((m) => m.methodConditions),
  );
  for (const { conditionCriteria: c } of conditions) {
    const at =
      c.__typename === 'MoneyV2'
        ? Number(c.amount) * 100
        : c.value * { GRAMS: 1, KILOGRAMS: 1000, OUNCES: 28.349523125, POUNDS: 453.59237 }[c.unit];
    const set = c.__typename === 'MoneyV2' ? cents : grams;
    for (const x of [Math.floor(at) - 1, Math.floor(at), Math.ceil(at), Math.ceil(at) + 1])
      if (x >= 0) set.add(x);
  }
  return { cents: [...cents], grams: [...grams] };
}

describe('importing native rates: the engine quotes what checkout shows', () => {
  it(`agrees on ${PROFILES} random profiles × ${CARTS} carts, for every rate imported`, () => {
    const samples = fc.sample(profile, { numRuns: PROFILES, seed: 37 });
    let carts = 0;
    let priced = 0;
    let handled = 0;
    let merchantRates = 0;
    const differences: string[] = [];
    let differenceCount = 0;
    const random = fc.sample(fc.integer({ min: 0, max: 2 ** 31 }), {
      numRuns: PROFILES * CARTS * 6,
      seed: 38,
    });
    let r = 0;
    const pick = <T>(list: readonly T[]) => list[random[r++]! % list.length]!;

    for (const sample of samples) {
      const native = toProfile(sample);
      const plan = importNativeRates([native], 'USD');
      const validated = validateFilters(plan.filters, 'ruleset');
      expect(validated.errors).toEqual([]);
      const compiled = compileSnapshot(
        snapshotSchema.parse({
          shop: 'proof.myshopify.com',
          version: 1,
          settings: DEFAULT_SETTINGS,
          globalRuleset: { id: 'imported', name: 'Imported', filters: validated.filters },
          productRules: [],
        }),
      );
      const imported = new Set(plan.imported.map((i) => i.id));
      const group = native.profileLocationGroups[0]!;
      merchantRates += group.locationGroupZones
        .flatMap((z) => z.methodDefinitions)
        .filter((m) => m.active && m.rateProvider.__typename === 'DeliveryRateDefinition').length;
      handled += imported.size;
      const near = boundaries(native);

      for (let k = 0; k < CARTS; k++) {
        const country = pick(COUNTRIES);
        const provinces = PLACES[country]!;
        const province =
          provinces.length && pick([0, 1, 1, 1]) ? pick([...provinces, 'ZZ']) : undefined;
        const cents = pick([0, 1]) ? pick(near.cents) : random[r++]! % 40_000;
        const grams = pick([0, 1]) ? pick(near.grams) : random[r++]! % 40_000;
        const items = [
          {
            quantity: 1,
            price: cents,
            grams,
            requires_shipping: true,
            product_id: 1,
            variant_id: 1,
          },
        ];
        const body = carrierRateRequest({
          destination: { country, province: province ?? null, postal_code: '10001' },
          items,
        });
        const zone = zoneFor(group, { country, province: province ?? null });
        // What checkout shows, every rate of the zone counted, then only the imported ones.
        const expected = zone
          ? nativeRates(zone, cartTotals(items))
              .filter((n) => imported.has(n.methodDefinitionId))
              .map(
                (n) =>
                  `${n.name}|${Math.round(Number(n.price.amount) * 100)}|${n.description ?? ''}`,
              )
          : [];
        const got = quote(compiled, parseRateRequest(body)).rates.map(
          (q) => `${q.service_name}|${q.total_price}|${q.description}`,
        );
        carts++;
        if (expected.length) priced++;
        if (expected.join() === got.join()) continue;
        differenceCount++;
        if (differences.length < 5)
          differences.push(
            `profile ${samples.indexOf(sample)} to ${country}-${province} ${cents}c ${grams}g: ` +
              `native ${expected.join()} ≠ Ratesmith ${got.join()}`,
          );
      }
    }
    expect(differences).toEqual([]);
    expect(differenceCount).toBe(0);
    expect(carts).toBe(PROFILES * CARTS);
    // Not vacuous: most active merchant rates are imported and most carts get a rate.
    expect(handled / merchantRates).toBeGreaterThan(0.6);
    expect(priced / carts).toBeGreaterThan(0.5);
  });
});
