import { nativeProfilesSchema, type NativeProfile } from '@ratesmith/contracts';
import { z } from 'zod';
import {
  DELIVERY_DOCUMENTS,
  parseProfilesPage,
  UnexpectedShopifyReply,
  ZONE_FIELDS,
  type RunDocument,
} from './delivery-profiles';

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
