import { importNativeRates } from '@ratesmith/contracts';
import {
  CarrierServicesDouble,
  DeliveryProfilesDouble,
  GraphqlDispatcher,
} from '@ratesmith/shopify-double';
import { readDeliveryRates, TooManyRates } from './delivery-rates';

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
    queries.push(/query (\w+)/.exec(query)![1]!);
    return body.data;
  };
  return { profiles, run, queries };
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
