import { fieldByKey } from '@ratesmith/contracts/filters';
import {
  emptyValue,
  newCondition,
  newGroup,
  type Combinator,
  type ConditionValue,
  type EditorCondition,
  type EditorGroup,
  type EditorNode,
} from './model';

/**
 * Immutable edits of a condition tree, addressed by node id. Each returns a
 * new root so React sees the change; untouched branches keep their identity.
 */

function mapGroup(
  group: EditorGroup,
  id: string,
  edit: (g: EditorGroup) => EditorGroup,
): EditorGroup {
  if (group.id === id) return edit(group);
  let changed = false;
  const rules = group.rules.map((rule): EditorNode => {
    if (rule.type !== 'group') return rule;
    const next = mapGroup(rule, id, edit);
    if (next !== rule) changed = true;
    return next;
  });
  return changed ? { ...group, rules } : group;
}

function mapCondition(
  group: EditorGroup,
  id: string,
  edit: (c: EditorCondition) => EditorCondition,
): EditorGroup {
  let changed = false;
  const rules = group.rules.map((rule): EditorNode => {
    const next =
      rule.type === 'group' ? mapCondition(rule, id, edit) : rule.id === id ? edit(rule) : rule;
    if (next !== rule) changed = true;
    return next;
  });
  return changed ? { ...group, rules } : group;
}

export const addCondition = (root: EditorGroup, groupId: string) =>
  mapGroup(root, groupId, (g) => ({ ...g, rules: [...g.rules, newCondition()] }));

export const addGroup = (root: EditorGroup, groupId: string) =>
  mapGroup(root, groupId, (g) => ({ ...g, rules: [...g.rules, newGroup()] }));

export const setCombinator = (root: EditorGroup, groupId: string, condition: Combinator) =>
  mapGroup(root, groupId, (g) => ({ ...g, condition }));

export function removeNode(root: EditorGroup, id: string): EditorGroup {
  const without = root.rules.filter((rule) => rule.id !== id);
  const rules = without.map((rule) => (rule.type === 'group' ? removeNode(rule, id) : rule));
  const changed = without.length !== root.rules.length || rules.some((r, i) => r !== without[i]);
  return changed ? { ...root, rules } : root;
}

/** A new field starts at its first operator; a value of another kind is cleared. */
export const setField = (root: EditorGroup, conditionId: string, fieldKey: string) =>
  mapCondition(root, conditionId, (c) => {
    const before = fieldByKey(c.field);
    const field = fieldByKey(fieldKey);
    const sameKind = before?.kind === field?.kind;
    return {
      ...c,
      field: fieldKey,
      operator: field?.operators[0] ?? '',
      value: sameKind ? c.value : emptyValue(field, field?.operators[0]),
    };
  });

/** A value's shape: text, or the keys of an object. */
const shapeOf = (value: ConditionValue) =>
  typeof value === 'string'
    ? 'text'
    : Array.isArray(value)
      ? 'list'
      : Object.keys(value).sort().join();

/**
 * A value whose kind holds another shape under the new operator (a postal
 * code's one code and a `between`'s two bounds) starts blank in that shape;
 * one code becomes a list of it, and a list its first value, so nothing typed
 * is lost between `equal` and `in`.
 */
export const setOperator = (root: EditorGroup, conditionId: string, operator: string) =>
  mapCondition(root, conditionId, (c) => {
    const field = fieldByKey(c.field);
    const empty = emptyValue(field, operator);
    if (shapeOf(emptyValue(field, c.operator)) === shapeOf(empty)) return { ...c, operator };
    let value = empty;
    if (Array.isArray(empty) && typeof c.value === 'string' && c.value.trim())
      value = [c.value.trim()];
    if (typeof empty === 'string' && Array.isArray(c.value)) value = c.value[0] ?? '';
    return { ...c, operator, value };
  });

export const setValue = (root: EditorGroup, conditionId: string, value: ConditionValue) =>
  mapCondition(root, conditionId, (c) => ({ ...c, value }));

/** Moves item `index` of a list by `offset` places (reorder with up/down buttons). */
export function move<T>(list: readonly T[], index: number, offset: number): T[] {
  const target = index + offset;
  if (target < 0 || target >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(index, 1);
  next.splice(target, 0, item as T);
  return next;
}

/** Moves item `index` of a list to `position` (0-based, clamped to the list). */
export function moveTo<T>(list: readonly T[], index: number, position: number): T[] {
  const target = Math.min(Math.max(position, 0), list.length - 1);
  return move(list, index, target - index);
}

/** The conditions of a tree, nested ones included (groups are not counted). */
export function conditionCount(group: EditorGroup): number {
  return group.rules.reduce((n, rule) => n + (rule.type === 'group' ? conditionCount(rule) : 1), 0);
}

/** Group `id` of the tree, nested ones included. */
function findGroup(group: EditorGroup, id: string): EditorGroup | undefined {
  if (group.id === id) return group;
  for (const rule of group.rules) {
    const found = rule.type === 'group' ? findGroup(rule, id) : undefined;
    if (found) return found;
  }
  return undefined;
}

/**
 * The first condition of group `groupId`'s last node: what addCondition or
 * addGroup just added there, where the editor puts focus.
 */
export function lastAddedCondition(root: EditorGroup, groupId: string): string | undefined {
  let node: EditorNode | undefined = findGroup(root, groupId)?.rules.at(-1);
  while (node?.type === 'group') node = node.rules[0];
  return node?.id;
}
