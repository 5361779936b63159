import { nativeProfilesSchema, type NativeProfile } from '@ratesmith/contracts';
import { z } from 'zod';
import {
  DELIVERY_DOCUMENTS,
  parseProfilesPage,
  UnexpectedShopifyReply,
  ZONE_FIELDS,
  ZONES_PER_UPDATE,
  type ProfileUpdate,
  type RunDocument,
} from './delivery-profiles';

type ProfileZoneUpdate = NonNullable<
  ProfileUpdate['profile']['locationGroupsToUpdate']
>[number]['zonesToUpdate'][number];

/**
 * The shop's own shipping rates, for "Import from Shopify" (docs/shopify.md,
 * "Importing the shop's Shopify rates"): every profile's zones with each
 * zone's method definitions (merchant rates with their price and conditions,
 * carrier apps by name), in the shape of `nativeProfilesSchema`.
 *
 * Cost (Shopify's rules, pinned by tools/shopify-double/src/schema.spec.ts):
 * 1 + 1 + 2 + 7 × (1 + 4 + 2 + 25 × 5) = 928 points a page of 7 zones (each rate:
 * itself, its rate provider, the price or carrier, its conditions and their criteria).
 */

/** Zones per RATES_QUERY page. */
export const RATE_ZONES_PER_PAGE = 7;
/** Method definitions read per zone; a zone with more is refused by name, never cut short. */
export const RATES_PER_ZONE = 25;

const RATES_QUERY = `#graphql
query RatesmithDeliveryRates($profileId: ID!, $locationGroupId: ID!, $after: String) {
  deliveryProfile(id: $profileId) {
    profileLocationGroups(locationGroupId: $locationGroupId) {
      locationGroupZones(first: ${RATE_ZONES_PER_PAGE}, after: $after) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ${ZONE_FIELDS}
          methodDefinitions(first: ${RATES_PER_ZONE}) {
            pageInfo {
              hasNextPage
            }
            nodes {
              id
              name
              active
              description
              rateProvider {
                __typename
                ... on DeliveryRateDefinition {
                  price {
                    amount
                    currencyCode
                  }
                }
                ... on DeliveryParticipant {
                  carrierService {
                    id
                    formattedName
                  }
                }
              }
              methodConditions {
                field
                operator
                conditionCriteria {
                  __typename
                  ... on MoneyV2 {
                    amount
                    currencyCode
                  }
                  ... on Weight {
                    value
                    unit
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

export const DELIVERY_RATE_DOCUMENTS = { RATES_QUERY } as const;

const ratesPage = z.object({
  deliveryProfile: z
    .object({
      profileLocationGroups: z.array(
        z.object({
          locationGroupZones: z.object({
            pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullish() }),
            nodes: z.array(
              z.object({
                zone: z.unknown(),
                methodDefinitions: z.object({
                  pageInfo: z.object({ hasNextPage: z.boolean() }),
                  nodes: z.array(z.unknown()),
                }),
              }),
            ),
          }),
        }),
      ),
    })
    .nullable(),
});

/** A zone has more rates than one read takes: the import says so rather than cut it short. */
export class TooManyRates extends Error {
  constructor(readonly zone: string) {
    super(`the zone ${zone} has more than ${RATES_PER_ZONE} rates`);
  }
}

const MAX_PROFILE_PAGES = 20;
const MAX_ZONE_PAGES = 50;

/** Every profile with its zones and their rates, one query per 7 zones of each location group. */
export async function readDeliveryRates(run: RunDocument): Promise<NativeProfile[]> {
  const heads: ReturnType<typeof parseProfilesPage>['profiles'] = [];
  let after: string | null = null;
  for (let page = 0; page < MAX_PROFILE_PAGES; page++) {
    const { profiles, next } = parseProfilesPage(
      await run(DELIVERY_DOCUMENTS.PROFILES_QUERY, { after }),
    );
    heads.push(...profiles);
    if (!next) break;
    after = next;
  }
  const result: unknown[] = [];
  for (const head of heads) {
    const groups: unknown[] = [];
    for (const locationGroupId of head.locationGroupIds) {
      const zones: unknown[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < MAX_ZONE_PAGES; page++) {
        const parsed = ratesPage.safeParse(
          await run(RATES_QUERY, { profileId: head.id, locationGroupId, after: cursor }),
        );
        if (!parsed.success)
          throw new UnexpectedShopifyReply(
            `unexpected deliveryProfile reply: ${parsed.error.message}`,
          );
        const connection =
          parsed.data.deliveryProfile?.profileLocationGroups[0]?.locationGroupZones;
        if (!connection) break;
        for (const node of connection.nodes) {
          const zone = node.zone as { name?: string };
          if (node.methodDefinitions.pageInfo.hasNextPage)
            throw new TooManyRates(String(zone.name));
          zones.push({ zone: node.zone, methodDefinitions: node.methodDefinitions.nodes });
        }
        if (!connection.pageInfo.hasNextPage || !connection.pageInfo.endCursor) break;
        cursor = connection.pageInfo.endCursor;
      }
      groups.push({ locationGroup: { id: locationGroupId }, locationGroupZones: zones });
    }
    result.push({
      id: head.id,
      name: head.name,
      default: head.isDefault,
      profileLocationGroups: groups,
    });
  }
  const checked = nativeProfilesSchema.safeParse(result);
  if (!checked.success)
    throw new UnexpectedShopifyReply(`unexpected delivery rates: ${checked.error.message}`);
  return checked.data;
}

/** An id that is not a merchant rate of the shop's profiles (a carrier's, gone, or not the shop's). */
export class NotAMerchantRate extends Error {
  constructor(readonly methodDefinitionId: string) {
    super(`${methodDefinitionId} is not a merchant rate of the shop's delivery profiles`);
  }
}

/**
 * The PROFILE_UPDATE calls (delivery-profiles.ts) that turn the merchant
 * rates `ids` on or off (`active`), and the ids that change: a rate already
 * so is left out, so running it again sends nothing. Only merchant rates
 * (DeliveryRateDefinition) can be named: a carrier's participant, Ratesmith's
 * or another app's, throws NotAMerchantRate like an id of no profile. Each
 * call touches one profile and at most ZONES_PER_UPDATE zones.
 */
export function rateActiveUpdates(
  profiles: NativeProfile[],
  ids: readonly string[],
  active: boolean,
): { updates: ProfileUpdate[]; changed: string[] } {
  const where = new Map<
    string,
    { profile: string; group: string; zone: string; method: { active: boolean; rate: boolean } }
  >();
  for (const p of profiles)
    for (const g of p.profileLocationGroups)
      for (const z of g.locationGroupZones)
        for (const m of z.methodDefinitions)
          where.set(m.id, {
            profile: p.id,
            group: g.locationGroup.id,
            zone: z.zone.id,
            method: {
              active: m.active,
              rate: m.rateProvider.__typename === 'DeliveryRateDefinition',
            },
          });
  // profile → zone → { group, ids }, in the order the ids came.
  const byProfile = new Map<string, Map<string, { group: string; ids: string[] }>>();
  const changed: string[] = [];
  for (const id of new Set(ids)) {
    const found = where.get(id);
    if (!found?.method.rate) throw new NotAMerchantRate(id);
    if (found.method.active === active) continue;
    changed.push(id);
    const zones = byProfile.get(found.profile) ?? new Map();
    byProfile.set(found.profile, zones);
    const zone = zones.get(found.zone) ?? { group: found.group, ids: [] };
    zones.set(found.zone, zone);
    zone.ids.push(id);
  }
  const updates: ProfileUpdate[] = [];
  for (const [profileId, zones] of byProfile) {
    const list = [...zones];
    for (let i = 0; i < list.length; i += ZONES_PER_UPDATE) {
      const groups = new Map<string, ProfileZoneUpdate[]>();
      for (const [zoneId, { group, ids: zoneIds }] of list.slice(i, i + ZONES_PER_UPDATE))
        groups.set(group, [
          ...(groups.get(group) ?? []),
          { id: zoneId, methodDefinitionsToUpdate: zoneIds.map((id) => ({ id, active })) },
        ]);
      updates.push({
        id: profileId,
        profile: {
          locationGroupsToUpdate: [...groups].map(([id, zonesToUpdate]) => ({ id, zonesToUpdate })),
        },
      });
    }
  }
  return { updates, changed };
}
