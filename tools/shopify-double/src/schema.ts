/**
 * The part of Shopify's Admin GraphQL schema (2026-10) the app uses: the
 * root fields it sends, their arguments, and the fields of every type they
 * return. Every name here exists in Shopify's schema; the double refuses
 * anything that is not here, as Shopify refuses what is not in its own.
 * Connection types (`ProductConnection`, `ProductEdge`, `PageInfo`) are built
 * from `connection(...)` below.
 */

export type FieldDef =
  | { kind: 'scalar'; type: string; args?: Record<string, string> }
  | { kind: 'object'; type: string; args?: Record<string, string>; free?: boolean }
  /** A list whose length an argument gives (`nodes(ids:)`), or a connection's edges/nodes. */
  | { kind: 'list'; type: string; args?: Record<string, string>; sizeArg?: string; free?: boolean }
  | { kind: 'connection'; type: string; args: Record<string, string> };

export interface TypeDef {
  fields: Record<string, FieldDef>;
  /** Set on interfaces: the object types a value of this type may be. */
  possibleTypes?: string[];
  /** Set on generated connection types: edges and nodes are two views of the same page. */
  connection?: boolean;
}

export interface Schema {
  query: string;
  mutation: string;
  types: Record<string, TypeDef>;
  /** Input object types: their fields and types. Scalars and enums are in `leafTypes`. */
  inputs: Record<string, Record<string, string>>;
  leafTypes: Set<string>;
}

const scalar = (type: string, args?: Record<string, string>): FieldDef =>
  args ? { kind: 'scalar', type, args } : { kind: 'scalar', type };
const object = (type: string, args?: Record<string, string>): FieldDef =>
  args ? { kind: 'object', type, args } : { kind: 'object', type };
const PAGING = { first: 'Int', last: 'Int', after: 'String', before: 'String', reverse: 'Boolean' };
const connection = (type: string, args: Record<string, string> = {}): FieldDef => ({
  kind: 'connection',
  type,
  args: { ...PAGING, ...args },
});

const USER_ERROR = { field: scalar('String'), message: scalar('String'), code: scalar('String') };

/**
 * Delivery profiles, their location groups, zones and method definitions
 * (Admin API 2026-10 reference pages of each type). `DeliveryRateProvider`
 * and `DeliveryConditionCriteria` are unions: no fields of their own, only
 * `... on` their members (and `__typename`).
 */
const DELIVERY_OBJECTS: Record<string, TypeDef> = {
  DeliveryProfile: {
    fields: {
      id: scalar('ID'),
      name: scalar('String'),
      default: scalar('Boolean'),
      activeMethodDefinitionsCount: scalar('Int'),
      locationsWithoutRatesCount: scalar('Int'),
      originLocationCount: scalar('Int'),
      zoneCountryCount: scalar('Int'),
      profileLocationGroups: {
        kind: 'list',
        type: 'DeliveryProfileLocationGroup',
        args: { locationGroupId: 'ID' },
      },
    },
  },
  DeliveryProfileLocationGroup: {
    fields: {
      locationGroup: object('DeliveryLocationGroup'),
      locationGroupZones: connection('DeliveryLocationGroupZone'),
      countriesInAnyZone: { kind: 'list', type: 'DeliveryCountryAndZone' },
    },
  },
  DeliveryLocationGroup: {
    fields: { id: scalar('ID'), locationsCount: object('Count') },
  },
  DeliveryCountryAndZone: {
    fields: { country: object('DeliveryCountry'), zone: scalar('String') },
  },
  DeliveryLocationGroupZone: {
    fields: {
      zone: object('DeliveryZone'),
      methodDefinitions: connection('DeliveryMethodDefinition', {
        eligible: 'Boolean',
        type: 'DeliveryMethodDefinitionType',
        sortKey: 'MethodDefinitionSortKeys',
      }),
      methodDefinitionCounts: object('DeliveryMethodDefinitionCounts'),
    },
  },
  DeliveryMethodDefinitionCounts: {
    fields: {
      participantDefinitionsCount: scalar('Int'),
      rateDefinitionsCount: scalar('Int'),
    },
  },
  DeliveryZone: {
    fields: {
      id: scalar('ID'),
      name: scalar('String'),
      countries: { kind: 'list', type: 'DeliveryCountry' },
    },
  },
  DeliveryCountry: {
    fields: {
      id: scalar('ID'),
      name: scalar('String'),
      translatedName: scalar('String'),
      code: object('DeliveryCountryCodeOrRestOfWorld'),
      provinces: { kind: 'list', type: 'DeliveryProvince' },
    },
  },
  DeliveryCountryCodeOrRestOfWorld: {
    fields: { countryCode: scalar('CountryCode'), restOfWorld: scalar('Boolean') },
  },
  DeliveryProvince: {
    fields: {
      id: scalar('ID'),
      code: scalar('String'),
      name: scalar('String'),
      translatedName: scalar('String'),
    },
  },
  DeliveryMethodDefinition: {
    fields: {
      id: scalar('ID'),
      name: scalar('String'),
      active: scalar('Boolean'),
      description: scalar('String'),
      rateProvider: object('DeliveryRateProvider'),
      methodConditions: { kind: 'list', type: 'DeliveryCondition' },
    },
  },
  DeliveryRateProvider: {
    fields: {},
    possibleTypes: ['DeliveryRateDefinition', 'DeliveryParticipant'],
  },
  DeliveryRateDefinition: { fields: { id: scalar('ID'), price: object('MoneyV2') } },
  DeliveryParticipant: {
    fields: {
      id: scalar('ID'),
      carrierService: object('DeliveryCarrierService'),
      adaptToNewServicesFlag: scalar('Boolean'),
      fixedFee: object('MoneyV2'),
      percentageOfRateFee: scalar('Float'),
      participantServices: { kind: 'list', type: 'DeliveryParticipantService' },
    },
  },
  DeliveryParticipantService: { fields: { name: scalar('String'), active: scalar('Boolean') } },
  DeliveryCondition: {
    fields: {
      id: scalar('ID'),
      field: scalar('DeliveryConditionField'),
      operator: scalar('DeliveryConditionOperator'),
      conditionCriteria: object('DeliveryConditionCriteria'),
    },
  },
  DeliveryConditionCriteria: { fields: {}, possibleTypes: ['MoneyV2', 'Weight'] },
  MoneyV2: { fields: { amount: scalar('Decimal'), currencyCode: scalar('CurrencyCode') } },
  DeliveryProfileUpdatePayload: {
    fields: {
      profile: object('DeliveryProfile'),
      userErrors: { kind: 'list', type: 'UserError' },
    },
  },
  UserError: { fields: { field: scalar('String'), message: scalar('String') } },
};

const MONEY_INPUT = { amount: 'Decimal!', currencyCode: 'CurrencyCode!' };

/** The input objects of `deliveryProfileUpdate` (2026-10), every field, nullability as documented. */
const DELIVERY_INPUTS: Record<string, Record<string, string>> = {
  DeliveryProfileInput: {
    conditionsToDelete: '[ID!]',
    coversAllItems: 'Boolean',
    locationGroupsToCreate: '[DeliveryProfileLocationGroupInput!]',
    locationGroupsToDelete: '[ID!]',
    locationGroupsToUpdate: '[DeliveryProfileLocationGroupInput!]',
    methodDefinitionsToDelete: '[ID!]',
    name: 'String',
    profileLocationGroups: '[DeliveryProfileLocationGroupInput!]',
    sellingPlanGroupsToAssociate: '[ID!]',
    sellingPlanGroupsToDissociate: '[ID!]',
    variantsToAssociate: '[ID!]',
    variantsToDissociate: '[ID!]',
    zonesToDelete: '[ID!]',
  },
  DeliveryProfileLocationGroupInput: {
    id: 'ID',
    locations: '[ID!]',
    locationsToAdd: '[ID!]',
    locationsToRemove: '[ID!]',
    zonesToCreate: '[DeliveryLocationGroupZoneInput!]',
    zonesToUpdate: '[DeliveryLocationGroupZoneInput!]',
  },
  DeliveryLocationGroupZoneInput: {
    countries: '[DeliveryCountryInput!]',
    id: 'ID',
    methodDefinitionsToCreate: '[DeliveryMethodDefinitionInput!]',
    methodDefinitionsToUpdate: '[DeliveryMethodDefinitionInput!]',
    name: 'String',
  },
  DeliveryCountryInput: {
    code: 'CountryCode',
    includeAllProvinces: 'Boolean',
    provinces: '[DeliveryProvinceInput!]',
    restOfWorld: 'Boolean',
  },
  DeliveryProvinceInput: { code: 'String!' },
  DeliveryMethodDefinitionInput: {
    active: 'Boolean',
    conditionsToUpdate: '[DeliveryUpdateConditionInput!]',
    description: 'String',
    id: 'ID',
    name: 'String',
    participant: 'DeliveryParticipantInput',
    priceConditionsToCreate: '[DeliveryPriceConditionInput!]',
    rateDefinition: 'DeliveryRateDefinitionInput',
    weightConditionsToCreate: '[DeliveryWeightConditionInput!]',
  },
  DeliveryParticipantInput: {
    adaptToNewServices: 'Boolean',
    carrierServiceId: 'ID',
    fixedFee: 'MoneyInput',
    id: 'ID',
    participantServices: '[DeliveryParticipantServiceInput!]',
    percentageOfRateFee: 'Float',
  },
  DeliveryParticipantServiceInput: { active: 'Boolean!', name: 'String!' },
  DeliveryRateDefinitionInput: { id: 'ID', price: 'MoneyInput!' },
  MoneyInput: MONEY_INPUT,
  DeliveryPriceConditionInput: { criteria: 'MoneyInput', operator: 'DeliveryConditionOperator' },
  DeliveryWeightConditionInput: { criteria: 'WeightInput', operator: 'DeliveryConditionOperator' },
  WeightInput: { unit: 'WeightUnit!', value: 'Float!' },
  DeliveryUpdateConditionInput: {
    criteria: 'Float',
    criteriaUnit: 'String',
    field: 'DeliveryConditionField',
    id: 'ID!',
    operator: 'DeliveryConditionOperator',
  },
};

const OBJECTS: Record<string, TypeDef> = {
  QueryRoot: {
    fields: {
      products: connection('Product', {
        query: 'String',
        sortKey: 'ProductSortKeys',
        savedSearchId: 'ID',
      }),
      product: object('Product', { id: 'ID!' }),
      nodes: { kind: 'list', type: 'Node', args: { ids: '[ID!]!' }, sizeArg: 'ids' },
      shop: object('Shop'),
      carrierServices: connection('DeliveryCarrierService', {
        query: 'String',
        sortKey: 'CarrierServiceSortKeys',
      }),
      carrierService: object('DeliveryCarrierService', { id: 'ID!' }),
      deliveryProfiles: connection('DeliveryProfile', { merchantOwnedOnly: 'Boolean' }),
      deliveryProfile: object('DeliveryProfile', { id: 'ID!' }),
      bulkOperation: object('BulkOperation', { id: 'ID!' }),
      // The shop's distinct values, for the rule editor's pickers (StringConnection).
      productVendors: connection('String'),
      productTypes: connection('String'),
      productTags: connection('String'),
    },
  },
  Mutation: {
    fields: {
      carrierServiceCreate: object('CarrierServiceCreatePayload', {
        input: 'DeliveryCarrierServiceCreateInput!',
      }),
      carrierServiceUpdate: object('CarrierServiceUpdatePayload', {
        input: 'DeliveryCarrierServiceUpdateInput!',
      }),
      carrierServiceDelete: object('CarrierServiceDeletePayload', { id: 'ID!' }),
      deliveryProfileUpdate: object('DeliveryProfileUpdatePayload', {
        id: 'ID!',
        profile: 'DeliveryProfileInput!',
      }),
      bulkOperationRunQuery: object('BulkOperationRunQueryPayload', {
        query: 'String!',
        groupObjects: 'Boolean!',
      }),
    },
  },
  /** A bulk query's progress and, once COMPLETED, its JSONL file (bulk-operations.ts). */
  BulkOperation: {
    fields: {
      id: scalar('ID'),
      status: scalar('BulkOperationStatus'),
      errorCode: scalar('BulkOperationErrorCode'),
      createdAt: scalar('DateTime'),
      completedAt: scalar('DateTime'),
      objectCount: scalar('UnsignedInt64'),
      rootObjectCount: scalar('UnsignedInt64'),
      fileSize: scalar('UnsignedInt64'),
      url: scalar('URL'),
      partialDataUrl: scalar('URL'),
      query: scalar('String'),
      type: scalar('BulkOperationType'),
    },
  },
  BulkOperationRunQueryPayload: {
    fields: {
      bulkOperation: object('BulkOperation'),
      userErrors: { kind: 'list', type: 'BulkOperationUserError' },
    },
  },
  BulkOperationUserError: {
    fields: { ...USER_ERROR, code: scalar('BulkOperationUserErrorCode') },
  },
  Node: {
    fields: { id: scalar('ID') },
    possibleTypes: ['Product', 'ProductVariant', 'DeliveryCarrierService', 'Shop', 'MediaImage'],
  },
  Shop: {
    fields: {
      id: scalar('ID'),
      name: scalar('String'),
      myshopifyDomain: scalar('String'),
      email: scalar('String'),
      currencyCode: scalar('CurrencyCode'),
      /** The shop's default weight unit (GRAMS, KILOGRAMS, OUNCES or POUNDS). */
      weightUnit: scalar('WeightUnit'),
      ianaTimezone: scalar('String'),
      currencyFormats: object('CurrencyFormats'),
    },
  },
  CurrencyFormats: {
    fields: {
      moneyFormat: scalar('FormattedString'),
      moneyInEmailsFormat: scalar('String'),
      moneyWithCurrencyFormat: scalar('FormattedString'),
      moneyWithCurrencyInEmailsFormat: scalar('String'),
    },
  },
  Product: {
    fields: {
      id: scalar('ID'),
      legacyResourceId: scalar('UnsignedInt64'),
      title: scalar('String'),
      handle: scalar('String'),
      vendor: scalar('String'),
      productType: scalar('String'),
      // [String!]! at Shopify: a scalar's list passes through whole.
      tags: scalar('String'),
      updatedAt: scalar('DateTime'),
      status: scalar('ProductStatus'),
      featuredMedia: object('Media'),
      variants: connection('ProductVariant', { sortKey: 'ProductVariantSortKeys' }),
      variantsCount: object('Count'),
    },
  },
  ProductVariant: {
    fields: {
      id: scalar('ID'),
      title: scalar('String'),
      displayName: scalar('String'),
      sku: scalar('String'),
      price: scalar('Money'),
      inventoryItem: object('InventoryItem'),
    },
  },
  InventoryItem: { fields: { id: scalar('ID'), measurement: object('InventoryItemMeasurement') } },
  InventoryItemMeasurement: { fields: { id: scalar('ID'), weight: object('Weight') } },
  Weight: { fields: { value: scalar('Float'), unit: scalar('WeightUnit') } },
  Count: { fields: { count: scalar('Int'), precision: scalar('CountPrecision') } },
  Media: {
    fields: {
      id: scalar('ID'),
      alt: scalar('String'),
      mediaContentType: scalar('MediaContentType'),
      preview: object('MediaPreviewImage'),
    },
    possibleTypes: ['MediaImage'],
  },
  MediaImage: {
    fields: {
      id: scalar('ID'),
      alt: scalar('String'),
      mediaContentType: scalar('MediaContentType'),
      preview: object('MediaPreviewImage'),
      image: object('Image'),
    },
  },
  MediaPreviewImage: {
    fields: { image: object('Image'), status: scalar('MediaPreviewImageStatus') },
  },
  Image: {
    fields: {
      id: scalar('ID'),
      url: scalar('URL', { transform: 'ImageTransformInput' }),
      altText: scalar('String'),
      width: scalar('Int'),
      height: scalar('Int'),
    },
  },
  DeliveryCarrierService: {
    fields: {
      id: scalar('ID'),
      name: scalar('String'),
      formattedName: scalar('String'),
      callbackUrl: scalar('URL'),
      active: scalar('Boolean'),
      supportsServiceDiscovery: scalar('Boolean'),
    },
  },
  CarrierServiceCreatePayload: {
    fields: {
      carrierService: object('DeliveryCarrierService'),
      userErrors: { kind: 'list', type: 'CarrierServiceCreateUserError' },
    },
  },
  CarrierServiceUpdatePayload: {
    fields: {
      carrierService: object('DeliveryCarrierService'),
      userErrors: { kind: 'list', type: 'CarrierServiceUpdateUserError' },
    },
  },
  CarrierServiceDeletePayload: {
    fields: {
      deletedId: scalar('ID'),
      userErrors: { kind: 'list', type: 'CarrierServiceDeleteUserError' },
    },
  },
  CarrierServiceCreateUserError: { fields: USER_ERROR },
  CarrierServiceUpdateUserError: { fields: USER_ERROR },
  CarrierServiceDeleteUserError: { fields: USER_ERROR },
  ...DELIVERY_OBJECTS,
  PageInfo: {
    fields: {
      hasNextPage: scalar('Boolean'),
      hasPreviousPage: scalar('Boolean'),
      startCursor: scalar('String'),
      endCursor: scalar('String'),
    },
  },
};

/**
 * The carrier-service mutations' user errors: at Shopify each `code` is an
 * enum of its own (`CarrierServiceCreateUserErrorCode`, …), not a String
 * (published-schema/admin-2026-10.graphql).
 */
const CARRIER_SERVICE_USER_ERRORS: Record<string, TypeDef> = Object.fromEntries(
  ['Create', 'Update', 'Delete'].map((op) => [
    `CarrierService${op}UserError`,
    { fields: { ...USER_ERROR, code: scalar(`CarrierService${op}UserErrorCode`) } },
  ]),
);

/** `Product` → `ProductConnection` and `ProductEdge`, as Shopify names them. */
function withConnections(types: Record<string, TypeDef>): Record<string, TypeDef> {
  const all = { ...types };
  for (const type of Object.values(types))
    for (const field of Object.values(type.fields)) {
      if (field.kind !== 'connection') continue;
      if (field.type === 'String') {
        // A connection of strings: its nodes are values, not objects.
        all.StringConnection = {
          connection: true,
          fields: {
            edges: { kind: 'list', type: 'StringEdge' },
            nodes: scalar('String'),
            pageInfo: { kind: 'object', type: 'PageInfo', free: true },
          },
        };
        all.StringEdge = { fields: { cursor: scalar('String'), node: scalar('String') } };
        continue;
      }
      all[`${field.type}Connection`] = {
        connection: true,
        fields: {
          // An edge and its node are one item of the page: charged once, as the edge.
          edges: { kind: 'list', type: `${field.type}Edge` },
          nodes: { kind: 'list', type: field.type },
          pageInfo: { kind: 'object', type: 'PageInfo', free: true },
        },
      };
      all[`${field.type}Edge`] = {
        fields: {
          cursor: scalar('String'),
          node: { kind: 'object', type: field.type, free: true },
        },
      };
    }
  return all;
}

export const ADMIN_SCHEMA: Schema = {
  query: 'QueryRoot',
  mutation: 'Mutation',
  types: withConnections({ ...OBJECTS, ...CARRIER_SERVICE_USER_ERRORS }),
  inputs: {
    DeliveryCarrierServiceCreateInput: {
      name: 'String!',
      callbackUrl: 'URL!',
      active: 'Boolean!',
      supportsServiceDiscovery: 'Boolean!',
    },
    DeliveryCarrierServiceUpdateInput: {
      id: 'ID!',
      name: 'String',
      callbackUrl: 'URL',
      active: 'Boolean',
      supportsServiceDiscovery: 'Boolean',
    },
    ...DELIVERY_INPUTS,
    ImageTransformInput: {
      maxWidth: 'Int',
      maxHeight: 'Int',
      crop: 'CropRegion',
      scale: 'Int',
      preferredContentType: 'ImageContentType',
    },
  },
  leafTypes: new Set([
    'Int',
    'Float',
    'String',
    'ID',
    'Boolean',
    'URL',
    'DateTime',
    'UnsignedInt64',
    'BulkOperationStatus',
    'BulkOperationErrorCode',
    'BulkOperationUserErrorCode',
    'BulkOperationType',
    'ProductSortKeys',
    'ProductVariantSortKeys',
    'CarrierServiceSortKeys',
    'CropRegion',
    'ImageContentType',
    'WeightUnit',
    'Decimal',
    'CountryCode',
    'CurrencyCode',
    'DeliveryConditionField',
    'DeliveryConditionOperator',
    'DeliveryMethodDefinitionType',
    'MethodDefinitionSortKeys',
  ]),
};

/** The type a connection field's nodes are, for a connection type's name. */
export function connectionFieldType(field: FieldDef): string {
  return field.kind === 'connection' ? `${field.type}Connection` : field.type;
}
