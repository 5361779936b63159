import { fieldByKey, type FilterScope, type ValueKind } from './fields';
import { asNumber, isAmount, isBlank, isCount, LIMITS, valueHint } from './limits';
import type { ConditionValue, EditorCondition, EditorFilter, EditorGroup } from './model';

/**
 * The editor's own check of a filter list, with the server's messages and in
 * the server's order (services/rules/src/domain/filters.ts), so the merchant
 * sees the same list before saving that a save would answer. Save All stays
 * disabled while it is not empty.
 */
export function validateFilters(filters: readonly EditorFilter[], scope: FilterScope): string[] {
  const max = scope === 'ruleset' ? LIMITS.filtersPerRuleset : LIMITS.filtersPerProductRule;
  if (filters.length > max) {
    const owner = scope === 'ruleset' ? 'A ruleset' : 'A product rule';
    return [`${owner} can have at most ${max} filters.`];
  }
  return filters.flatMap((filter, index) => validateFilter(filter, `Rule #${index + 1}`));
}

function validateFilter(filter: EditorFilter, rule: string): string[] {
  const errors: string[] = [];
  const name = filter.name.trim();
  if (!name) errors.push(`${rule} needs a name`);
  else if (name.length > LIMITS.filterName) {
    errors.push(`${rule} name must be at most ${LIMITS.filterName} characters`);
  }

  errors.push(...checkQuery(filter.raw_query, rule));

  const type = filter.action_type;
  const validAction = Number.isInteger(type) && type >= 0 && type <= 5;
  if (!validAction) errors.push(`${rule} has an unknown action type`);
  if (validAction && type >= 1) {
    const amount = asNumber(filter.action_data);
    if (isBlank(amount)) errors.push(`${rule} needs an amount`);
    else if (!isAmount(amount))
      errors.push(`${rule} amount must be from 0 to 1,000,000 with at most 2 decimals`);
  }
  if (type === 4) {
    const cost = asNumber(filter.rule_product_limit_amount);
    if (isBlank(cost)) errors.push(`${rule} needs the product cost ($X)`);
    else if (!isAmount(cost)) {
      errors.push(`${rule} product cost must be from 0 to 1,000,000 with at most 2 decimals`);
    }
  }

  const texts = [
    ['shipping_name', 'shipping name'],
    ['shipping_description', 'shipping description'],
    ['bump_shipping_name', 'bump shipping name'],
    ['bump_shipping_description', 'bump shipping description'],
  ] as const;
  for (const [key, label] of texts) {
    if (filter[key].trim().length > LIMITS.shortText) {
      errors.push(`${rule} ${label} must be at most ${LIMITS.shortText} characters`);
    }
  }
  return errors;
}

interface Walk {
  conditions: number;
  incomplete: number;
  tooDeep: boolean;
  problems: Set<string>;
}

function checkQuery(root: EditorGroup, rule: string): string[] {
  const walk: Walk = { conditions: 0, incomplete: 0, tooDeep: false, problems: new Set() };
  checkGroup(root, 1, walk, rule, true);
  const errors: string[] = [];
  if (walk.conditions === 0) errors.push(`${rule} needs at least one condition`);
  if (walk.incomplete > 0) errors.push(`${rule} has ${walk.incomplete} incomplete condition(s)`);
  if (walk.conditions > LIMITS.conditionsPerFilter) {
    errors.push(`${rule} has more than ${LIMITS.conditionsPerFilter} conditions`);
  }
  if (walk.tooDeep) errors.push(`${rule} nests groups more than ${LIMITS.groupDepth} deep`);
  errors.push(...walk.problems);
  return errors;
}

function checkGroup(group: EditorGroup, depth: number, walk: Walk, rule: string, isRoot: boolean) {
  if (depth > LIMITS.groupDepth) walk.tooDeep = true;
  // An empty nested group is incomplete; an empty root is "needs at least one condition".
  if (!isRoot && group.rules.length === 0) walk.incomplete++;
  // The server stops walking at the limits; stopping at the same place keeps the counts equal.
  if (depth > LIMITS.groupDepth + 1 || walk.conditions > LIMITS.conditionsPerFilter) return;
  for (const child of group.rules) {
    if (child.type === 'condition') checkCondition(child, walk, rule);
    else checkGroup(child, depth + 1, walk, rule, false);
  }
}

function checkCondition(condition: EditorCondition, walk: Walk, rule: string) {
  walk.conditions++;
  const field = fieldByKey(condition.field);
  if (!field) {
    walk.problems.add(`${rule} has a condition on an unknown field`);
    return;
  }
  if (!field.operators.includes(condition.operator)) {
    walk.problems.add(`${rule} uses an operator that does not apply to ${field.label}`);
  }
  const value = checkValue(field.kind, condition.value);
  if (value === 'incomplete') walk.incomplete++;
  else if (value === 'invalid')
    walk.problems.add(`${rule}: ${field.label} ${valueHint(field.kind)}`);
}

function checkValue(kind: ValueKind, value: ConditionValue): 'ok' | 'incomplete' | 'invalid' {
  if (kind === 'count_amount') {
    if (typeof value !== 'object') return isBlank(value) ? 'incomplete' : 'invalid';
    const count = asNumber(value.count);
    const amount = asNumber(value.amount);
    if (isBlank(count) || isBlank(amount)) return 'incomplete';
    return isCount(count) && isAmount(amount) ? 'ok' : 'invalid';
  }
  if (typeof value === 'object') return 'invalid';
  if (isBlank(value)) return 'incomplete';
  if (kind === 'country') return /^[A-Za-z]{2}$/.test(value.trim()) ? 'ok' : 'invalid';
  const number = asNumber(value);
  if (kind === 'amount') return isAmount(number) ? 'ok' : 'invalid';
  return isCount(number) ? 'ok' : 'invalid';
}
