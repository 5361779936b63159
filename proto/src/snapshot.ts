import { z } from 'zod';
import { isLineId } from './cart/line';
import { DEFAULT_CALENDAR } from './delivery/calendar';
import { ACTION_TYPES } from './filters/catalogue';
import { nativeLocationGroupSchema } from './native-rates/import';
import { WEIGHT_UNITS } from './filters/limits';
import type { ValueKind } from './filters/value-kinds';

/**
 * The per-shop snapshot the rules service writes to the NATS KV bucket and
 * every rate-engine replica keeps in memory (docs/rates.md).
 * It is JSON, not protobuf: its shape is the one docs/rates.md describes, and the rate engine
 * compiles it once per version.
 */

/** A weight `{ amount, unit }` (docs/rates.md); grams come from weightToGrams. */
export const weightSchema = z.object({ amount: z.number(), unit: z.enum(WEIGHT_UNITS) });

/**
 * A condition value's JSON shape, by value kind (filters/value-kinds.ts): the
 * shape only, its bounds are the kind's check. A kind added there is a type
 * error here until it has its shape.
 */
const VALUE_SCHEMAS = {
  /** A code, or a list operator's codes. */
  country: z.union([z.string(), z.array(z.string())]),
  region: z.union([z.string(), z.array(z.string())]),
  /** A code, the bounds of a `between`, or a list operator's codes. */
  postal_code: z.union([
    z.string(),
    z.object({ from: z.string(), to: z.string() }),
    z.array(z.string()),
  ]),
  amount: z.number(),
  count: z.number(),
  count_amount: z.object({ count: z.number().nullable(), amount: z.number().nullable() }),
  weight: weightSchema,
  item_text: z.string(),
} satisfies Record<ValueKind, z.ZodType>;

type KindSchema = (typeof VALUE_SCHEMAS)[ValueKind];
const kindSchemas = Object.values(VALUE_SCHEMAS) as [KindSchema, ...KindSchema[]];

/** Any kind's value, or null (a condition a filter list may hold before it is complete). */
export const conditionValueSchema = z.union([...kindSchemas, z.null()]);

export interface SnapshotCondition {
  id: string;
  type: 'condition';
  field: string;
  operator: string;
  value: z.infer<typeof conditionValueSchema>;
}

export interface SnapshotGroup {
  id: string;
  type?: 'group';
  condition: 'AND' | 'OR';
  rules: (SnapshotCondition | SnapshotGroup)[];
}

const conditionSchema = z.object({
  id: z.string(),
  type: z.literal('condition'),
  field: z.string(),
  operator: z.string(),
  value: conditionValueSchema,
});

/** What a group may look like on input: a group may leave out its id. */
export type SnapshotGroupInput = Omit<SnapshotGroup, 'id' | 'rules'> & {
  id?: string;
  rules: (SnapshotCondition | SnapshotGroupInput)[];
};

export const snapshotGroupSchema: z.ZodType<SnapshotGroup, SnapshotGroupInput> = z.lazy(() =>
  z.object({
    id: z.string().default(''),
    type: z.literal('group').optional(),
    condition: z.enum(['AND', 'OR']),
    rules: z.array(z.union([conditionSchema, snapshotGroupSchema])),
  }),
);

export const snapshotFilterSchema = z.object({
  id: z.string(),
  name: z.string(),
  raw_query: snapshotGroupSchema,
  action_type: z
    .number()
    .int()
    .min(0)
    .max(ACTION_TYPES.length - 1),
  action_data: z.number().nullable(),
  rule_product_limit_amount: z.number().nullable(),
  global_rule_action: z.union([z.literal(0), z.literal(1)]),
  is_shipping_overridden: z.enum(['Yes', 'No']),
  shipping_name: z.string(),
  shipping_description: z.string(),
  bump_shipping_name: z.string(),
  bump_shipping_description: z.string(),
  post_processing_action_type: z.union([z.literal(0), z.literal(1)]),
  /** The weight step of action 6, else null (snapshots written before it have none). */
  action_weight_step: weightSchema.nullable().default(null),
  /**
   * The overriding filter's delivery window for the regular rate, in business days
   * (docs/rates.md, "Delivery dates"); null: none (snapshots written before have none).
   */
  delivery_min_days: z.number().nullable().default(null),
  delivery_max_days: z.number().nullable().default(null),
});
export type SnapshotFilter = z.infer<typeof snapshotFilterSchema>;

/**
 * One more service after the regular and bump rates (docs/rates.md, "Upgrades"):
 * priced from the regular fee as the bump is. Shape only: its bounds are
 * `upgradeProblems` (upgrades.ts) and the window's `windowProblems`.
 */
export const snapshotUpgradeSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** 1: percent on top of the regular fee, 2: static fee on top. */
  action: z.union([z.literal(1), z.literal(2)]),
  cost: z.number(),
  delivery_min_days: z.number().nullable(),
  delivery_max_days: z.number().nullable(),
});
export type SnapshotUpgrade = z.infer<typeof snapshotUpgradeSchema>;

export const snapshotSettingsSchema = z.object({
  carrier_name: z.string(),
  carrier_description: z.string(),
  bump_shipping_enabled: z.boolean(),
  bump_shipping_name: z.string(),
  bump_shipping_description: z.string(),
  bump_shipping_action: z.union([z.literal(1), z.literal(2)]).nullable(),
  bump_shipping_cost: z.number(),
  /** The rate answered when no filter matched; snapshots written before it have it off. */
  fallback_enabled: z.boolean().default(false),
  fallback_name: z.string().default(''),
  fallback_description: z.string().default(''),
  fallback_cost: z.number().default(0),
  /** Recent checkouts: on unless the merchant turned it off; snapshots written before it have the defaults. */
  recent_checkouts_enabled: z.boolean().default(true),
  recent_checkouts_per_minute: z.number().int().default(6),
  recent_checkouts_days: z.number().int().default(14),
  /**
   * The shop's delivery calendar (delivery/calendar.ts, ShopCalendar) and the
   * windows of the regular and bump rates; snapshots written before them have
   * the defaults: UTC, Monday to Friday, no holiday, no cutoff, no window.
   * Shapes only: the bounds are `calendarProblems` and `windowProblems`.
   */
  timezone: z.string().default(DEFAULT_CALENDAR.timezone),
  business_days: z.array(z.number()).default(() => [...DEFAULT_CALENDAR.business_days]),
  holidays: z.array(z.string()).default(() => []),
  cutoff_time: z.string().nullable().default(null),
  processing_days: z.number().default(DEFAULT_CALENDAR.processing_days),
  delivery_min_days: z.number().nullable().default(null),
  delivery_max_days: z.number().nullable().default(null),
  bump_delivery_min_days: z.number().nullable().default(null),
  bump_delivery_max_days: z.number().nullable().default(null),
  upgrades: z.array(snapshotUpgradeSchema).default(() => []),
});
export type SnapshotSettings = z.infer<typeof snapshotSettingsSchema>;

/** A shop that never saved its settings has these. */
export const DEFAULT_SETTINGS: SnapshotSettings = {
  carrier_name: '',
  carrier_description: '',
  bump_shipping_enabled: false,
  bump_shipping_name: '',
  bump_shipping_description: '',
  bump_shipping_action: null,
  bump_shipping_cost: 0,
  fallback_enabled: false,
  fallback_name: '',
  fallback_description: '',
  fallback_cost: 0,
  recent_checkouts_enabled: true,
  recent_checkouts_per_minute: 6,
  recent_checkouts_days: 14,
  timezone: DEFAULT_CALENDAR.timezone,
  business_days: [...DEFAULT_CALENDAR.business_days],
  holidays: [],
  cutoff_time: null,
  processing_days: DEFAULT_CALENDAR.processing_days,
  delivery_min_days: null,
  delivery_max_days: null,
  bump_delivery_min_days: null,
  bump_delivery_max_days: null,
  upgrades: [],
};

/** Shopify's own bounds on a product's tags (docs/rates.md, "Item conditions"). */
export const PRODUCT_FACT_LIMITS = { tags: 250, text: 255 } as const;

/** A product's type and tags, as Shopify holds them (one entry of the product index). */
export const productFactsSchema = z.object({
  product_type: z.string().max(PRODUCT_FACT_LIMITS.text),
  tags: z.array(z.string().max(PRODUCT_FACT_LIMITS.text)).max(PRODUCT_FACT_LIMITS.tags),
});
export type ProductFacts = z.infer<typeof productFactsSchema>;

export const snapshotSchema = z.object({
  shop: z.string(),
  /** Increases with every change of the shop's rules; a replica never replaces a newer one. */
  version: z.number().int().nonnegative(),
  /**
   * The unguessable key in the shop's carrier-callback URL (/carrier/rates/<rateKey>);
   * null until the auth service has registered the carrier service. The rate engine
   * maps a callback to its shop only through this key. Optional in input.
   */
  rateKey: z.string().nullable().default(null),
  /**
   * The W3C `traceparent` of the change that produced this snapshot, so the rate
   * engine's pickup joins the trace of the merchant's save; absent for rebuilds.
   */
  traceparent: z.string().max(128).optional(),
  settings: snapshotSettingsSchema,
  globalRuleset: z
    .object({ id: z.string(), name: z.string(), filters: z.array(snapshotFilterSchema) })
    .nullable(),
  productRules: z.array(
    z.object({
      id: z.string(),
      productId: z.string(),
      variantIds: z.array(z.string()),
      active: z.boolean(),
      filters: z.array(snapshotFilterSchema),
    }),
  ),
  /**
   * The product index: product id (decimal) -> its type and tags, only for products
   * whose type or a tag a condition of the shop names, and only those tags; a product
   * missing from it has no type and no tags. Snapshots written before it have none.
   */
  products: z
    .record(z.string().refine(isLineId, 'must be a decimal product id'), productFactsSchema)
    .default({}),
  /**
   * Shadow mode (docs/shopify.md, "Shadow mode"): the ruleset run in shadow
   * and the native rates it is compared with (the General profile's first
   * location group, read from Shopify when the shadow started). While set,
   * the callback answers no rate, so checkout shows only the native rates.
   * Absent or null: no shadow.
   */
  shadow: z
    .object({
      ruleset: z.object({
        id: z.string(),
        name: z.string(),
        filters: z.array(snapshotFilterSchema),
      }),
      native: nativeLocationGroupSchema,
      startedAt: z.string(),
    })
    .nullish(),
});
export type Snapshot = z.infer<typeof snapshotSchema>;

/** The JetStream KV bucket that holds one snapshot per shop, keyed by shop domain. */
export const SNAPSHOT_BUCKET = 'ratesmith_snapshots';
