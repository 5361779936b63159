import {
  asNumber,
  fieldByKey,
  FIELDS,
  LIMITS,
  NO_OVERRIDE,
  type DraftGroup,
  type DraftValue,
  type FieldDefinition,
  normaliseCountry,
  normaliseRegion,
  type DraftWeight,
  type FilterDraft,
  isListOperator,
  type ValueKind,
} from '@ratesmith/contracts/filters';

/**
 * Filters in two forms:
 * - the wire JSON that `GET /api/global-rules/rules` returns and
 *   `POST /api/global-rules/update/{id}` takes (`FilterDraft` of @ratesmith/contracts/filters);
 * - the editor's state, where every typed number stays the text the merchant
 *   typed ("4." while typing) until it is sent.
 */

export type CountAmount = { count: string; amount: string };
/** A weight as typed: the amount stays text, the unit is g, kg, lb or oz. */
export type WeightValue = { amount: string; unit: string };
/** The bounds of a postal code's `between`, as typed. */
export type PostalRange = { from: string; to: string };
/** A list operator's values, as typed. */
export type ConditionValue = string | CountAmount | WeightValue | PostalRange | string[];

/** The weight unit of a new weight when the shop's is not known (Shopify's default too). */
export const DEFAULT_WEIGHT_UNIT = 'kg';

export interface EditorCondition {
  id: string;
  type: 'condition';
  field: string;
  operator: string;
  value: ConditionValue;
}

export type Combinator = 'AND' | 'OR';

export interface EditorGroup {
  id: string;
  type: 'group';
  condition: Combinator;
  rules: EditorNode[];
}

export type EditorNode = EditorCondition | EditorGroup;

export interface EditorFilter {
  id: string;
  name: string;
  raw_query: EditorGroup;
  action_type: number;
  action_data: string;
  rule_product_limit_amount: string;
  global_rule_action: number;
  is_shipping_overridden: 'Yes' | 'No';
  shipping_name: string;
  shipping_description: string;
  bump_shipping_name: string;
  bump_shipping_description: string;
  post_processing_action_type: number;
  /** Action 6's weight step. */
  action_weight_step: WeightValue;
  /** The override's delivery window in business days, as typed; both blank: none. */
  delivery_min_days: string;
  delivery_max_days: string;
}

let counter = 0;
/** Ids the server keeps ([A-Za-z0-9_-], at most 64) and React uses as keys. */
export function newId(prefix: string): string {
  counter += 1;
  const random = Math.random().toString(36).slice(2, 10);
  return `${prefix}-${Date.now().toString(36)}-${counter}-${random}`;
}

/** A new filter: an empty AND group, action 0, override No, post-processing 0 (docs/filters.md). */
export function newFilter(): EditorFilter {
  return {
    id: newId('f'),
    name: '',
    raw_query: { id: newId('g'), type: 'group', condition: 'AND', rules: [] },
    action_type: 0,
    action_data: '',
    rule_product_limit_amount: '',
    global_rule_action: 0,
    ...NO_OVERRIDE,
    post_processing_action_type: 0,
    action_weight_step: { amount: '', unit: weightUnit },
    delivery_min_days: '',
    delivery_max_days: '',
  };
}

/** The unit new weights start in: the shop's (setWeightUnit), else DEFAULT_WEIGHT_UNIT. */
let weightUnit = DEFAULT_WEIGHT_UNIT;
export function setWeightUnit(unit: string): void {
  weightUnit = ['g', 'kg', 'lb', 'oz'].includes(unit) ? unit : DEFAULT_WEIGHT_UNIT;
}
export const currentWeightUnit = () => weightUnit;

/**
 * How the editor holds a value of each kind while it is typed, one entry a
 * kind (a kind added to the language is a type error here until it has one):
 * its value with nothing typed, read from the wire, and typed text sent back.
 * A value held as an object (a pair, a weight, a postal range) goes back by
 * its shape (objectToWire); only text needs its kind.
 */
interface ValueForm {
  empty(operator: string): ConditionValue;
  fromWire(value: DraftValue, operator: string): ConditionValue;
  textToWire(text: string): DraftValue;
}

const text = (value: number | string | null | undefined): string =>
  value === null || value === undefined ? '' : String(value);

/** One property of an object value as text ('' when the value is no object). */
const partOf = (value: DraftValue, key: string): string => {
  const object = value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  return text(object?.[key] as number | string | null | undefined);
};

/** A value held as plain text: an object from the wire (another kind's) starts blank. */
const plainFromWire = (value: DraftValue): ConditionValue =>
  value && typeof value === 'object' ? '' : text(value as number | string | null);

/** A list operator's values from the wire; anything else starts an empty list. */
const listFromWire = (value: DraftValue): string[] =>
  Array.isArray(value) ? value.map((v) => text(v)) : [];

/** A place (a country, a region) holds one code, or a list under a list operator. */
const placeForm = (normalise: (value: string) => string | undefined): ValueForm => ({
  empty: (operator) => (isListOperator(operator) ? [] : ''),
  fromWire: (value, operator) =>
    isListOperator(operator) ? listFromWire(value) : plainFromWire(value),
  textToWire: codeToWire(normalise),
});

/** A code: blank is null; one that is not a code goes as typed, for the shared validation to refuse. */
const codeToWire =
  (normalise: (value: string) => string | undefined) =>
  (value: string): DraftValue =>
    value.trim() === '' ? null : (normalise(value) ?? value.trim());

const numberForm: ValueForm = {
  empty: () => '',
  fromWire: plainFromWire,
  textToWire: numberToWire,
};

const VALUE_FORMS: Record<ValueKind, ValueForm> = {
  country: placeForm(normaliseCountry),
  region: placeForm(normaliseRegion),
  postal_code: {
    // A `between` holds two bounds, a list operator its values.
    empty: (operator) =>
      operator === 'between' ? { from: '', to: '' } : isListOperator(operator) ? [] : '',
    fromWire: (value, operator) =>
      operator === 'between'
        ? { from: partOf(value, 'from'), to: partOf(value, 'to') }
        : isListOperator(operator)
          ? listFromWire(value)
          : plainFromWire(value),
    textToWire: (value) => (value.trim() === '' ? null : value.trim()),
  },
  amount: numberForm,
  count: numberForm,
  count_amount: {
    empty: () => ({ count: '', amount: '' }),
    fromWire: (value) => ({ count: partOf(value, 'count'), amount: partOf(value, 'amount') }),
    textToWire: numberToWire,
  },
  weight: {
    empty: () => ({ amount: '', unit: weightUnit }),
    fromWire: (value) => ({
      amount: partOf(value, 'amount'),
      unit: partOf(value, 'unit') || weightUnit,
    }),
    textToWire: numberToWire,
  },
  // A product text goes as typed; the shared validation trims it.
  item_text: {
    empty: () => '',
    fromWire: plainFromWire,
    textToWire: (value) => (value.trim() === '' ? null : value),
  },
};

/** The form of a field's kind; a field the catalogue does not know is held as plain text. */
const formOf = (field: FieldDefinition | undefined): ValueForm =>
  field ? VALUE_FORMS[field.kind] : numberForm;

/** A value of the field's kind with nothing typed (a postal `between` holds two bounds). */
export function emptyValue(field: FieldDefinition | undefined, operator = ''): ConditionValue {
  return formOf(field).empty(operator);
}

export function newCondition(): EditorCondition {
  const field = FIELDS[0]!;
  return {
    id: newId('c'),
    type: 'condition',
    field: field.key,
    operator: field.operators[0]!,
    value: emptyValue(field),
  };
}

export function newGroup(): EditorGroup {
  return { id: newId('g'), type: 'group', condition: 'AND', rules: [newCondition()] };
}

function valueFromWire(field: string, operator: string, value: DraftValue): ConditionValue {
  return formOf(fieldByKey(field)).fromWire(value, operator);
}

function groupFromWire(group: DraftGroup | undefined, ids: Set<string>): EditorGroup {
  return {
    id: uniqueId(group?.id, 'g', ids),
    type: 'group',
    condition: group?.condition?.toUpperCase() === 'OR' ? 'OR' : 'AND',
    rules: (group?.rules ?? []).map((rule) =>
      rule.type === 'condition'
        ? {
            id: uniqueId(rule.id, 'c', ids),
            type: 'condition',
            field: rule.field,
            operator: rule.operator,
            value: valueFromWire(rule.field, rule.operator, rule.value),
          }
        : groupFromWire(rule, ids),
    ),
  };
}

/** React keys must be unique in the tree; old data may carry blank or repeated ids. */
function uniqueId(id: string | undefined, prefix: string, seen: Set<string>): string {
  const kept = id && !seen.has(id) ? id : newId(prefix);
  seen.add(kept);
  return kept;
}

export function filterFromWire(filter: FilterDraft): EditorFilter {
  return {
    id: filter.id || newId('f'),
    name: filter.name ?? '',
    raw_query: groupFromWire(filter.raw_query, new Set()),
    action_type: filter.action_type ?? 0,
    action_data: text(filter.action_data),
    rule_product_limit_amount: text(filter.rule_product_limit_amount),
    global_rule_action: filter.global_rule_action === 1 ? 1 : 0,
    is_shipping_overridden: filter.is_shipping_overridden === 'Yes' ? 'Yes' : 'No',
    shipping_name: filter.shipping_name ?? '',
    shipping_description: filter.shipping_description ?? '',
    bump_shipping_name: filter.bump_shipping_name ?? '',
    bump_shipping_description: filter.bump_shipping_description ?? '',
    post_processing_action_type: filter.post_processing_action_type === 1 ? 1 : 0,
    action_weight_step: {
      amount: text(filter.action_weight_step?.amount),
      unit: filter.action_weight_step?.unit || weightUnit,
    },
    delivery_min_days: text(filter.delivery_min_days),
    delivery_max_days: text(filter.delivery_max_days),
  };
}

/** Blank becomes null, a plain decimal a number; anything else goes as typed for the server to refuse. */
function numberToWire(value: string): number | string | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  return asNumber(trimmed) as number | string;
}

function weightToWire(value: WeightValue): DraftWeight {
  return { amount: numberToWire(value.amount) as number | null, unit: value.unit };
}

/** A value held as an object goes by its shape: a list, a count and amount, a weight, or a postal range. */
function objectToWire(value: Exclude<ConditionValue, string>): DraftValue {
  if (Array.isArray(value)) return value.map((v) => v.trim()).filter(Boolean);
  if ('count' in value) {
    return {
      count: numberToWire(value.count) as number | null,
      amount: numberToWire(value.amount) as number | null,
    };
  }
  if ('unit' in value) return weightToWire(value);
  return { from: value.from.trim(), to: value.to.trim() };
}

/** A condition's value as Save All sends it (numbers read, lists trimmed). */
export function valueToWire(value: ConditionValue, field: string): DraftValue {
  if (typeof value === 'object') return objectToWire(value);
  return formOf(fieldByKey(field)).textToWire(value);
}

function groupToWire(group: EditorGroup): DraftGroup {
  return {
    id: group.id,
    type: 'group',
    condition: group.condition,
    rules: group.rules.map((rule) =>
      rule.type === 'group'
        ? groupToWire(rule)
        : {
            id: rule.id,
            type: 'condition',
            field: rule.field,
            operator: rule.operator,
            value: valueToWire(rule.value, rule.field),
          },
    ),
  };
}

export function filterToWire(filter: EditorFilter): FilterDraft {
  return {
    id: filter.id,
    name: filter.name,
    raw_query: groupToWire(filter.raw_query),
    action_type: filter.action_type,
    action_data: numberToWire(filter.action_data) as number | null,
    rule_product_limit_amount: numberToWire(filter.rule_product_limit_amount) as number | null,
    global_rule_action: filter.global_rule_action,
    is_shipping_overridden: filter.is_shipping_overridden,
    shipping_name: filter.shipping_name,
    shipping_description: filter.shipping_description,
    bump_shipping_name: filter.bump_shipping_name,
    bump_shipping_description: filter.bump_shipping_description,
    post_processing_action_type: filter.post_processing_action_type,
    // Sent for action 6 only: other actions ignore it, and drafts stay as they were.
    ...(filter.action_type === 6
      ? { action_weight_step: weightToWire(filter.action_weight_step) }
      : {}),
    // Sent once either day is typed: a filter without a window goes as it always did.
    ...(filter.delivery_min_days.trim() || filter.delivery_max_days.trim()
      ? {
          delivery_min_days: numberToWire(filter.delivery_min_days),
          delivery_max_days: numberToWire(filter.delivery_max_days),
        }
      : {}),
  };
}

/** What a copy is called: "<name> (copy)", cut so it stays within the name's length limit. */
export function copyName(name: string, number: number): string {
  const suffix = ' (copy)';
  const base = name.trim() || `Rule #${number}`;
  return `${base.slice(0, LIMITS.filterName - suffix.length).trimEnd()}${suffix}`;
}

function copyGroup(group: EditorGroup): EditorGroup {
  return {
    ...group,
    id: newId('g'),
    rules: group.rules.map((rule) =>
      rule.type === 'group'
        ? copyGroup(rule)
        : {
            ...rule,
            id: newId('c'),
            value: typeof rule.value === 'object' ? { ...rule.value } : rule.value,
          },
    ),
  };
}

/** A copy of the filter at position `number` (1-based) with new ids throughout and its copy name. */
export function duplicateFilter(filter: EditorFilter, number: number): EditorFilter {
  return {
    ...filter,
    id: newId('f'),
    name: copyName(filter.name, number),
    raw_query: copyGroup(filter.raw_query),
  };
}
