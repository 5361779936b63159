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
          zone {
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
          }
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
