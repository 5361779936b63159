import {
  applyZoneUpdates,
  asksRatesmith,
  DELIVERY_DOCUMENTS,
  parseProfilesPage,
  parseZonesPage,
  ProfileUpdateRefused,
  readDeliveryZones,
  UnexpectedShopifyReply,
  UnknownZone,
  zoneCoverage,
  zoneUpdates,
  ZONES_PER_UPDATE,
  type DeliveryProfileZones,
  type DeliveryZone,
} from './delivery-profiles';

const OURS = 'gid://shopify/DeliveryCarrierService/7';
const OTHER = 'gid://shopify/DeliveryCarrierService/8';
const LG = 'gid://shopify/DeliveryLocationGroup/1';

/** A zone node as ZONES_QUERY gets it from Shopify. */
function zoneNode(id: number, methods: { id: number; active: boolean; carrier?: string }[] = []) {
  return {
    zone: {
      id: `gid://shopify/DeliveryZone/${id}`,
      name: `Zone ${id}`,
      countries: [
        { code: { countryCode: 'CA', restOfWorld: false }, provinces: [{ code: 'ON' }] },
        { code: { countryCode: null, restOfWorld: true }, provinces: [] },
      ],
    },
    methodDefinitions: {
      nodes: methods.map((m) => ({
        id: `gid://shopify/DeliveryMethodDefinition/${m.id}`,
        active: m.active,
        // A merchant rate's provider is a DeliveryRateDefinition: the fragment answers {}.
        rateProvider: m.carrier ? { id: 'p', carrierService: { id: m.carrier } } : {},
      })),
    },
  };
}

const zonesReply = (nodes: unknown[], endCursor: string | null = null) => ({
  deliveryProfile: {
    profileLocationGroups: [
      {
        locationGroupZones: {
          pageInfo: { hasNextPage: endCursor !== null, endCursor },
          nodes,
        },
      },
    ],
  },
});

function zone(id: number, ratesmithMethods: DeliveryZone['ratesmithMethods'] = [], lg = LG) {
  return {
    id: `gid://shopify/DeliveryZone/${id}`,
    name: `Zone ${id}`,
    countries: [],
    locationGroupId: lg,
    ratesmithMethods,
  } satisfies DeliveryZone;
}

const profile = (id: number, zones: DeliveryZone[], isDefault = false): DeliveryProfileZones => ({
  id: `gid://shopify/DeliveryProfile/${id}`,
  name: `Profile ${id}`,
  isDefault,
  zones,
});

describe("parsing Shopify's delivery profiles", () => {
  it('reads a page of profiles with their location groups and the next cursor', () => {
    const page = parseProfilesPage({
      deliveryProfiles: {
        pageInfo: { hasNextPage: true, endCursor: 'c1' },
        nodes: [
          {
            id: 'gid://shopify/DeliveryProfile/1',
            name: 'General profile',
            default: true,
            profileLocationGroups: [{ locationGroup: { id: LG } }],
          },
        ],
      },
    });
    expect(page).toEqual({
      profiles: [
        {
          id: 'gid://shopify/DeliveryProfile/1',
          name: 'General profile',
          isDefault: true,
          locationGroupIds: [LG],
        },
      ],
      next: 'c1',
    });
  });

  it("reads zones, countries (rest of world has no code) and only Ratesmith's participant definitions", () => {
    const page = parseZonesPage(
      zonesReply(
        [
          zoneNode(1, [
            { id: 10, active: true, carrier: OURS },
            { id: 11, active: true, carrier: OTHER },
            { id: 12, active: true },
          ]),
          zoneNode(2, [{ id: 20, active: false, carrier: OURS }]),
          zoneNode(3),
        ],
        'next-zones',
      ),
      LG,
      OURS,
    );
    expect(page.next).toBe('next-zones');
    expect(page.zones[0]).toEqual({
      id: 'gid://shopify/DeliveryZone/1',
      name: 'Zone 1',
      countries: [
        { code: 'CA', restOfWorld: false, provinces: ['ON'] },
        { code: '', restOfWorld: true, provinces: [] },
      ],
      locationGroupId: LG,
      ratesmithMethods: [{ id: 'gid://shopify/DeliveryMethodDefinition/10', active: true }],
    });
    expect(page.zones.map(asksRatesmith)).toEqual([true, false, false]);
    expect(page.zones[1]!.ratesmithMethods).toHaveLength(1);
  });

  it('finds no Ratesmith definition when the shop has no carrier service', () => {
    const page = parseZonesPage(
      zonesReply([zoneNode(1, [{ id: 10, active: true, carrier: OURS }])]),
      LG,
      null,
    );
    expect(page.zones[0]!.ratesmithMethods).toEqual([]);
    expect(page.next).toBeNull();
  });

  it('answers no zones for a profile or location group Shopify no longer has', () => {
    expect(parseZonesPage({ deliveryProfile: null }, LG, OURS)).toEqual({ zones: [], next: null });
    expect(
      parseZonesPage({ deliveryProfile: { profileLocationGroups: [] } }, LG, OURS).zones,
    ).toEqual([]);
  });

  it('refuses a reply of another shape', () => {
    expect(() => parseProfilesPage({ deliveryProfiles: null })).toThrow(UnexpectedShopifyReply);
    expect(() =>
      parseZonesPage({ deliveryProfile: { profileLocationGroups: 3 } }, LG, OURS),
    ).toThrow(UnexpectedShopifyReply);
  });
});

describe('readDeliveryZones', () => {
  it('pages profiles, then each location group of each profile', async () => {
    const calls: { doc: string; variables: Record<string, unknown> }[] = [];
    const run = async (doc: string, variables: Record<string, unknown>) => {
      calls.push({ doc, variables });
      if (doc === DELIVERY_DOCUMENTS.PROFILES_QUERY) {
        const first = variables.after === null;
        return {
          deliveryProfiles: {
            pageInfo: { hasNextPage: first, endCursor: first ? 'p2' : null },
            nodes: [
              {
                id: `gid://shopify/DeliveryProfile/${first ? 1 : 2}`,
                name: first ? 'General profile' : 'Heavy',
                default: first,
                profileLocationGroups: first
                  ? [{ locationGroup: { id: LG } }, { locationGroup: { id: 'lg2' } }]
                  : [{ locationGroup: { id: LG } }],
              },
            ],
          },
        };
      }
      if (
        variables.profileId === 'gid://shopify/DeliveryProfile/1' &&
        variables.locationGroupId === LG
      )
        return variables.after === null
          ? zonesReply([zoneNode(1, [{ id: 10, active: true, carrier: OURS }])], 'z2')
          : zonesReply([zoneNode(2)]);
      return zonesReply([zoneNode(variables.locationGroupId === 'lg2' ? 3 : 4)]);
    };
    const profiles = await readDeliveryZones(run, OURS);
    expect(profiles.map((p) => [p.name, p.isDefault, p.zones.map((z) => z.id)])).toEqual([
      [
        'General profile',
        true,
        [
          'gid://shopify/DeliveryZone/1',
          'gid://shopify/DeliveryZone/2',
          'gid://shopify/DeliveryZone/3',
        ],
      ],
      ['Heavy', false, ['gid://shopify/DeliveryZone/4']],
    ]);
    expect(profiles[0]!.zones[2]!.locationGroupId).toBe('lg2');
    expect(calls).toHaveLength(2 + 4);
    expect(zoneCoverage(profiles)).toEqual({ asking: 1, total: 4 });
  });
});

describe('zoneUpdates', () => {
  const general = profile(1, [
    zone(1),
    zone(2, [{ id: 'm2', active: true }]),
    zone(3, [{ id: 'm3', active: false }]),
    zone(4, [], 'gid://shopify/DeliveryLocationGroup/2'),
  ]);
  const other = profile(2, [zone(5), zone(6, [{ id: 'm6', active: true }])]);

  it('adds a participant where Ratesmith is not asked, replacing its inactive definitions, and leaves zones that ask alone', () => {
    const ids = [1, 2, 3, 4, 5].map((n) => `gid://shopify/DeliveryZone/${n}`);
    const updates = zoneUpdates([general, other], ids, true, OURS);
    const participant = [
      { active: true, participant: { carrierServiceId: OURS, adaptToNewServices: true } },
    ];
    expect(updates).toEqual([
      {
        id: 'gid://shopify/DeliveryProfile/1',
        profile: {
          locationGroupsToUpdate: [
            {
              id: LG,
              zonesToUpdate: [
                { id: 'gid://shopify/DeliveryZone/1', methodDefinitionsToCreate: participant },
                { id: 'gid://shopify/DeliveryZone/3', methodDefinitionsToCreate: participant },
              ],
            },
            {
              id: 'gid://shopify/DeliveryLocationGroup/2',
              zonesToUpdate: [
                { id: 'gid://shopify/DeliveryZone/4', methodDefinitionsToCreate: participant },
              ],
            },
          ],
          methodDefinitionsToDelete: ['m3'],
        },
      },
      {
        id: 'gid://shopify/DeliveryProfile/2',
        profile: {
          locationGroupsToUpdate: [
            {
              id: LG,
              zonesToUpdate: [
                { id: 'gid://shopify/DeliveryZone/5', methodDefinitionsToCreate: participant },
              ],
            },
          ],
        },
      },
    ]);
  });

  it("removes only Ratesmith's definitions, active or not, and nothing where it has none", () => {
    const ids = [1, 2, 3, 6].map((n) => `gid://shopify/DeliveryZone/${n}`);
    expect(zoneUpdates([general, other], ids, false, OURS)).toEqual([
      {
        id: 'gid://shopify/DeliveryProfile/1',
        profile: { methodDefinitionsToDelete: ['m2', 'm3'] },
      },
      { id: 'gid://shopify/DeliveryProfile/2', profile: { methodDefinitionsToDelete: ['m6'] } },
    ]);
  });

  it('sends nothing when every zone already is as asked (idempotent), duplicates counted once', () => {
    const asking = 'gid://shopify/DeliveryZone/2';
    expect(zoneUpdates([general], [asking, asking], true, OURS)).toEqual([]);
    expect(zoneUpdates([general], ['gid://shopify/DeliveryZone/1'], false, OURS)).toEqual([]);
    expect(zoneUpdates([general], [], true, OURS)).toEqual([]);
  });

  it(`batches at most ${ZONES_PER_UPDATE} zones (so at most ${ZONES_PER_UPDATE} location groups) per update`, () => {
    const many = profile(
      9,
      Array.from({ length: 12 }, (_, i) =>
        zone(100 + i, [], `gid://shopify/DeliveryLocationGroup/${i}`),
      ),
    );
    const updates = zoneUpdates(
      [many],
      many.zones.map((z) => z.id),
      true,
      OURS,
    );
    expect(updates.map((u) => u.profile.locationGroupsToUpdate!.length)).toEqual([5, 5, 2]);
    expect(updates.every((u) => u.id === many.id)).toBe(true);
    const zonesSent = updates.flatMap((u) =>
      u.profile.locationGroupsToUpdate!.flatMap((g) => g.zonesToUpdate.map((z) => z.id)),
    );
    expect(zonesSent).toEqual(many.zones.map((z) => z.id));
  });

  it('refuses a zone id of no profile', () => {
    expect(() =>
      zoneUpdates(
        [general],
        ['gid://shopify/DeliveryZone/1', 'gid://shopify/DeliveryZone/999'],
        true,
        OURS,
      ),
    ).toThrow(UnknownZone);
  });
});

describe('applyZoneUpdates', () => {
  const update = {
    id: 'gid://shopify/DeliveryProfile/1',
    profile: { methodDefinitionsToDelete: ['m'] },
  };

  it('sends each update as the mutation variables', async () => {
    const sent: unknown[] = [];
    await applyZoneUpdates(
      async (doc, variables) => {
        expect(doc).toBe(DELIVERY_DOCUMENTS.PROFILE_UPDATE);
        sent.push(variables);
        return { deliveryProfileUpdate: { userErrors: [] } };
      },
      [update, update],
    );
    expect(sent).toEqual([update, update]);
  });

  it("stops at Shopify's user errors, with their messages", async () => {
    let calls = 0;
    const run = async () => {
      calls++;
      return {
        deliveryProfileUpdate: {
          userErrors: [{ field: ['profile'], message: 'Zone does not exist.' }],
        },
      };
    };
    await expect(applyZoneUpdates(run, [update, update])).rejects.toThrow(
      new ProfileUpdateRefused('Zone does not exist.'),
    );
    expect(calls).toBe(1);
  });
});
