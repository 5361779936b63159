import type { MessageInitShape } from '@bufbuild/protobuf';
import type {
  ConditionGroup,
  ConditionGroupSchema,
  ConditionValueSchema,
  Filter,
  FilterSchema,
  QueryRule,
  QueryRuleSchema,
} from './gen/ratesmith/rules/v1/rules_pb';
import type { DraftCondition, DraftGroup, DraftValue, FilterDraft } from './filters/draft';
import type { SnapshotFilter } from './snapshot';

/**
 * Filters travel as protobuf between services and as the original app's JSON
 * (`FilterDraft`, `SnapshotFilter`) at the HTTP edge, in MongoDB and in the
 * snapshot. These two functions are the only translation between them.
 */
export function filterToJson(filter: Filter): FilterDraft {
  return {
    id: filter.id,
    name: filter.name,
    raw_query: groupToJson(filter.rawQuery),
    action_type: filter.actionType,
    action_data: filter.actionData ?? null,
    rule_product_limit_amount: filter.ruleProductLimitAmount ?? null,
    global_rule_action: filter.globalRuleAction,
    is_shipping_overridden: filter.isShippingOverridden,
    shipping_name: filter.shippingName,
    shipping_description: filter.shippingDescription,
    bump_shipping_name: filter.bumpShippingName,
    bump_shipping_description: filter.bumpShippingDescription,
    post_processing_action_type: filter.postProcessingActionType,
    action_weight_step: filter.actionWeightStep
      ? { amount: filter.actionWeightStep.amount ?? null, unit: filter.actionWeightStep.unit }
      : null,
    delivery_min_days: filter.deliveryMinDays ?? null,
    delivery_max_days: filter.deliveryMaxDays ?? null,
  };
}

/** A window's days on the wire: a number, or unset (the editor may still hold text). */
function windowDaysOnWire(days: number | string | null | undefined): number | undefined {
  if (typeof days === 'number') return days;
  if (typeof days !== 'string' || days.trim() === '') return undefined;
  // Text that is no number travels as NaN, which validation refuses by name.
  return Number(days);
}

function groupToJson(group: ConditionGroup | undefined): DraftGroup {
  return {
    id: group?.id ?? '',
    type: 'group',
    condition: group?.condition ?? '',
    rules: (group?.rules ?? []).flatMap((rule) => queryRuleToJson(rule)),
  };
}

function queryRuleToJson(rule: QueryRule): (DraftCondition | DraftGroup)[] {
  const { kind } = rule;
  if (kind.case === 'group') return [groupToJson(kind.value)];
  if (kind.case !== 'condition') return [];
  const { id, field, operator, value } = kind.value;
  let json: DraftValue = null;
  const v = value?.kind;
  if (v?.case === 'text' || v?.case === 'number') json = v.value;
  if (v?.case === 'countAmount')
    json = { count: v.value.count ?? null, amount: v.value.amount ?? null };
  if (v?.case === 'weight') json = { amount: v.value.amount ?? null, unit: v.value.unit };
  if (v?.case === 'postalRange') json = { from: v.value.from, to: v.value.to };
  if (v?.case === 'textList') json = [...v.value.values];
  return [{ id, type: 'condition', field, operator, value: json }];
}

export function filterFromJson(
  filter: FilterDraft | SnapshotFilter,
): MessageInitShape<typeof FilterSchema> {
  return {
    id: filter.id,
    name: filter.name,
    rawQuery: groupFromJson(filter.raw_query),
    actionType: filter.action_type,
    actionData: filter.action_data ?? undefined,
    ruleProductLimitAmount: filter.rule_product_limit_amount ?? undefined,
    globalRuleAction: filter.global_rule_action,
    isShippingOverridden: filter.is_shipping_overridden,
    shippingName: filter.shipping_name,
    shippingDescription: filter.shipping_description,
    bumpShippingName: filter.bump_shipping_name,
    bumpShippingDescription: filter.bump_shipping_description,
    postProcessingActionType: filter.post_processing_action_type,
    actionWeightStep: filter.action_weight_step
      ? {
          amount: filter.action_weight_step.amount ?? undefined,
          unit: filter.action_weight_step.unit,
        }
      : undefined,
    deliveryMinDays: windowDaysOnWire(filter.delivery_min_days),
    deliveryMaxDays: windowDaysOnWire(filter.delivery_max_days),
  };
}

type JsonGroup = {
  id: string;
  condition: string;
  rules: (JsonGroup | DraftCondition | { type: 'condition' })[];
};

function groupFromJson(group: JsonGroup): MessageInitShape<typeof ConditionGroupSchema> {
  return {
    id: group.id,
    condition: group.condition,
    rules: group.rules.map((rule) => queryRuleFromJson(rule as JsonGroup | DraftCondition)),
  };
}

function queryRuleFromJson(
  rule: JsonGroup | DraftCondition,
): MessageInitShape<typeof QueryRuleSchema> {
  if (!('type' in rule) || rule.type !== 'condition') {
    return { kind: { case: 'group', value: groupFromJson(rule as JsonGroup) } };
  }
  return {
    kind: {
      case: 'condition',
      value: {
        id: rule.id,
        field: rule.field,
        operator: rule.operator,
        value: valueFromJson(rule.value),
      },
    },
  };
}

function valueFromJson(
  value: DraftValue,
): MessageInitShape<typeof ConditionValueSchema> | undefined {
  if (typeof value === 'string') return { kind: { case: 'text', value } };
  if (typeof value === 'number') return { kind: { case: 'number', value } };
  if (!value) return undefined;
  if (Array.isArray(value)) return { kind: { case: 'textList', value: { values: value } } };
  if ('unit' in value)
    return {
      kind: { case: 'weight', value: { amount: value.amount ?? undefined, unit: value.unit } },
    };
  if ('from' in value)
    return { kind: { case: 'postalRange', value: { from: value.from, to: value.to } } };
  return {
    kind: {
      case: 'countAmount',
      value: { count: value.count ?? undefined, amount: value.amount ?? undefined },
    },
  };
}
