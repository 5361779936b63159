import { z } from 'zod';

/**
 * Where checkout asks Ratesmith: the shop's delivery profiles, their zones,
 * and Ratesmith's carrier service taking part in them. From Admin API
 * 2026-10 `carrierServiceCreate` no longer adds a new carrier service to the
 * General profile's zones: Shopify calls a carrier at checkout only for
 * destinations in a zone with a method definition whose rate provider is a
 * DeliveryParticipant for it (docs/shopify.md, "Where checkout asks
 * Ratesmith: shipping zones").
 *
 * Costs (Shopify's rules: nested connections multiply, so the reads are
 * paged per profile and per location group rather than one large query):
 * PROFILES_QUERY 2 + 25 × 3 = 77 points; ZONES_QUERY
 * 1 + 1 + 2 + 20 × (1 + 4 + 2 + 10 × 3) = 744 points, under the 1,000 of
 * one query; a mutation costs 10.
 */

/** Profiles per PROFILES_QUERY page (each with its location group ids). */
export const PROFILES_PER_PAGE = 25;
/** Zones per ZONES_QUERY page of one location group. */
export const ZONES_PER_PAGE = 20;
/**
 * Participant method definitions read per zone: a zone has one per carrier
 * service taking part (merchant rates are not read), so 10 leaves room for
 * Ratesmith beside other carriers.
 */
export const PARTICIPANTS_PER_ZONE = 10;
/** Shopify recommends at most 5 location groups, and 5 zones, per deliveryProfileUpdate. */
export const ZONES_PER_UPDATE = 5;

const PROFILES_QUERY = `#graphql
query RatesmithDeliveryProfiles($after: String) {
  deliveryProfiles(first: ${PROFILES_PER_PAGE}, after: $after) {
    pageInfo {
      hasNextPage
      endCursor
    }
    nodes {
      id
      name
      default
      profileLocationGroups {
        locationGroup {
          id
        }
      }
    }
  }
}`;

/** A location group zone's zone: its countries and provinces (the zones and rates queries). */
export const ZONE_FIELDS = `zone {
            id
            name
            countries {
              code {
                countryCode
                restOfWorld
              }
              provinces {
                code
              }
            }
          }`;

const ZONES_QUERY = `#graphql
query RatesmithDeliveryZones($profileId: ID!, $locationGroupId: ID!, $after: String) {
  deliveryProfile(id: $profileId) {
    profileLocationGroups(locationGroupId: $locationGroupId) {
      locationGroupZones(first: ${ZONES_PER_PAGE}, after: $after) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ${ZONE_FIELDS}
          methodDefinitions(first: ${PARTICIPANTS_PER_ZONE}, type: PARTICIPANT) {
            nodes {
              id
              active
              rateProvider {
                ... on DeliveryParticipant {
                  id
                  carrierService {
                    id
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}`;

/**
 * Adds Ratesmith to zones and takes it out of others, in one profile. The
 * variables, at their largest (at most ZONES_PER_UPDATE zones, each in its
 * location group; only Ratesmith's own method definitions are deleted):
 * `{ id: "gid://shopify/DeliveryProfile/1", profile: {
 *     locationGroupsToUpdate: [{ id: "gid://shopify/DeliveryLocationGroup/1",
 *       zonesToUpdate: [{ id: "gid://shopify/DeliveryZone/1",
 *         methodDefinitionsToCreate: [{ active: true, participant: {
 *           carrierServiceId: "gid://shopify/DeliveryCarrierService/1",
 *           adaptToNewServices: true } }] }] }],
 *     methodDefinitionsToDelete: ["gid://shopify/DeliveryMethodDefinition/1"] } }`
 * (either list may be absent).
 */
const PROFILE_UPDATE = `#graphql
mutation RatesmithDeliveryProfileUpdate($id: ID!, $profile: DeliveryProfileInput!) {
  deliveryProfileUpdate(id: $id, profile: $profile) {
    userErrors {
      field
      message
    }
  }
}`;

export const DELIVERY_DOCUMENTS = { PROFILES_QUERY, ZONES_QUERY, PROFILE_UPDATE } as const;

/** One country of a zone; `code` is empty for the rest of the world. */
export interface ZoneCountry {
  code: string;
  restOfWorld: boolean;
  /** Province codes; empty: the whole country. */
  provinces: string[];
}

/** A zone of one location group of a profile, as far as Ratesmith is concerned. */
export interface DeliveryZone {
  id: string;
  name: string;
  countries: ZoneCountry[];
  /** The location group the zone belongs to: deliveryProfileUpdate names it. */
  locationGroupId: string;
  /** Ratesmith's participant method definitions in the zone, active or not. */
  ratesmithMethods: { id: string; active: boolean }[];
}

export interface DeliveryProfileZones {
  id: string;
  name: string;
  /** The General profile. */
  isDefault: boolean;
  zones: DeliveryZone[];
}

/** Checkout asks Ratesmith for this zone: one of its method definitions there is active. */
export const asksRatesmith = (zone: DeliveryZone): boolean =>
  zone.ratesmithMethods.some((m) => m.active);

/** How many zones ask Ratesmith, of all zones of every profile. */
export function zoneCoverage(profiles: DeliveryProfileZones[]): { asking: number; total: number } {
  const zones = profiles.flatMap((p) => p.zones);
  return { asking: zones.filter(asksRatesmith).length, total: zones.length };
}

const pageInfo = z.object({
  hasNextPage: z.boolean(),
  endCursor: z.string().nullish(),
});

const profilesData = z.object({
  deliveryProfiles: z.object({
    pageInfo,
    nodes: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        default: z.boolean(),
        profileLocationGroups: z.array(z.object({ locationGroup: z.object({ id: z.string() }) })),
      }),
    ),
  }),
});

const zoneNode = z.object({
  zone: z.object({
    id: z.string(),
    name: z.string(),
    countries: z.array(
      z.object({
        code: z.object({ countryCode: z.string().nullish(), restOfWorld: z.boolean() }),
        provinces: z.array(z.object({ code: z.string() })),
      }),
    ),
  }),
  methodDefinitions: z.object({
    nodes: z.array(
      z.object({
        id: z.string(),
        active: z.boolean(),
        // A merchant rate (DeliveryRateDefinition) answers {} here.
        rateProvider: z
          .object({ carrierService: z.object({ id: z.string() }).nullish() })
          .nullish(),
      }),
    ),
  }),
});

const zonesData = z.object({
  deliveryProfile: z
    .object({
      profileLocationGroups: z.array(
        z.object({ locationGroupZones: z.object({ pageInfo, nodes: z.array(zoneNode) }) }),
      ),
    })
    .nullable(),
});

const updateData = z.object({
  deliveryProfileUpdate: z
    .object({ userErrors: z.array(z.object({ message: z.string() })) })
    .nullable(),
});

/** Shopify answered something the app cannot read: shown as "could not load". */
export class UnexpectedShopifyReply extends Error {}

function parsed<T>(schema: z.ZodType<T>, data: unknown, what: string): T {
  const result = schema.safeParse(data);
  if (!result.success)
    throw new UnexpectedShopifyReply(`unexpected ${what} reply: ${result.error.message}`);
  return result.data;
}

interface ProfileHead {
  id: string;
  name: string;
  isDefault: boolean;
  locationGroupIds: string[];
}

/** One page of PROFILES_QUERY: the profiles and the cursor of the next page (null: last). */
export function parseProfilesPage(data: unknown): { profiles: ProfileHead[]; next: string | null } {
  const { deliveryProfiles } = parsed(profilesData, data, 'deliveryProfiles');
  return {
    profiles: deliveryProfiles.nodes.map((p) => ({
      id: p.id,
      name: p.name,
      isDefault: p.default,
      locationGroupIds: p.profileLocationGroups.map((g) => g.locationGroup.id),
    })),
    next: nextCursor(deliveryProfiles.pageInfo),
  };
}

/**
 * One page of ZONES_QUERY: the zones of the location group, each with
 * Ratesmith's participant method definitions (those whose carrier service is
 * `carrierServiceId`; none when it is null), and the next page's cursor.
 */
export function parseZonesPage(
  data: unknown,
  locationGroupId: string,
  carrierServiceId: string | null,
): { zones: DeliveryZone[]; next: string | null } {
  const { deliveryProfile } = parsed(zonesData, data, 'deliveryProfile');
  const group = deliveryProfile?.profileLocationGroups[0];
  if (!group) return { zones: [], next: null };
  return {
    zones: group.locationGroupZones.nodes.map((node) => ({
      id: node.zone.id,
      name: node.zone.name,
      countries: node.zone.countries.map((c) => ({
        code: c.code.restOfWorld ? '' : (c.code.countryCode ?? ''),
        restOfWorld: c.code.restOfWorld,
        provinces: c.provinces.map((p) => p.code),
      })),
      locationGroupId,
      ratesmithMethods: node.methodDefinitions.nodes
        .filter(
          (m) =>
            carrierServiceId !== null && m.rateProvider?.carrierService?.id === carrierServiceId,
        )
        .map((m) => ({ id: m.id, active: m.active })),
    })),
    next: nextCursor(group.locationGroupZones.pageInfo),
  };
}

function nextCursor(info: z.infer<typeof pageInfo>): string | null {
  return info.hasNextPage && info.endCursor ? info.endCursor : null;
}

/** Runs one Admin GraphQL document for the shop and answers its data. */
export type RunDocument = (
  document: string,
  variables: Record<string, unknown>,
) => Promise<unknown>;

/** Bounds on paging, so a misbehaving reply cannot keep the reader going for ever. */
const MAX_PROFILE_PAGES = 20;
const MAX_ZONE_PAGES = 50;

/**
 * Every profile of the shop with the zones of each of its location groups:
 * one PROFILES_QUERY page per 25 profiles, then one ZONES_QUERY page per 20
 * zones of each location group, one after another (each within Shopify's
 * cost limit; the bucket refills between them).
 */
export async function readDeliveryZones(
  run: RunDocument,
  carrierServiceId: string | null,
): Promise<DeliveryProfileZones[]> {
  const heads: ProfileHead[] = [];
  let after: string | null = null;
  for (let page = 0; page < MAX_PROFILE_PAGES; page++) {
    const { profiles, next } = parseProfilesPage(await run(PROFILES_QUERY, { after }));
    heads.push(...profiles);
    if (!next) break;
    after = next;
  }
  const result: DeliveryProfileZones[] = [];
  for (const head of heads) {
    const zones: DeliveryZone[] = [];
    for (const locationGroupId of head.locationGroupIds) {
      let cursor: string | null = null;
      for (let page = 0; page < MAX_ZONE_PAGES; page++) {
        const variables = { profileId: head.id, locationGroupId, after: cursor };
        const { zones: found, next } = parseZonesPage(
          await run(ZONES_QUERY, variables),
          locationGroupId,
          carrierServiceId,
        );
        zones.push(...found);
        if (!next) break;
        cursor = next;
      }
    }
    result.push({ id: head.id, name: head.name, isDefault: head.isDefault, zones });
  }
  return result;
}

/** The variables of one PROFILE_UPDATE. */
export interface ProfileUpdate {
  id: string;
  profile: {
    locationGroupsToUpdate?: {
      id: string;
      zonesToUpdate: {
        id: string;
        methodDefinitionsToCreate?: {
          active: true;
          participant: { carrierServiceId: string; adaptToNewServices: true };
        }[];
        /** Turns merchant rates on or off (delivery-rates.ts, go-live and its undo). */
        methodDefinitionsToUpdate?: { id: string; active: boolean }[];
      }[];
    }[];
    methodDefinitionsToDelete?: string[];
  };
}

/** A zone id the shop's profiles do not have (deleted in Shopify since the page was loaded). */
export class UnknownZone extends Error {
  constructor(readonly zoneId: string) {
    super(`no zone ${zoneId} in the shop's delivery profiles`);
  }
}

/**
 * The PROFILE_UPDATE calls that make checkout ask Ratesmith in the zones
 * (`ratesmith`), or stop asking there; zones already so are left out, so
 * running it again sends nothing. Adding creates one active participant
 * method definition for `carrierServiceId` (and deletes Ratesmith's inactive
 * ones in the zone, so a zone never keeps two); removing deletes Ratesmith's
 * definitions only, never another carrier's or a merchant rate. Each call
 * touches at most ZONES_PER_UPDATE zones of one profile (so at most that
 * many location groups). Throws UnknownZone for an id of no profile.
 */
export function zoneUpdates(
  profiles: DeliveryProfileZones[],
  zoneIds: readonly string[],
  ratesmith: boolean,
  carrierServiceId: string,
): ProfileUpdate[] {
  const where = new Map<string, { profile: string; zone: DeliveryZone }>();
  for (const p of profiles) for (const zone of p.zones) where.set(zone.id, { profile: p.id, zone });
  const changing = new Map<string, DeliveryZone[]>();
  for (const id of new Set(zoneIds)) {
    const found = where.get(id);
    if (!found) throw new UnknownZone(id);
    const { zone } = found;
    const change = ratesmith ? !asksRatesmith(zone) : zone.ratesmithMethods.length > 0;
    if (!change) continue;
    changing.set(found.profile, [...(changing.get(found.profile) ?? []), zone]);
  }
  const updates: ProfileUpdate[] = [];
  for (const [profileId, zones] of changing) {
    for (let i = 0; i < zones.length; i += ZONES_PER_UPDATE) {
      updates.push(
        updateOf(profileId, zones.slice(i, i + ZONES_PER_UPDATE), ratesmith, carrierServiceId),
      );
    }
  }
  return updates;
}

function updateOf(
  profileId: string,
  zones: DeliveryZone[],
  ratesmith: boolean,
  carrierServiceId: string,
): ProfileUpdate {
  const toDelete = zones.flatMap((z) => z.ratesmithMethods.map((m) => m.id));
  const profile: ProfileUpdate['profile'] = {};
  if (ratesmith) {
    const groups = new Map<string, DeliveryZone[]>();
    for (const zone of zones)
      groups.set(zone.locationGroupId, [...(groups.get(zone.locationGroupId) ?? []), zone]);
    profile.locationGroupsToUpdate = [...groups].map(([id, inGroup]) => ({
      id,
      zonesToUpdate: inGroup.map((zone) => ({
        id: zone.id,
        methodDefinitionsToCreate: [
          { active: true, participant: { carrierServiceId, adaptToNewServices: true } },
        ],
      })),
    }));
  }
  if (toDelete.length) profile.methodDefinitionsToDelete = toDelete;
  return { id: profileId, profile };
}

/** Shopify refused an update: its user errors' messages. */
export class ProfileUpdateRefused extends Error {}

/** Sends the updates one after another; throws ProfileUpdateRefused with Shopify's user errors. */
export async function applyZoneUpdates(run: RunDocument, updates: ProfileUpdate[]): Promise<void> {
  for (const update of updates) {
    const { deliveryProfileUpdate } = parsed(
      updateData,
      await run(PROFILE_UPDATE, { ...update }),
      'deliveryProfileUpdate',
    );
    const errors = deliveryProfileUpdate?.userErrors ?? [];
    if (errors.length) throw new ProfileUpdateRefused(errors.map((e) => e.message).join(' '));
  }
}
