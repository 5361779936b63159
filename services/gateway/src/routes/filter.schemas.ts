import type { DraftCondition, DraftGroup, FilterDraft } from '@ratesmith/contracts';
import { z } from 'zod';
import { integerField, numberField } from '../http/fields';

/**
 * The editor's filter JSON, checked for shape only. The rules service owns the
 * domain rules ("Rule #N needs a name", limits) and answers them all at once;
 * the caps here are generous bounds against abuse, not domain limits.
 */

const text = (max: number) => z.string().max(max);

const conditionSchema = z.object({
  id: text(64).optional(),
  type: z.literal('condition'),
  field: text(64),
  operator: text(32),
  value: z
    .union([
      text(200),
      z.number().finite(),
      z.object({ count: numberField(null).optional(), amount: numberField(null).optional() }),
      z.null(),
    ])
    .optional(),
});

interface GroupInput {
  id?: string;
  type?: 'group';
  condition: string;
  rules: (z.infer<typeof conditionSchema> | GroupInput)[];
}

const groupSchema: z.ZodType<GroupInput> = z.lazy(() =>
  z.object({
    id: text(64).optional(),
    type: z.literal('group').optional(),
    condition: text(8),
    rules: z.array(z.union([conditionSchema, groupSchema])).max(200),
  }),
);

export const filterSchema = z.object({
  id: text(64).optional(),
  name: text(1000).default(''),
  raw_query: groupSchema.default({ condition: 'AND', rules: [] }),
  action_type: integerField(0),
  action_data: numberField(null).optional(),
  rule_product_limit_amount: numberField(null).optional(),
  global_rule_action: integerField(0),
  is_shipping_overridden: text(8).default('No'),
  shipping_name: text(1000).default(''),
  shipping_description: text(1000).default(''),
  bump_shipping_name: text(1000).default(''),
  bump_shipping_description: text(1000).default(''),
  post_processing_action_type: integerField(0),
});

export const filtersBodySchema = z.object({
  rules: z.array(filterSchema).max(500),
});

export function toDraft(filter: z.output<typeof filterSchema>): FilterDraft {
  return {
    id: filter.id ?? '',
    name: filter.name,
    raw_query: groupToDraft(filter.raw_query),
    action_type: filter.action_type,
    action_data: filter.action_data ?? null,
    rule_product_limit_amount: filter.rule_product_limit_amount ?? null,
    global_rule_action: filter.global_rule_action,
    is_shipping_overridden: filter.is_shipping_overridden,
    shipping_name: filter.shipping_name,
    shipping_description: filter.shipping_description,
    bump_shipping_name: filter.bump_shipping_name,
    bump_shipping_description: filter.bump_shipping_description,
    post_processing_action_type: filter.post_processing_action_type,
  };
}

function groupToDraft(group: GroupInput): DraftGroup {
  return {
    id: group.id ?? '',
    type: 'group',
    condition: group.condition,
    rules: group.rules.map((rule): DraftCondition | DraftGroup =>
      'type' in rule && rule.type === 'condition'
        ? {
            id: rule.id ?? '',
            type: 'condition',
            field: rule.field,
            operator: rule.operator,
            value:
              rule.value && typeof rule.value === 'object'
                ? { count: rule.value.count ?? null, amount: rule.value.amount ?? null }
                : (rule.value ?? null),
          }
        : groupToDraft(rule as GroupInput),
    ),
  };
}
