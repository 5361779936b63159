import { z } from 'zod';
import type { GidCounter } from './delivery-defaults';
import type { DeliveryProfile, MethodDefinition } from './delivery-rates';

/**
 * Delivery profiles as JSON, in and out: a test (or the HTTP control) loads
 * a shop's profiles shaped like the `deliveryProfiles` answer (`{nodes}`,
 * `{edges}` or plain arrays for each connection, extra fields ignored, ids
 * optional), and reads them back in the same shape.
 */

const MAX_ITEMS = 250;

/** A connection as Shopify answers it (`nodes` or `edges`) or a plain array. */
const list = <T extends z.ZodType>(item: T) =>
  z
    .union([
      z.array(item).max(MAX_ITEMS),
      z.object({ nodes: z.array(item).max(MAX_ITEMS) }),
      z.object({ edges: z.array(z.object({ node: item })).max(MAX_ITEMS) }),
    ])
    .transform((v): z.output<T>[] => {
      if (Array.isArray(v)) return v as z.output<T>[];
      if ('nodes' in v) return v.nodes as z.output<T>[];
      return (v.edges as { node: z.output<T> }[]).map((e) => e.node);
    });

const gid = (kind: string) =>
  z
    .string()
    .regex(new RegExp(`^gid://shopify/${kind}/\\d+$`), `expected a gid://shopify/${kind}/<number>`)
    .optional();

const amount = z
  .union([z.string().regex(/^\d+(\.\d+)?$/), z.number().nonnegative()])
  .transform((v) => (typeof v === 'number' ? v.toFixed(2) : v));
const money = z.object({ amount, currencyCode: z.string().regex(/^[A-Z]{3}$/) });
const weightUnit = z.enum(['GRAMS', 'KILOGRAMS', 'OUNCES', 'POUNDS']);

const condition = z.object({
  id: gid('DeliveryCondition'),
  field: z.enum(['TOTAL_PRICE', 'TOTAL_WEIGHT']),
  operator: z.enum(['GREATER_THAN_OR_EQUAL_TO', 'LESS_THAN_OR_EQUAL_TO']),
  conditionCriteria: z.union([
    money.extend({ __typename: z.literal('MoneyV2').optional() }),
    z.object({
      __typename: z.literal('Weight').optional(),
      value: z.number().nonnegative(),
      unit: weightUnit,
    }),
  ]),
});

const rateDefinition = z.object({
  __typename: z.literal('DeliveryRateDefinition').optional(),
  id: gid('DeliveryRateDefinition'),
  price: money,
});

const participant = z.object({
  __typename: z.literal('DeliveryParticipant').optional(),
  id: gid('DeliveryParticipant'),
  carrierService: z.object({
    id: z.string().regex(/^gid:\/\/shopify\/DeliveryCarrierService\/\d+$/),
  }),
  adaptToNewServicesFlag: z.boolean().default(false),
  fixedFee: money.nullable().default(null),
  percentageOfRateFee: z.number().min(0).default(0),
  participantServices: z
    .array(z.object({ name: z.string().max(200), active: z.boolean() }))
    .max(MAX_ITEMS)
    .default([]),
});

const methodDefinition = z.object({
  id: gid('DeliveryMethodDefinition'),
  name: z.string().min(1).max(200),
  active: z.boolean(),
  description: z.string().max(1000).nullable().default(null),
  rateProvider: z.union([rateDefinition, participant]),
  methodConditions: z.array(condition).max(MAX_ITEMS).default([]),
});

const province = z.object({
  id: gid('DeliveryProvince'),
  code: z.string().min(1).max(10),
  name: z.string().max(200),
});

const country = z.object({
  id: gid('DeliveryCountry'),
  name: z.string().max(200),
  code: z.union([
    z.object({ countryCode: z.string().regex(/^[A-Z]{2}$/), restOfWorld: z.literal(false) }),
    z.object({ countryCode: z.null().optional(), restOfWorld: z.literal(true) }),
  ]),
  provinces: z.array(province).max(MAX_ITEMS).default([]),
});

const profile = z.object({
  id: gid('DeliveryProfile'),
  name: z.string().min(1).max(200),
  default: z.boolean(),
  profileLocationGroups: z
    .array(
      z.object({
        locationGroup: z.object({ id: gid('DeliveryLocationGroup') }),
        locationGroupZones: list(
          z.object({
            zone: z.object({
              id: gid('DeliveryZone'),
              name: z.string().min(1).max(200),
              countries: z.array(country).max(MAX_ITEMS),
            }),
            methodDefinitions: list(methodDefinition),
          }),
        ),
      }),
    )
    .min(1)
    .max(20),
});

/** The body of a load: the profiles' connection (or an array), or a whole `{data: {deliveryProfiles}}` answer. */
export const deliveryProfilesJson = z
  .union([
    z.object({ data: z.object({ deliveryProfiles: list(profile) }) }),
    z.object({ deliveryProfiles: list(profile) }),
    list(profile),
  ])
  .transform((v) =>
    'data' in v ? v.data.deliveryProfiles : 'deliveryProfiles' in v ? v.deliveryProfiles : v,
  )
  .refine((profiles) => profiles.filter((p) => p.default).length === 1, {
    message: 'exactly one profile must be the default (General) profile',
  });

/** Parsed profiles with every missing id given one; throws a zod error for a bad shape. */
export function parseDeliveryProfiles(json: unknown, ids: GidCounter): DeliveryProfile[] {
  const parsed = deliveryProfilesJson.parse(json);
  return parsed.map((p) => ({
    id: p.id ?? ids.id('DeliveryProfile'),
    name: p.name,
    default: p.default,
    profileLocationGroups: p.profileLocationGroups.map((g) => ({
      locationGroup: { id: g.locationGroup.id ?? ids.id('DeliveryLocationGroup') },
      locationGroupZones: g.locationGroupZones.map((lgz) => ({
        zone: {
          id: lgz.zone.id ?? ids.id('DeliveryZone'),
          name: lgz.zone.name,
          countries: lgz.zone.countries.map((c) => ({
            id: c.id ?? ids.id('DeliveryCountry'),
            name: c.name,
            code: c.code.restOfWorld
              ? { countryCode: null, restOfWorld: true }
              : { countryCode: c.code.countryCode, restOfWorld: false },
            provinces: c.provinces.map((pr) => ({
              id: pr.id ?? ids.id('DeliveryProvince'),
              code: pr.code,
              name: pr.name,
            })),
          })),
        },
        methodDefinitions: lgz.methodDefinitions.map((m): MethodDefinition => {
          const rp = m.rateProvider;
          return {
            id: m.id ?? ids.id('DeliveryMethodDefinition'),
            name: m.name,
            active: m.active,
            description: m.description,
            rateProvider:
              'price' in rp
                ? {
                    __typename: 'DeliveryRateDefinition',
                    id: rp.id ?? ids.id('DeliveryRateDefinition'),
                    price: rp.price,
                  }
                : {
                    __typename: 'DeliveryParticipant',
                    id: rp.id ?? ids.id('DeliveryParticipant'),
                    carrierService: { id: rp.carrierService.id },
                    adaptToNewServicesFlag: rp.adaptToNewServicesFlag,
                    fixedFee: rp.fixedFee,
                    percentageOfRateFee: rp.percentageOfRateFee,
                    participantServices: rp.participantServices,
                  },
            methodConditions: m.methodConditions.map((c) => ({
              id: c.id ?? ids.id('DeliveryCondition'),
              field: c.field,
              operator: c.operator,
              conditionCriteria:
                'amount' in c.conditionCriteria
                  ? {
                      __typename: 'MoneyV2',
                      amount: c.conditionCriteria.amount,
                      currencyCode: c.conditionCriteria.currencyCode,
                    }
                  : {
                      __typename: 'Weight',
                      value: c.conditionCriteria.value,
                      unit: c.conditionCriteria.unit,
                    },
            })),
          };
        }),
      })),
    })),
  }));
}

/** Profiles in the `deliveryProfiles` answer's shape (connections as `{nodes}`), ready to load again. */
export function deliveryProfilesAnswer(profiles: DeliveryProfile[]): { nodes: unknown[] } {
  return {
    nodes: profiles.map((p) => ({
      ...p,
      profileLocationGroups: p.profileLocationGroups.map((g) => ({
        locationGroup: g.locationGroup,
        locationGroupZones: {
          nodes: g.locationGroupZones.map((z) => ({
            zone: z.zone,
            methodDefinitions: { nodes: z.methodDefinitions },
          })),
        },
      })),
    })),
  };
}
