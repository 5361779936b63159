import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CarrierServicesDouble } from './carrier-services';
import { DeliveryProfilesDouble } from './delivery-profiles';
import { carrierRateRequest, startShopifyDouble, type ShopifyDouble } from './double';
import { GraphqlDispatcher } from './graphql';

const SHOP = 'zones.myshopify.com';

const CREATE = `mutation C($input: DeliveryCarrierServiceCreateInput!) {
  carrierServiceCreate(input: $input) { carrierService { id name } userErrors { field message } }
}`;

const PROFILES = `query P {
  deliveryProfiles(first: 1) {
    nodes {
      id name default
      profileLocationGroups {
        locationGroup { id }
        locationGroupZones(first: 5) {
          nodes {
            zone { id name countries { code { countryCode restOfWorld } provinces { code } } }
            methodDefinitions(first: 10) {
              nodes {
                id name active
                rateProvider {
                  ... on DeliveryRateDefinition { id price { amount currencyCode } }
                  ... on DeliveryParticipant { id carrierService { id name } adaptToNewServicesFlag }
                }
                methodConditions { field operator conditionCriteria { ... on MoneyV2 { amount } ... on Weight { value unit } } }
              }
            }
          }
        }
      }
    }
  }
}`;

const UPDATE = `mutation U($id: ID!, $profile: DeliveryProfileInput!) {
  deliveryProfileUpdate(id: $id, profile: $profile) {
    profile { id }
    userErrors { field message }
  }
}`;

interface ZoneNode {
  zone: { id: string; name: string };
  methodDefinitions: {
    nodes: {
      id: string;
      name: string;
      active: boolean;
      rateProvider: { id: string; carrierService?: { id: string; name: string } };
    }[];
  };
}
interface ProfilesAnswer {
  data: {
    deliveryProfiles: {
      nodes: {
        id: string;
        default: boolean;
        profileLocationGroups: {
          locationGroup: { id: string };
          locationGroupZones: { nodes: ZoneNode[] };
        }[];
      }[];
    };
  };
}

function setup() {
  const graphql = new GraphqlDispatcher();
  const carriers = new CarrierServicesDouble(graphql);
  const profiles = new DeliveryProfilesDouble(graphql, carriers);
  const run = async (query: string, variables: Record<string, unknown> = {}, scopes?: string[]) =>
    (await graphql.dispatch(SHOP, { query, variables }, scopes)).body as Record<string, unknown>;
  const createCarrier = async (name = 'Ratesmith') => {
    const body = (await run(CREATE, {
      input: {
        name,
        callbackUrl: 'https://x.test/c',
        active: true,
        supportsServiceDiscovery: true,
      },
    })) as { data: { carrierServiceCreate: { carrierService: { id: string } } } };
    return body.data.carrierServiceCreate.carrierService.id;
  };
  const read = async () => {
    const body = await run(PROFILES);
    if (!body.data) throw new Error(JSON.stringify(body.errors));
    return body as unknown as ProfilesAnswer;
  };
  const zonesOf = async () => {
    const general = (await read()).data.deliveryProfiles.nodes[0]!;
    const group = general.profileLocationGroups[0]!;
    return {
      profileId: general.id,
      groupId: group.locationGroup.id,
      zones: group.locationGroupZones.nodes,
    };
  };
  return { graphql, carriers, profiles, run, createCarrier, read, zonesOf };
}

describe('delivery profiles over GraphQL', () => {
  it('gives a shop the General profile with Domestic, Canada, Europe and Rest of world, and no carrier anywhere', async () => {
    const t = setup();
    await t.createCarrier();
    const { zones } = await t.zonesOf();
    expect(zones.map((z) => z.zone.name)).toEqual([
      'Domestic',
      'Canada',
      'Europe',
      'Rest of world',
    ]);
    const providers = zones.flatMap((z) => z.methodDefinitions.nodes.map((m) => m.rateProvider));
    expect(providers.some((p) => p.carrierService)).toBe(false);
    expect(zones[0]!.zone.id).toMatch(/^gid:\/\/shopify\/DeliveryZone\/\d+$/);
  });

  it('adds the carrier to a zone through deliveryProfileUpdate, and deletes it again', async () => {
    const t = setup();
    const carrierId = await t.createCarrier();
    const { profileId, groupId, zones } = await t.zonesOf();
    const canada = zones.find((z) => z.zone.name === 'Canada')!;
    const added = await t.run(UPDATE, {
      id: profileId,
      profile: {
        locationGroupsToUpdate: [
          {
            id: groupId,
            zonesToUpdate: [
              {
                id: canada.zone.id,
                methodDefinitionsToCreate: [
                  {
                    active: true,
                    participant: { carrierServiceId: carrierId, adaptToNewServices: true },
                  },
                ],
              },
            ],
          },
        ],
      },
    });
    expect(added).toMatchObject({
      data: { deliveryProfileUpdate: { profile: { id: profileId }, userErrors: [] } },
    });
    const after = (await t.zonesOf()).zones.find((z) => z.zone.id === canada.zone.id)!;
    const participant = after.methodDefinitions.nodes.find((m) => m.rateProvider.carrierService)!;
    expect(participant).toMatchObject({
      name: 'Ratesmith',
      active: true,
      rateProvider: { carrierService: { id: carrierId, name: 'Ratesmith' } },
    });
    expect(participant.rateProvider.id).toMatch(/^gid:\/\/shopify\/DeliveryParticipant\/\d+$/);

    const deleted = await t.run(UPDATE, {
      id: profileId,
      profile: { methodDefinitionsToDelete: [participant.id] },
    });
    expect(deleted).toMatchObject({ data: { deliveryProfileUpdate: { userErrors: [] } } });
    const gone = (await t.zonesOf()).zones.find((z) => z.zone.id === canada.zone.id)!;
    expect(gone.methodDefinitions.nodes.some((m) => m.rateProvider.carrierService)).toBe(false);
  });

  it('answers userErrors (and changes nothing) for unknown ids and a carrier service not of this shop', async () => {
    const t = setup();
    const carrierId = await t.createCarrier();
    const { profileId, groupId, zones } = await t.zonesOf();
    const errorsOf = async (id: string, profile: Record<string, unknown>) =>
      (
        (await t.run(UPDATE, { id, profile })) as {
          data: { deliveryProfileUpdate: { profile: unknown; userErrors: unknown } };
        }
      ).data.deliveryProfileUpdate;

    expect(await errorsOf('gid://shopify/DeliveryProfile/1', { name: 'x' })).toEqual({
      profile: null,
      userErrors: [{ field: ['id'], message: 'Profile could not be found.' }],
    });
    expect(
      await errorsOf(profileId, {
        locationGroupsToUpdate: [{ id: 'gid://shopify/DeliveryLocationGroup/1' }],
      }),
    ).toEqual({
      profile: null,
      userErrors: [
        {
          field: ['profile', 'locationGroupsToUpdate', '0', 'id'],
          message: 'Location group could not be found.',
        },
      ],
    });
    expect(
      await errorsOf(profileId, {
        locationGroupsToUpdate: [
          { id: groupId, zonesToUpdate: [{ id: 'gid://shopify/DeliveryZone/1' }] },
        ],
      }),
    ).toMatchObject({ userErrors: [{ message: 'Zone could not be found.' }] });
    expect(
      await errorsOf(profileId, {
        methodDefinitionsToDelete: ['gid://shopify/DeliveryMethodDefinition/1'],
      }),
    ).toMatchObject({ userErrors: [{ field: ['profile', 'methodDefinitionsToDelete', '0'] }] });

    // A carrier service of another shop is not found in this one; the valid half of the input is not applied either.
    const other = setup();
    const foreign = await other.createCarrier('Elsewhere');
    const both = await errorsOf(profileId, {
      name: 'Renamed',
      locationGroupsToUpdate: [
        {
          id: groupId,
          zonesToUpdate: [
            {
              id: zones[0]!.zone.id,
              methodDefinitionsToCreate: [
                { active: true, participant: { carrierServiceId: carrierId } },
                {
                  active: true,
                  participant: { carrierServiceId: foreign.replace(/\d+$/, '999999') },
                },
              ],
            },
          ],
        },
      ],
    });
    expect(both).toEqual({
      profile: null,
      userErrors: [
        {
          field: [
            'profile',
            'locationGroupsToUpdate',
            '0',
            'zonesToUpdate',
            '0',
            'methodDefinitionsToCreate',
            '1',
            'participant',
            'carrierServiceId',
          ],
          message: 'Carrier service could not be found.',
        },
      ],
    });
    const unchanged = await t.read();
    expect(JSON.stringify(unchanged)).not.toContain('Renamed');
    expect(JSON.stringify(unchanged)).not.toContain(carrierId);
  });

  it('creates a zone with conditioned rates, and refuses a country already in another zone', async () => {
    const t = setup();
    const { profileId, groupId } = await t.zonesOf();
    const zone = (name: string, code: string) => ({
      name,
      countries: [{ code }],
      methodDefinitionsToCreate: [
        {
          name: 'Light',
          active: true,
          rateDefinition: { price: { amount: '4.5', currencyCode: 'USD' } },
          weightConditionsToCreate: [
            { operator: 'LESS_THAN_OR_EQUAL_TO', criteria: { value: 1, unit: 'POUNDS' } },
          ],
        },
      ],
    });
    const clash = await t.run(UPDATE, {
      id: profileId,
      profile: {
        locationGroupsToUpdate: [{ id: groupId, zonesToCreate: [zone('Germany', 'DE')] }],
      },
    });
    expect(clash).toMatchObject({
      data: {
        deliveryProfileUpdate: {
          profile: null,
          userErrors: [{ message: 'Germany is already in the zone Europe.' }],
        },
      },
    });
    const made = await t.run(UPDATE, {
      id: profileId,
      profile: { locationGroupsToUpdate: [{ id: groupId, zonesToCreate: [zone('Japan', 'JP')] }] },
    });
    expect(made).toMatchObject({ data: { deliveryProfileUpdate: { userErrors: [] } } });
    const japan = t.profiles.checkoutZone(SHOP, { country: 'JP' })!;
    expect(japan.zone.zone.name).toBe('Japan');
    expect(japan.zone.methodDefinitions[0]).toMatchObject({
      name: 'Light',
      rateProvider: { price: { amount: '4.5', currencyCode: 'USD' } },
      methodConditions: [
        {
          field: 'TOTAL_WEIGHT',
          operator: 'LESS_THAN_OR_EQUAL_TO',
          conditionCriteria: { __typename: 'Weight', value: 1, unit: 'POUNDS' },
        },
      ],
    });
  });

  it('refuses unknown fields, arguments and input fields before running anything', async () => {
    const t = setup();
    const { profileId } = await t.zonesOf();
    const cases: [string, Record<string, unknown>, string][] = [
      ['query { deliveryProfiles(first: 1) { nodes { zones { id } } } }', {}, 'undefinedField'],
      [
        'query { deliveryProfiles(first: 1, query: "x") { nodes { id } } }',
        {},
        'argumentNotAccepted',
      ],
      ['query { deliveryProfiles { nodes { id } } }', {}, 'you must provide one of first or last'],
      [
        'query { deliveryProfiles(first: 1) { nodes { profileLocationGroups { locationGroupZones(first: 1) { nodes { methodDefinitions(first: 1) { nodes { rateProvider { id } } } } } } } } }',
        {},
        'undefinedField',
      ],
      [UPDATE, { id: profileId, profile: { zones: [] } }, 'INVALID_VARIABLE'],
      [
        UPDATE,
        {
          id: profileId,
          profile: {
            locationGroupsToUpdate: [
              {
                id: 'x',
                zonesToUpdate: [
                  { id: 'z', methodDefinitionsToCreate: [{ participant: { carrierId: 'c' } }] },
                ],
              },
            ],
          },
        },
        'INVALID_VARIABLE',
      ],
      [
        'mutation { deliveryProfileUpdate(id: "x") { userErrors { field } } }',
        {},
        'missingRequiredArguments',
      ],
    ];
    for (const [query, variables, code] of cases) {
      const body = await t.run(query, variables);
      expect(body.data).toBeUndefined();
      expect(JSON.stringify(body.errors)).toContain(code);
    }
  });

  it('answers ACCESS_DENIED without a shipping scope, and lets read_shipping read but not write', async () => {
    const t = setup();
    const { profileId } = await t.zonesOf();
    const denied = await t.run(PROFILES, {}, ['read_products']);
    expect(denied).toMatchObject({
      errors: [{ extensions: { code: 'ACCESS_DENIED' }, path: ['deliveryProfiles'] }],
    });
    expect(denied.data).toBeUndefined();
    expect((await t.run(PROFILES, {}, ['read_shipping'])).data).toBeDefined();
    expect(
      await t.run(UPDATE, { id: profileId, profile: { name: 'x' } }, ['read_shipping']),
    ).toMatchObject({
      errors: [{ extensions: { code: 'ACCESS_DENIED' } }],
    });
    expect(
      await t.run(UPDATE, { id: profileId, profile: { name: 'x' } }, ['write_shipping']),
    ).toMatchObject({
      data: { deliveryProfileUpdate: { userErrors: [] } },
    });
  });

  it('pages zones and filters method definitions by type and eligibility', async () => {
    const t = setup();
    await t.createCarrier();
    t.profiles.addCarrierToZones(SHOP, 'Ratesmith', 'all');
    const q = `query {
      deliveryProfiles(first: 1) { nodes { profileLocationGroups { locationGroupZones(first: 2, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { zone { name } methodDefinitionCounts { participantDefinitionsCount rateDefinitionsCount }
          methodDefinitions(first: 10, type: PARTICIPANT, eligible: true) { nodes { name } } } } } } }
    }`.replace('query {', 'query Z($after: String) {');
    const first = (await t.run(q, { after: null })) as {
      data: {
        deliveryProfiles: {
          nodes: {
            profileLocationGroups: {
              locationGroupZones: {
                pageInfo: { hasNextPage: boolean; endCursor: string };
                nodes: unknown[];
              };
            }[];
          }[];
        };
      };
    };
    const page = first.data.deliveryProfiles.nodes[0]!.profileLocationGroups[0]!.locationGroupZones;
    expect(page.nodes).toEqual([
      {
        zone: { name: 'Domestic' },
        methodDefinitionCounts: { participantDefinitionsCount: 1, rateDefinitionsCount: 3 },
        methodDefinitions: { nodes: [{ name: 'Ratesmith' }] },
      },
      {
        zone: { name: 'Canada' },
        methodDefinitionCounts: { participantDefinitionsCount: 1, rateDefinitionsCount: 3 },
        methodDefinitions: { nodes: [{ name: 'Ratesmith' }] },
      },
    ]);
    expect(page.pageInfo.hasNextPage).toBe(true);
    const second = (await t.run(q, { after: page.pageInfo.endCursor })) as typeof first;
    const names =
      second.data.deliveryProfiles.nodes[0]!.profileLocationGroups[0]!.locationGroupZones.nodes.map(
        (n) => (n as { zone: { name: string } }).zone.name,
      );
    expect(names).toEqual(['Europe', 'Rest of world']);
    // An inactive carrier service's participant is not eligible.
    t.carriers.deactivate(SHOP);
    const inactive = (await t.run(q, { after: null })) as typeof first;
    expect(
      (
        inactive.data.deliveryProfiles.nodes[0]!.profileLocationGroups[0]!.locationGroupZones
          .nodes[0] as { methodDefinitions: { nodes: unknown[] } }
      ).methodDefinitions.nodes,
    ).toEqual([]);
  });

  it('drops the carrier from every zone when the carrier service is deleted', async () => {
    const t = setup();
    const id = await t.createCarrier();
    t.profiles.addCarrierToZones(SHOP, 'Ratesmith', 'all');
    expect(JSON.stringify(t.profiles.get(SHOP))).toContain(id);
    await t.run('mutation D($id: ID!) { carrierServiceDelete(id: $id) { deletedId } }', { id });
    expect(JSON.stringify(t.profiles.get(SHOP))).not.toContain(id);
  });

  it('loads profiles shaped like the deliveryProfiles answer, and reads them back the same', () => {
    const t = setup();
    const before = t.profiles.get(SHOP);
    t.profiles.set('other.myshopify.com', before);
    expect(t.profiles.get('other.myshopify.com')).toEqual(before);
    expect(() => t.profiles.set(SHOP, { nodes: [] })).toThrow(/default/);
  });
});

/** A carrier callback that records who was asked and answers one rate. */
async function callbackServer(): Promise<{ server: Server; url: string; calls: unknown[] }> {
  const calls: unknown[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      calls.push(JSON.parse(body));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          rates: [{ service_name: 'Ratesmith Ground', total_price: '1234', currency: 'USD' }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rates`, calls };
}

describe('checkout asks a carrier service only where it takes part', () => {
  let shopify: ShopifyDouble;
  let callback: Awaited<ReturnType<typeof callbackServer>>;

  beforeEach(async () => {
    shopify = await startShopifyDouble({ apiKey: 'k', apiSecret: 's' });
    callback = await callbackServer();
    await shopify.graphql.dispatch(SHOP, {
      query: CREATE,
      variables: {
        input: {
          name: 'Ratesmith',
          callbackUrl: callback.url,
          active: true,
          supportsServiceDiscovery: true,
        },
      },
    });
  });
  afterEach(async () => {
    await shopify.stop();
    await new Promise((resolve) => callback.server.close(resolve));
  });

  const to = (country: string, province: string | null = null) =>
    carrierRateRequest({ destination: { country, province, postal_code: 'X', city: 'Y' } });
  const zoneId = (name: string) =>
    shopify.deliveryProfiles
      .profiles(SHOP)[0]!
      .profileLocationGroups[0]!.locationGroupZones.find((z) => z.zone.name === name)!.zone.id;

  it('does not call a carrier service that is in no zone (carrierServiceCreate adds it nowhere)', async () => {
    expect(await shopify.checkout(SHOP, to('CA', 'ON'))).toEqual([]);
    expect(callback.calls).toEqual([]);
  });

  it('calls it for a destination in a zone where it takes part, and not elsewhere', async () => {
    shopify.deliveryProfiles.addCarrierToZones(SHOP, 'Ratesmith', [zoneId('Canada')]);
    const [answer] = await shopify.checkout(SHOP, to('CA', 'ON'));
    expect(answer).toMatchObject({
      service: 'Ratesmith',
      status: 200,
      body: { rates: [{ service_name: 'Ratesmith Ground' }] },
    });
    expect(await shopify.checkout(SHOP, to('US', 'NY'))).toEqual([]);
    expect(await shopify.checkout(SHOP, to('JP'))).toEqual([]);
    expect(callback.calls).toHaveLength(1);
  });

  it('covers countries of no other zone through the rest-of-world zone', async () => {
    shopify.deliveryProfiles.addCarrierToZones(SHOP, 'Ratesmith', [zoneId('Rest of world')]);
    const result = await shopify.checkoutRates(SHOP, to('JP'));
    expect(result.zone?.name).toBe('Rest of world');
    expect(result.carrierRates).toHaveLength(1);
    // Germany is in Europe, so the rest of the world does not take it.
    expect((await shopify.checkoutRates(SHOP, to('DE'))).zone?.name).toBe('Europe');
    expect(await shopify.checkout(SHOP, to('DE'))).toEqual([]);
  });

  it('matches provinces when the zone lists them', async () => {
    shopify.deliveryProfiles.set(SHOP, {
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
                    name: 'Ontario',
                    countries: [
                      {
                        name: 'Canada',
                        code: { countryCode: 'CA', restOfWorld: false },
                        provinces: [{ code: 'ON', name: 'Ontario' }],
                      },
                    ],
                  },
                  methodDefinitions: [],
                },
                {
                  zone: {
                    name: 'Quebec',
                    countries: [
                      {
                        name: 'Canada',
                        code: { countryCode: 'CA', restOfWorld: false },
                        provinces: [{ code: 'QC', name: 'Quebec' }],
                      },
                    ],
                  },
                  methodDefinitions: [],
                },
                {
                  zone: {
                    name: 'Elsewhere',
                    countries: [{ name: 'Rest of World', code: { restOfWorld: true } }],
                  },
                  methodDefinitions: [],
                },
              ],
            },
          ],
        },
      ],
    });
    shopify.deliveryProfiles.addCarrierToZones(SHOP, 'Ratesmith', [zoneId('Ontario')]);
    expect(await shopify.checkout(SHOP, to('CA', 'ON'))).toHaveLength(1);
    expect(await shopify.checkout(SHOP, to('CA', 'QC'))).toEqual([]);
    // A province of a listed country in no zone: the rest of the world does not take it either.
    const bc = await shopify.checkoutRates(SHOP, to('CA', 'BC'));
    expect(bc.zone).toBeNull();
    expect(bc.carrierRates).toEqual([]);
  });

  it('does not call an inactive participant, nor an inactive carrier service', async () => {
    const [id] = shopify.deliveryProfiles.addCarrierToZones(SHOP, 'Ratesmith', [zoneId('Canada')]);
    const profiles = shopify.deliveryProfiles.get(SHOP) as {
      nodes: {
        profileLocationGroups: {
          locationGroupZones: {
            nodes: { methodDefinitions: { nodes: { id: string; active: boolean }[] } }[];
          };
        }[];
      }[];
    };
    for (const z of profiles.nodes[0]!.profileLocationGroups[0]!.locationGroupZones.nodes)
      for (const m of z.methodDefinitions.nodes) if (m.id === id) m.active = false;
    shopify.deliveryProfiles.set(SHOP, profiles);
    expect(await shopify.checkout(SHOP, to('CA', 'ON'))).toEqual([]);
    shopify.deliveryProfiles.addCarrierToZones(SHOP, 'Ratesmith', [zoneId('Canada')]);
    expect(await shopify.checkout(SHOP, to('CA', 'ON'))).toHaveLength(1);
    shopify.carrierServices.deactivate(SHOP);
    expect(await shopify.checkout(SHOP, to('CA', 'ON'))).toEqual([]);
  });

  it('leaves a merchant rate turned off with deliveryProfileUpdate out of checkout, and shows it again once on', async () => {
    const general = shopify.deliveryProfiles.profiles(SHOP)[0]!;
    const group = general.profileLocationGroups[0]!;
    const canada = group.locationGroupZones.find((z) => z.zone.name === 'Canada')!;
    const standard = canada.methodDefinitions.find((m) => m.name === 'Standard')!;
    const turn = async (active: boolean) =>
      shopify.graphql.dispatch(SHOP, {
        query: UPDATE,
        variables: {
          id: general.id,
          profile: {
            locationGroupsToUpdate: [
              {
                id: group.locationGroup.id,
                zonesToUpdate: [
                  {
                    id: canada.zone.id,
                    methodDefinitionsToUpdate: [{ id: standard.id, active }],
                  },
                ],
              },
            ],
          },
        },
      });
    const names = async () =>
      (await shopify.checkoutRates(SHOP, to('CA', 'ON'))).nativeRates.map((r) => r.name);
    expect(await names()).toEqual(['Standard']);
    expect(JSON.stringify((await turn(false)).body)).toContain('"userErrors":[]');
    expect(await names()).toEqual([]);
    await turn(true);
    expect(await names()).toEqual(['Standard']);
  });

  it('fails only the documents a failure names, and only as often as asked', async () => {
    shopify.graphql.failNext(503, 1, { errors: 'Service unavailable' }, SHOP, /mutation U\b/);
    const post = async (query: string) =>
      (
        await fetch(`${shopify.url}/admin/api/2026-10/graphql.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-shopify-shop-domain': SHOP },
          body: JSON.stringify({ query }),
        })
      ).status;
    // The read is not named: it reaches the token check (none here: 401).
    expect(await post(PROFILES)).toBe(401);
    expect(await post(UPDATE)).toBe(503);
    expect(await post(UPDATE)).toBe(401);
  });

  it('forgets the carrier in every zone on uninstall', async () => {
    shopify.deliveryProfiles.addCarrierToZones(SHOP, 'Ratesmith', 'all');
    shopify.uninstall(SHOP);
    expect(JSON.stringify(shopify.deliveryProfiles.get(SHOP))).not.toContain('DeliveryParticipant');
  });

  it('serves the HTTP controls: load profiles, add the carrier, run a checkout', async () => {
    const base = `${shopify.url}/__double/shops/${SHOP}`;
    const profiles = (await (await fetch(`${base}/delivery-profiles`)).json()) as unknown;
    const put = await fetch(`${base}/delivery-profiles`, {
      method: 'PUT',
      body: JSON.stringify(profiles),
    });
    expect(put.status).toBe(200);
    const add = await fetch(`${base}/delivery-profiles/carrier`, {
      method: 'POST',
      body: JSON.stringify({ carrierService: 'Ratesmith', zones: 'all' }),
    });
    expect(add.status).toBe(200);
    const checkout = await fetch(`${base}/checkout`, {
      method: 'POST',
      body: JSON.stringify(to('CA', 'ON')),
    });
    expect(await checkout.json()).toMatchObject({
      zone: { name: 'Canada' },
      cart: { subtotalCents: 2500, grams: 1000 },
      nativeRates: [{ name: 'Standard', price: { amount: '9.00', currencyCode: 'USD' } }],
      carrierRates: [{ service: 'Ratesmith', status: 200 }],
    });
    const bad = await fetch(`${base}/checkout`, {
      method: 'POST',
      body: JSON.stringify({ rate: {} }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ status: false });
    expect(
      (await fetch(`${base}/delivery-profiles`, { method: 'PUT', body: '{"nodes":[]}' })).status,
    ).toBe(400);
  });
});
