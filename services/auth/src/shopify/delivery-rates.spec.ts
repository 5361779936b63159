import { importNativeRates } from '@ratesmith/contracts';
import {
  CarrierServicesDouble,
  DeliveryProfilesDouble,
  GraphqlDispatcher,
} from '@ratesmith/shopify-double';
import { applyZoneUpdates, ZONES_PER_UPDATE } from './delivery-profiles';
import {
  NotAMerchantRate,
  rateActiveUpdates,
  readDeliveryRates,
  TooManyRates,
} from './delivery-rates';

const SHOP = 'rates.myshopify.com';

/** The app's documents run against the double, which validates and prices them as Shopify does. */
function double(scopes = ['read_shipping']) {
  const graphql = new GraphqlDispatcher();
  const profiles = new DeliveryProfilesDouble(graphql, new CarrierServicesDouble(graphql));
  const queries: string[] = [];
  const run = async (query: string, variables: Record<string, unknown>) => {
    const reply = await graphql.dispatch(SHOP, { query, variables }, scopes);
    const body = reply.body as { data?: unknown; errors?: { message: string }[] };
    if (body.errors) throw new Error(body.errors.map((e) => e.message).join('; '));
    queries.push(/(?:query|mutation) (\w+)/.exec(query)![1]!);
    return body.data;
  };
  return { graphql, profiles, run, queries };
}

describe('readDeliveryRates', () => {
  it("reads every zone's rates with their conditions, in the shape the import takes", async () => {
    const { run, queries } = double();
    const profiles = await readDeliveryRates(run);
    expect(queries).toEqual(['RatesmithDeliveryProfiles', 'RatesmithDeliveryRates']);
    const plan = importNativeRates(profiles, 'USD');
    // The double's default General profile.
    const beside =
      'checkout shows it next to “Standard” for some carts, and Ratesmith answers one rate a cart';
    expect(plan.skipped.map((s) => `${s.zone}: ${s.name}: ${s.reason}`)).toEqual([
      `Domestic: Express: ${beside}`,
      // Free from 100.00 and Standard up to 2 kg both show for a light cart of 100.00.
      `Canada: Free shipping: ${beside}`,
    ]);
    expect(plan.summary).toBe(
      '4 zones, 8 rates → 1 ruleset of 6 rules; 2 rates cannot be imported:',
    );
    expect(plan.imported.map((i) => `${i.zone}: ${i.name} ${i.price}`)).toEqual([
      'Domestic: Free shipping 0.00',
      'Domestic: Standard 5.00',
      'Canada: Standard 9.00',
      'Canada: Heavy 19.00',
      'Europe: International 25.00',
      'Rest of world: International 35.00',
    ]);
  });

  it('pages zones 7 at a time', async () => {
    const { profiles, run, queries } = double();
    const zones = Array.from({ length: 8 }, (_, i) => ({
      zone: {
        name: `Zone ${i}`,
        countries: [
          {
            name: 'A',
            code: { countryCode: `A${String.fromCharCode(65 + i)}`, restOfWorld: false },
          },
        ],
      },
      methodDefinitions: [],
    }));
    profiles.set(SHOP, {
      nodes: [
        {
          name: 'General profile',
          default: true,
          profileLocationGroups: [{ locationGroup: {}, locationGroupZones: zones }],
        },
      ],
    });
    const read = await readDeliveryRates(run);
    expect(read[0]!.profileLocationGroups[0]!.locationGroupZones).toHaveLength(8);
    expect(queries).toEqual([
      'RatesmithDeliveryProfiles',
      'RatesmithDeliveryRates',
      'RatesmithDeliveryRates',
    ]);
  });

  it('refuses a zone with more rates than one read takes, by name, rather than cut it short', async () => {
    const { profiles, run } = double();
    const rate = {
      name: 'Flat',
      active: true,
      rateProvider: { price: { amount: '1.00', currencyCode: 'USD' } },
    };
    profiles.set(SHOP, {
      nodes: [
        {
          name: 'General profile',
          default: true,
          profileLocationGroups: [
            {
              locationGroup: {},
              locationGroupZones: [
                {
                  zone: {
                    name: 'Crowded',
                    countries: [{ name: 'US', code: { countryCode: 'US', restOfWorld: false } }],
                  },
                  methodDefinitions: Array(26).fill(rate),
                },
              ],
            },
          ],
        },
      ],
    });
    await expect(readDeliveryRates(run)).rejects.toEqual(new TooManyRates('Crowded'));
  });

  it('needs a shipping scope, as Shopify does', async () => {
    const { run } = double(['read_products']);
    await expect(readDeliveryRates(run)).rejects.toThrow(/Access denied|ACCESS_DENIED|access/i);
  });
});

describe('rateActiveUpdates: turning merchant rates off and on (go live and undo)', () => {
  const write = ['read_shipping', 'write_shipping'];
  const ratesOf = (read: Awaited<ReturnType<typeof readDeliveryRates>>, zone: string) =>
    read[0]!.profileLocationGroups[0]!.locationGroupZones.find((z) => z.zone.name === zone)!
      .methodDefinitions;

  it("turns a zone's rates off through the double's deliveryProfileUpdate, then back exactly as they were", async () => {
    const { run, queries } = double(write);
    const before = await readDeliveryRates(run);
    const domestic = ratesOf(before, 'Domestic').filter((m) => m.active);
    expect(domestic.length).toBeGreaterThan(1);
    const ids = domestic.map((m) => m.id);

    const off = rateActiveUpdates(before, ids, false);
    expect(off.changed).toEqual(ids);
    // One mutation: one profile, one zone, each rate named with its new state.
    expect(off.updates).toEqual([
      {
        id: before[0]!.id,
        profile: {
          locationGroupsToUpdate: [
            {
              id: before[0]!.profileLocationGroups[0]!.locationGroup.id,
              zonesToUpdate: [
                {
                  id: before[0]!.profileLocationGroups[0]!.locationGroupZones.find(
                    (z) => z.zone.name === 'Domestic',
                  )!.zone.id,
                  methodDefinitionsToUpdate: ids.map((id) => ({ id, active: false })),
                },
              ],
            },
          ],
        },
      },
    ]);
    await applyZoneUpdates(run, off.updates);
    const during = await readDeliveryRates(run);
    expect(ratesOf(during, 'Domestic').filter((m) => ids.includes(m.id))).toEqual(
      domestic.map((m) => ({ ...m, active: false })),
    );
    // Only those: every other zone is as before.
    expect(ratesOf(during, 'Canada')).toEqual(ratesOf(before, 'Canada'));
    // Again: nothing left to send.
    expect(rateActiveUpdates(during, ids, false)).toEqual({ updates: [], changed: [] });

    const on = rateActiveUpdates(during, ids, true);
    expect(on.changed).toEqual(ids);
    await applyZoneUpdates(run, on.updates);
    expect(JSON.stringify(await readDeliveryRates(run))).toBe(JSON.stringify(before));
    expect(queries.filter((q) => q === 'RatesmithDeliveryProfileUpdate')).toHaveLength(2);
  });

  it("refuses a carrier's participant and an id of no profile, and sends nothing", async () => {
    const { graphql, profiles, run } = double(write);
    const created = await graphql.dispatch(
      SHOP,
      {
        query: `mutation C($input: DeliveryCarrierServiceCreateInput!) {
          carrierServiceCreate(input: $input) { carrierService { id } userErrors { message } }
        }`,
        variables: {
          input: {
            name: 'Other app',
            callbackUrl: 'https://other.example/rates',
            active: true,
            supportsServiceDiscovery: true,
          },
        },
      },
      write,
    );
    expect(JSON.stringify(created.body)).toContain('gid://shopify/DeliveryCarrierService/');
    const zoneId =
      profiles.profiles(SHOP)[0]!.profileLocationGroups[0]!.locationGroupZones[0]!.zone.id;
    const [participant] = profiles.addCarrierToZones(SHOP, 'Other app', [zoneId]);
    const read = await readDeliveryRates(run);
    const rate = read[0]!.profileLocationGroups[0]!.locationGroupZones[0]!.methodDefinitions.find(
      (m) => m.rateProvider.__typename === 'DeliveryRateDefinition',
    )!;
    expect(() => rateActiveUpdates(read, [rate.id, participant!], false)).toThrow(
      new NotAMerchantRate(participant!),
    );
    const foreign = 'gid://shopify/DeliveryMethodDefinition/999999';
    expect(() => rateActiveUpdates(read, [foreign], false)).toThrow(NotAMerchantRate);
  });

  it(`splits a profile's zones ${ZONES_PER_UPDATE} to a mutation, grouped by location group`, () => {
    const rate = (id: number) => ({
      id: `m${id}`,
      name: 'Flat',
      active: true,
      description: null,
      rateProvider: {
        __typename: 'DeliveryRateDefinition' as const,
        price: { amount: '1.00', currencyCode: 'USD' },
      },
      methodConditions: [],
    });
    const zones = (from: number) =>
      Array.from({ length: 3 }, (_, i) => ({
        zone: { id: `z${from + i}`, name: `Zone ${from + i}`, countries: [] },
        methodDefinitions: [rate(from + i)],
      }));
    const read = [
      {
        id: 'p1',
        name: 'General profile',
        default: true,
        profileLocationGroups: [
          { locationGroup: { id: 'g1' }, locationGroupZones: zones(1) },
          { locationGroup: { id: 'g2' }, locationGroupZones: zones(4) },
        ],
      },
    ];
    const { updates, changed } = rateActiveUpdates(
      read,
      ['m1', 'm2', 'm3', 'm4', 'm5', 'm6'],
      false,
    );
    expect(changed).toHaveLength(6);
    expect(
      updates.map((u) =>
        u.profile.locationGroupsToUpdate!.map(
          (g) => `${g.id}:${g.zonesToUpdate.map((z) => z.id).join(',')}`,
        ),
      ),
    ).toEqual([['g1:z1,z2,z3', 'g2:z4,z5'], ['g2:z6']]);
  });
});
