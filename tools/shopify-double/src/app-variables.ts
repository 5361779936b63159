/**
 * Variables the app sends with each of its Admin documents, the largest of
 * each (page sizes, lists of ids): what the double's and Shopify's requested
 * costs are computed with, in `schema.spec.ts` and `published-schema.spec.ts`.
 * A document whose connections are sized by variables needs an entry here.
 */
export const APP_VARIABLES: Record<string, Record<string, unknown>> = {
  RatesmithProducts: { first: 15, query: 'mug*' },
  RatesmithProductsById: {
    ids: Array.from({ length: 8 }, (_, i) => `gid://shopify/Product/${i + 1}`),
  },
  // The most ids of one read (MAX_FACT_IDS in services/auth/src/shopify/admin-queries.ts).
  RatesmithProductFacts: {
    ids: Array.from({ length: 100 }, (_, i) => `gid://shopify/Product/${i + 1}`),
  },
  RatesmithProductExportStatus: { id: 'gid://shopify/BulkOperation/1' },
  RatesmithProductVariants: { id: 'gid://shopify/Product/1', after: 'x' },
  RatesmithVariantWeights: { id: 'gid://shopify/Product/1' },
  RatesmithCarrierService: { id: 'gid://shopify/DeliveryCarrierService/1' },
  RatesmithCarrierServiceCreate: {
    input: {
      name: 'Ratesmith',
      callbackUrl: 'https://x.test/c',
      active: true,
      supportsServiceDiscovery: true,
    },
  },
  RatesmithDeliveryProfiles: { after: 'x' },
  RatesmithDeliveryZones: {
    profileId: 'gid://shopify/DeliveryProfile/1',
    locationGroupId: 'gid://shopify/DeliveryLocationGroup/1',
    after: 'x',
  },
  RatesmithDeliveryRates: {
    profileId: 'gid://shopify/DeliveryProfile/1',
    locationGroupId: 'gid://shopify/DeliveryLocationGroup/1',
    after: 'x',
  },
  // The largest update the app sends: five zones, each gaining the carrier, and a deletion.
  RatesmithDeliveryProfileUpdate: {
    id: 'gid://shopify/DeliveryProfile/1',
    profile: {
      locationGroupsToUpdate: [
        {
          id: 'gid://shopify/DeliveryLocationGroup/1',
          zonesToUpdate: [1, 2, 3, 4, 5].map((n) => ({
            id: `gid://shopify/DeliveryZone/${n}`,
            methodDefinitionsToCreate: [
              {
                active: true,
                participant: {
                  carrierServiceId: 'gid://shopify/DeliveryCarrierService/1',
                  adaptToNewServices: true,
                },
              },
            ],
          })),
        },
      ],
      methodDefinitionsToDelete: ['gid://shopify/DeliveryMethodDefinition/1'],
    },
  },
  RatesmithCarrierServiceUpdate: {
    input: {
      id: 'gid://shopify/DeliveryCarrierService/1',
      name: 'Ratesmith',
      callbackUrl: 'https://x.test/c',
      active: true,
      supportsServiceDiscovery: true,
    },
  },
};
