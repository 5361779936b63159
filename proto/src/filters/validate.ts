import type { DraftCondition, DraftGroup, FilterDraft } from './draft';
import { actionHasAmount, fieldByKey, isActionType, type FilterScope } from './catalogue';
import { isBlank, LIMITS, weightToGrams, type Weight } from './limits';
import {
  ADMISSIONS,
  checkValue,
  decimalCommaHint,
  valueHint,
  VALUE_KINDS,
  type Admission,
} from './value-kinds';
import { windowProblems } from '../delivery/calendar';
import type { SnapshotCondition, SnapshotFilter, SnapshotGroup } from '../snapshot';

/**
 * The one check of a filter list, with the messages merchants see (the
 * original app's, plus the limits of docs/rates.md): the rules service runs
 * it on save, the preview on a draft, the editor on every change (on what it
 * would send), so all three say the same. Every problem is reported at once;
 * the caller writes nothing unless `errors` is empty. `filters` is the
 * canonical form (trimmed, numbers as numbers, countries upper-case, ids
 * kept when well formed and unique, else new).
 */

const AMOUNT_RANGE = `must be from 0 to ${LIMITS.maxAmount.toLocaleString('en-US')} with at most 2 decimals`;

/**
 * What is checked depends on where the filters come from:
 * - `draft` (the default): what a merchant may save. Numbers may still be
 *   text, amounts have at most 2 decimals, names and texts are checked.
 * - `snapshot`: what the rate engine evaluates (docs/rates.md, section 2):
 *   numbers must be numbers, amounts are rounded to the cent, and names and
 *   texts are the merchant's business, not the engine's.
 */
export type FilterSource = 'draft' | 'snapshot';

export interface ValidationOptions {
  source?: FilterSource;
  /** Who owns the list, for the "at most N filters" message; "A ruleset" or "A product rule" by default. */
  owner?: string;
  /** How the k-th filter (from 0) is named in messages; `Rule #k+1` by default. */
  ruleLabel?(index: number): string;
}

const ADMISSION: Record<FilterSource, Admission> = ADMISSIONS;

/** A draft, or a snapshot's filter (whose groups may leave out `type`). */
export type FilterInput = FilterDraft | SnapshotFilter;
type GroupInput = DraftGroup | SnapshotGroup;
type ConditionInput = DraftCondition | SnapshotCondition;
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Keeps a client-made id when it is well formed and not used yet, else makes one. */
export function idGenerator(): (candidate: unknown) => string {
  const seen = new Set<string>();
  return (candidate) => {
    let id = typeof candidate === 'string' && ID_PATTERN.test(candidate) ? candidate : '';
    while (!id || seen.has(id)) id = `id-${crypto.randomUUID()}`;
    seen.add(id);
    return id;
  };
}

export interface FilterValidation {
  errors: string[];
  filters: SnapshotFilter[];
}

export function validateFilters(
  drafts: readonly FilterInput[],
  scope: FilterScope,
  options: ValidationOptions = {},
): FilterValidation {
  const max = scope === 'ruleset' ? LIMITS.filtersPerRuleset : LIMITS.filtersPerProductRule;
  if (drafts.length > max) {
    const owner = options.owner ?? (scope === 'ruleset' ? 'A ruleset' : 'A product rule');
    return { errors: [`${owner} can have at most ${max} rules.`], filters: [] };
  }
  const admission = ADMISSION[options.source ?? 'draft'];
  const label = options.ruleLabel ?? ((index: number) => `Rule #${index + 1}`);
  const errors: string[] = [];
  const filterId = idGenerator();
  const filters = drafts.map((draft, index) => {
    const result = validateFilter(draft, label(index), admission);
    errors.push(...result.errors);
    return { ...result.filter, id: filterId(draft.id) };
  });
  return { errors, filters };
}

function validateFilter(
  draft: FilterInput,
  rule: string,
  admission: Admission,
): { errors: string[]; filter: SnapshotFilter } {
  const errors: string[] = [];
  const name = draft.name.trim();
  if (admission.texts && !name) errors.push(`${rule} needs a name`);
  if (admission.texts && name.length > LIMITS.filterName) {
    errors.push(`${rule} name must be at most ${LIMITS.filterName} characters`);
  }

  const query = checkQuery(draft.raw_query, rule, admission);
  errors.push(...query.errors);

  const actionType = draft.action_type;
  const validAction = isActionType(actionType);
  if (!validAction) errors.push(`${rule} has an unknown action type`);

  let actionData: number | null = null;
  if (validAction && actionHasAmount(actionType)) {
    const amount = admission.number(draft.action_data);
    if (isBlank(amount)) errors.push(`${rule} needs an amount`);
    else if (!admission.isAmount(amount))
      errors.push(`${rule} amount ${decimalCommaHint(amount) ?? AMOUNT_RANGE}`);
    else actionData = amount;
  }

  let productCost: number | null = null;
  if (actionType === 4) {
    const cost = admission.number(draft.rule_product_limit_amount);
    if (isBlank(cost)) errors.push(`${rule} needs the product cost ($X)`);
    else if (!admission.isAmount(cost))
      errors.push(`${rule} product cost ${decimalCommaHint(cost) ?? AMOUNT_RANGE}`);
    else productCost = cost;
  }

  let weightStep: Weight | null = null;
  if (actionType === 6) {
    // A weight step is a weight value: the weight kind's own check.
    const step = VALUE_KINDS.weight.check(draft.action_weight_step ?? null, '', admission);
    if (step === 'incomplete') errors.push(`${rule} needs a weight step`);
    else if (step === 'invalid')
      errors.push(`${rule} weight step ${valueHint('weight', '', draft.action_weight_step)}`);
    else if (weightToGrams(step) < 1) errors.push(`${rule} weight step must be at least 1 g`);
    else weightStep = step;
  }

  const applyTo = draft.global_rule_action;
  if (applyTo !== 0 && applyTo !== 1) errors.push(`${rule} has an unknown Apply To choice`);
  const next = draft.post_processing_action_type;
  if (next !== 0 && next !== 1)
    errors.push(`${rule} must either stop or continue after it matches`);
  const overridden = draft.is_shipping_overridden || 'No';
  if (overridden !== 'Yes' && overridden !== 'No')
    errors.push(`${rule} override must be Yes or No`);

  // The override's delivery window: blank is none, as in Settings (docs/rates.md, "Delivery dates").
  const windowDay = (value: unknown) => (isBlank(value) ? null : admission.number(value));
  const minDays = windowDay(draft.delivery_min_days);
  const maxDays = windowDay(draft.delivery_max_days);
  const windowErrors = windowProblems(minDays, maxDays, `${rule} delivery window`);
  errors.push(...windowErrors);

  const texts = {
    shipping_name: 'shipping name',
    shipping_description: 'shipping description',
    bump_shipping_name: 'bump shipping name',
    bump_shipping_description: 'bump shipping description',
  } as const;
  for (const [key, label] of Object.entries(texts) as [keyof typeof texts, string][]) {
    if (admission.texts && draft[key].trim().length > LIMITS.shortText) {
      errors.push(`${rule} ${label} must be at most ${LIMITS.shortText} characters`);
    }
  }

  return {
    errors,
    filter: {
      id: draft.id,
      name,
      raw_query: query.group,
      action_type: actionType,
      action_data: actionData,
      rule_product_limit_amount: productCost,
      global_rule_action: applyTo === 1 ? 1 : 0,
      is_shipping_overridden: overridden === 'Yes' ? 'Yes' : 'No',
      shipping_name: draft.shipping_name.trim(),
      shipping_description: draft.shipping_description.trim(),
      bump_shipping_name: draft.bump_shipping_name.trim(),
      bump_shipping_description: draft.bump_shipping_description.trim(),
      post_processing_action_type: next === 1 ? 1 : 0,
      action_weight_step: weightStep,
      delivery_min_days: windowErrors.length ? null : (minDays as number | null),
      delivery_max_days: windowErrors.length ? null : (maxDays as number | null),
    },
  };
}

interface QueryWalk {
  conditions: number;
  incomplete: number;
  tooDeep: boolean;
  badCombinator: boolean;
  problems: Set<string>;
  nextId: (candidate: unknown) => string;
  admission: Admission;
}

function checkQuery(
  root: GroupInput,
  rule: string,
  admission: Admission,
): { errors: string[]; group: SnapshotGroup } {
  const walk: QueryWalk = {
    admission,
    conditions: 0,
    incomplete: 0,
    tooDeep: false,
    badCombinator: false,
    problems: new Set(),
    nextId: idGenerator(),
  };
  const group = checkGroup(root, 1, walk, rule, true);
  const errors: string[] = [];
  if (walk.incomplete > 0) errors.push(`${rule} has ${walk.incomplete} incomplete condition(s)`);
  if (walk.conditions > LIMITS.conditionsPerFilter) {
    errors.push(`${rule} has more than ${LIMITS.conditionsPerFilter} conditions`);
  }
  if (walk.tooDeep) errors.push(`${rule} nests groups more than ${LIMITS.groupDepth} deep`);
  if (walk.badCombinator) errors.push(`${rule} has a group that is neither AND nor OR`);
  errors.push(...walk.problems);
  return { errors, group };
}

function checkGroup(
  group: GroupInput,
  depth: number,
  walk: QueryWalk,
  rule: string,
  isRoot: boolean,
): SnapshotGroup {
  if (depth > LIMITS.groupDepth) walk.tooDeep = true;
  const condition = group.condition.toUpperCase();
  if (condition !== 'AND' && condition !== 'OR') walk.badCombinator = true;
  // An empty nested group is incomplete; an empty root matches every cart (docs/rates.md).
  if (!isRoot && group.rules.length === 0) walk.incomplete++;
  const rules: (SnapshotCondition | SnapshotGroup)[] = [];
  // Walking stops at the limits so a hostile request cannot make the server recurse without end.
  if (depth <= LIMITS.groupDepth + 1 && walk.conditions <= LIMITS.conditionsPerFilter) {
    for (const child of group.rules as (ConditionInput | GroupInput)[]) {
      rules.push(
        child.type === 'condition'
          ? checkCondition(child, walk, rule)
          : checkGroup(child, depth + 1, walk, rule, false),
      );
    }
  }
  return {
    id: walk.nextId(group.id),
    type: 'group',
    condition: condition === 'OR' ? 'OR' : 'AND',
    rules,
  };
}

function checkCondition(
  condition: ConditionInput,
  walk: QueryWalk,
  rule: string,
): SnapshotCondition {
  walk.conditions++;
  const field = fieldByKey(condition.field);
  const base = {
    id: walk.nextId(condition.id),
    type: 'condition' as const,
    field: condition.field,
  };
  if (!field) {
    walk.problems.add(`${rule} has a condition on an unknown field`);
    return { ...base, operator: condition.operator, value: null };
  }
  if (!field.operators.includes(condition.operator)) {
    walk.problems.add(`${rule} uses an operator that does not apply to ${field.label}`);
  }
  const value = checkValue(field.kind, condition.operator, condition.value, walk.admission);
  if (value === 'incomplete') walk.incomplete++;
  else if (value === 'invalid') {
    walk.problems.add(
      `${rule}: ${field.label} ${valueHint(field.kind, condition.operator, condition.value)}`,
    );
  }
  const stored = value === 'incomplete' || value === 'invalid' ? null : value;
  return { ...base, operator: condition.operator, value: stored };
}

/**
 * One condition's value as a saved filter would hold it (trimmed, numbers as
 * numbers, codes upper-case), or null when the field is unknown or the value
 * incomplete or refused: what lintFilters reads.
 */
export function conditionValue(
  condition: ConditionInput,
  source: FilterSource = 'draft',
): SnapshotCondition['value'] {
  const field = fieldByKey(condition.field);
  if (!field) return null;
  const value = checkValue(field.kind, condition.operator, condition.value, ADMISSION[source]);
  return value === 'incomplete' || value === 'invalid' ? null : value;
}

/** An action's amount as a saved filter would hold it, or null when blank or refused. */
export function actionAmount(raw: unknown, source: FilterSource = 'draft'): number | null {
  const admission = ADMISSION[source];
  const amount = admission.number(raw);
  return admission.isAmount(amount) ? amount : null;
}
