import type { DraftGroup, FilterDraft } from '@ratesmith/contracts';
import { z } from 'zod';
import { integerField, numberField } from '../http/fields';

/**
 * The editor's filter JSON, checked for shape only. The rules service owns the
 * domain rules ("Rule #N needs a name", limits) and answers them all at once;
 * the caps here are generous bounds against abuse, not domain limits.
 */

const text = (max: number) => z.string().max(max);

/** A weight while editing: the rules service checks the unit and the bounds. */
const weightSchema = z.object({ amount: numberField(null), unit: text(8) });

const conditionSchema = z.object({
  id: text(64).default(''),
  type: z.literal('condition'),
  field: text(64),
  operator: text(32),
  value: z
    .union([
      text(200),
      z.number().finite(),
      // Before count-and-amount, whose blank-tolerant fields would take any object.
      weightSchema,
      z.object({ from: text(64), to: text(64) }),
      z.object({ count: numberField(null), amount: numberField(null) }),
      // A list operator's values; the rules service says how many it takes (500).
      z.array(text(64)).max(1000),
      z.null(),
    ])
    .default(null),
});

/** Parses straight into the draft shape the contracts translate to protobuf. */
const groupSchema: z.ZodType<DraftGroup, unknown> = z.lazy(() =>
  z.object({
    id: text(64).default(''),
    type: z.literal('group').default('group'),
    condition: text(8),
    rules: z.array(z.union([conditionSchema, groupSchema])).max(200),
  }),
);

export const filterSchema = z.object({
  id: text(64).default(''),
  name: text(1000).default(''),
  raw_query: groupSchema.default({ id: '', type: 'group', condition: 'AND', rules: [] }),
  action_type: integerField(0),
  action_data: numberField(null),
  rule_product_limit_amount: numberField(null),
  global_rule_action: integerField(0),
  is_shipping_overridden: text(8).default('No'),
  shipping_name: text(1000).default(''),
  shipping_description: text(1000).default(''),
  bump_shipping_name: text(1000).default(''),
  bump_shipping_description: text(1000).default(''),
  post_processing_action_type: integerField(0),
  action_weight_step: weightSchema.nullable().default(null),
  // The override's delivery window; blank is none. The rules service checks the days.
  delivery_min_days: numberField(null).optional(),
  delivery_max_days: numberField(null).optional(),
}) satisfies z.ZodType<FilterDraft, unknown>;

/** A bound against abuse; the rules service says "A ruleset can have at most 100 filters." */
export const filterListSchema = z.array(filterSchema).max(500);

export const filtersBodySchema = z.object({
  rules: filterListSchema,
});
