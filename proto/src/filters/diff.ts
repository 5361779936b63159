import { actionLabel, fieldByKey, OPERATOR_LABELS, type FilterScope } from './catalogue';
import type { FilterInput } from './validate';

/**
 * What changed between two saved filter lists, in the merchant's words (the
 * labels of the catalogue): the versions page shows it, and the rules service
 * keeps its one-line summary with each version. Filters are matched by id
 * (the editor keeps a filter's id for its whole life).
 */
export interface FilterChange {
  type: 'added' | 'removed' | 'moved' | 'changed';
  /** The filter's name (after the change, or before a removal). */
  filter: string;
  /** The change in one sentence. */
  text: string;
  /** What an added filter does, or which fields and conditions of a changed one changed. */
  details: string[];
}

type Condition = { id: string; field: string; operator: string; value: unknown };
type Group = { id?: string; condition: string; rules: (Condition | Group)[] };

const isGroup = (rule: Condition | Group): rule is Group => 'rules' in rule;

export function diffFilters(
  before: readonly FilterInput[],
  after: readonly FilterInput[],
  scope: FilterScope,
): FilterChange[] {
  const beforeById = new Map(before.map((f) => [f.id, f]));
  const afterIds = new Set(after.map((f) => f.id));
  const changes: FilterChange[] = [];
  before.forEach((filter, index) => {
    if (afterIds.has(filter.id)) return;
    const name = nameOf(filter);
    changes.push({
      type: 'removed',
      filter: name,
      text: `Removed rule "${name}" (was #${index + 1})`,
      details: [],
    });
  });
  // An id in one list only matches nothing in the other, so it shortens no common run.
  const kept = keptInOrder(
    before.map((f) => f.id),
    after.map((f) => f.id),
  );
  after.forEach((filter, index) => {
    const name = nameOf(filter);
    const old = beforeById.get(filter.id);
    if (!old) {
      changes.push({
        type: 'added',
        filter: name,
        text: `Added rule "${name}" at #${index + 1}`,
        details: [describeAction(filter, scope), ...conditionLines(filter.raw_query as Group)],
      });
      return;
    }
    if (!kept.has(filter.id)) {
      const from = before.indexOf(old) + 1;
      changes.push({
        type: 'moved',
        filter: name,
        text: `Moved rule "${name}" from #${from} to #${index + 1}`,
        details: [],
      });
    }
    const details = filterDetails(old, filter, scope);
    if (details.length) {
      changes.push({ type: 'changed', filter: name, text: `Changed rule "${name}"`, details });
    }
  });
  return changes;
}

/** One line for a version list: "3 rule changes: 2 added, 1 changed", or "No rule changes". */
export function summariseChanges(changes: readonly FilterChange[]): string {
  const counts: Record<FilterChange['type'], number> = {
    added: 0,
    removed: 0,
    moved: 0,
    changed: 0,
  };
  for (const change of changes) counts[change.type]++;
  const parts = (['added', 'removed', 'moved', 'changed'] as const)
    .filter((type) => counts[type] > 0)
    .map((type) => `${counts[type]} ${type}`);
  if (!parts.length) return 'No rule changes';
  const total = changes.length;
  return `${total} rule ${total === 1 ? 'change' : 'changes'}: ${parts.join(', ')}`;
}

const nameOf = (filter: FilterInput) => filter.name.trim() || 'Untitled rule';

/**
 * The ids that kept their relative order (a longest common subsequence);
 * the others moved. Lists are at most 100 filters, so the table is small.
 */
function keptInOrder(before: string[], after: string[]): Set<string> {
  const cols = after.length + 1;
  // table[i * cols + j]: the longest common run of before[i..] and after[j..].
  const table = new Uint16Array((before.length + 1) * cols);
  const at = (i: number, j: number) => table[i * cols + j] ?? 0;
  for (let i = before.length - 1; i >= 0; i--) {
    for (let j = after.length - 1; j >= 0; j--) {
      table[i * cols + j] =
        before[i] === after[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const kept = new Set<string>();
  for (let i = 0, j = 0; i < before.length && j < after.length;) {
    const id = before[i]!;
    if (id === after[j]) {
      kept.add(id);
      i++;
      j++;
    } else if (at(i + 1, j) >= at(i, j + 1)) i++;
    else j++;
  }
  return kept;
}

function filterDetails(old: FilterInput, now: FilterInput, scope: FilterScope): string[] {
  const details: string[] = [];
  const change = (label: string, from: unknown, to: unknown) => {
    if (text(from) !== text(to)) details.push(`${label}: ${text(from)} → ${text(to)}`);
  };
  change('Name', old.name, now.name);
  change('Action', actionLabel(old.action_type, scope), actionLabel(now.action_type, scope));
  change('Amount', old.action_data, now.action_data);
  change('Product cost $X', old.rule_product_limit_amount, now.rule_product_limit_amount);
  change('Weight step', old.action_weight_step, now.action_weight_step);
  if (scope === 'ruleset') {
    change('Apply to', applyTo(old.global_rule_action), applyTo(now.global_rule_action));
  }
  change(
    'After a match',
    afterMatch(old.post_processing_action_type),
    afterMatch(now.post_processing_action_type),
  );
  change('Override rate name', old.is_shipping_overridden, now.is_shipping_overridden);
  change('Rate name', old.shipping_name, now.shipping_name);
  change('Rate description', old.shipping_description, now.shipping_description);
  change('Bump rate name', old.bump_shipping_name, now.bump_shipping_name);
  change('Bump rate description', old.bump_shipping_description, now.bump_shipping_description);
  details.push(...conditionChanges(old.raw_query as Group, now.raw_query as Group));
  return details;
}

function conditionChanges(old: Group, now: Group): string[] {
  const lines: string[] = [];
  const oldGroups = groupsById(old);
  for (const [id, group] of groupsById(now)) {
    const was = oldGroups.get(id);
    if (was && was.condition !== group.condition) {
      lines.push(
        `Conditions now match when ${matchWord(group.condition)} (was ${matchWord(was.condition)})`,
      );
    }
  }
  const before = conditionsById(old);
  const after = conditionsById(now);
  for (const [id, condition] of before) {
    if (!after.has(id)) lines.push(`Removed condition: ${describeCondition(condition)}`);
  }
  for (const [id, condition] of after) {
    const was = before.get(id);
    if (!was) lines.push(`Added condition: ${describeCondition(condition)}`);
    else if (describeCondition(was) !== describeCondition(condition)) {
      lines.push(`Changed condition: ${describeCondition(was)} → ${describeCondition(condition)}`);
    }
  }
  return lines;
}

function conditionLines(group: Group): string[] {
  return [...conditionsById(group).values()].map((c) => `Condition: ${describeCondition(c)}`);
}

function describeAction(filter: FilterInput, scope: FilterScope): string {
  const amount = filter.action_data === null ? '' : ` ${text(filter.action_data)}`;
  return `Action: ${actionLabel(filter.action_type, scope)}${amount}`;
}

function groupsById(root: Group): Map<string, Group> {
  const groups = new Map<string, Group>();
  const walk = (group: Group, path: string) => {
    groups.set(group.id || path, group);
    group.rules.forEach((rule, i) => {
      if (isGroup(rule)) walk(rule, `${path}.${i}`);
    });
  };
  walk(root, 'root');
  return groups;
}

function conditionsById(root: Group): Map<string, Condition> {
  const conditions = new Map<string, Condition>();
  const walk = (group: Group) => {
    for (const rule of group.rules) {
      if (isGroup(rule)) walk(rule);
      else conditions.set(rule.id, rule);
    }
  };
  walk(root);
  return conditions;
}

function describeCondition(condition: Condition): string {
  const field = fieldByKey(condition.field)?.label ?? condition.field;
  const operator = OPERATOR_LABELS[condition.operator] ?? condition.operator;
  return `${field} ${operator} ${text(condition.value)}`;
}

const matchWord = (condition: string) => (condition === 'OR' ? 'any is true' : 'all are true');
const applyTo = (value: number) => (value === 1 ? 'units without a product rule' : 'every unit');
const afterMatch = (value: number) => (value === 1 ? 'continue' : 'stop');

/** A value as the merchant typed it: weights with their unit, ranges with both ends. */
function text(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(none)';
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return value.map(text).join(', ');
  const v = value as Record<string, unknown>;
  if ('unit' in v) return `${text(v.amount)} ${String(v.unit)}`;
  if ('from' in v) return `${text(v.from)} to ${text(v.to)}`;
  if ('count' in v) return `${text(v.count)} units at ${text(v.amount)}`;
  return JSON.stringify(value);
}
