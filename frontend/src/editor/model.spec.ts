import type { FilterDraft } from '@ratesmith/contracts/filters';
import {
  copyName,
  duplicateFilter,
  filterFromWire,
  filterToWire,
  newCondition,
  newGroup,
  type EditorCondition,
  type EditorFilter,
  type EditorGroup,
} from './model';
import {
  addCondition,
  addGroup,
  conditionCount,
  move,
  moveTo,
  removeNode,
  setCombinator,
  setField,
  setOperator,
  setValue,
} from './tree';

const wire: FilterDraft = {
  id: 'f1',
  name: 'Big carts abroad',
  raw_query: {
    id: 'g1',
    type: 'group',
    condition: 'AND',
    rules: [
      { id: 'c1', type: 'condition', field: 'cart_price', operator: 'greater_than', value: 100 },
      {
        id: 'g2',
        type: 'group',
        condition: 'OR',
        rules: [
          {
            id: 'c2',
            type: 'condition',
            field: 'shipping_country',
            operator: 'equal',
            value: 'CA',
          },
          {
            id: 'c3',
            type: 'condition',
            field: 'cart_product_count_of_x_price',
            operator: 'greater_or_equal',
            value: { count: 2, amount: 9.99 },
          },
        ],
      },
    ],
  },
  action_type: 4,
  action_data: 2.5,
  rule_product_limit_amount: 9.99,
  global_rule_action: 1,
  is_shipping_overridden: 'Yes',
  shipping_name: 'Express',
  shipping_description: '',
  bump_shipping_name: '',
  bump_shipping_description: '',
  post_processing_action_type: 1,
};

describe('filter model', () => {
  it('round-trips the wire JSON through the editor state', () => {
    const editor = filterFromWire(wire);
    expect(editor.action_data).toBe('2.5');
    expect(filterToWire(editor)).toEqual(wire);
  });

  it('sends typed numbers as numbers and blanks as null', () => {
    const editor = filterFromWire(wire);
    editor.action_data = ' 3 ';
    editor.rule_product_limit_amount = '';
    const sent = filterToWire(editor);
    expect(sent.action_data).toBe(3);
    expect(sent.rule_product_limit_amount).toBeNull();
  });

  it('edits the tree: add, combine, field change resets operator and value, remove', () => {
    let root = filterFromWire(wire).raw_query;
    root = addGroup(root, 'g2');
    root = addCondition(root, 'g1');
    root = setCombinator(root, 'g2', 'AND');
    const nested = root.rules[1];
    if (nested?.type !== 'group') throw new Error('expected the nested group');
    expect(nested.condition).toBe('AND');
    expect(nested.rules.map((r) => r.type)).toEqual(['condition', 'condition', 'group']);
    expect(root.rules).toHaveLength(3);

    root = setField(root, 'c1', 'shipping_country');
    expect(root.rules[0]).toMatchObject({
      field: 'shipping_country',
      operator: 'equal',
      value: '',
    });
    root = setField(root, 'c1', 'cart_product_count_of_x_price');
    expect(root.rules[0]).toMatchObject({ operator: 'equal', value: { count: '', amount: '' } });

    root = removeNode(root, 'g2');
    expect(root.rules.map((r) => r.id)).toEqual(['c1', expect.any(String)]);
  });

  it('new groups start with one condition; new conditions are Shipping Country, equal', () => {
    expect(newGroup().rules).toHaveLength(1);
    expect(newCondition()).toMatchObject({ field: 'shipping_country', operator: 'equal' });
  });

  it('moves a filter up and down and not beyond the ends', () => {
    expect(move(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(move(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(move(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
  });

  it('moves a filter to a position, clamped to the list', () => {
    expect(moveTo(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(moveTo(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveTo(['a', 'b', 'c'], 1, 9)).toEqual(['a', 'c', 'b']);
    expect(moveTo(['a', 'b', 'c'], 1, -3)).toEqual(['b', 'a', 'c']);
  });

  it('counts the conditions of a tree, nested ones included', () => {
    expect(conditionCount(filterFromWire(wire).raw_query)).toBe(3);
  });

  it('duplicates a filter: the same rule under new ids and a copy name within the limit', () => {
    const original = filterFromWire(wire);
    const copy = duplicateFilter(original, 4);
    const ids = (group: EditorGroup): string[] => [
      group.id,
      ...group.rules.flatMap((r) => (r.type === 'group' ? ids(r) : [r.id])),
    ];
    expect(copy.name).toBe('Big carts abroad (copy)');
    expect(copy.id).not.toBe(original.id);
    expect(ids(copy.raw_query).filter((id) => ids(original.raw_query).includes(id))).toEqual([]);
    const strip = (w: ReturnType<typeof filterToWire>) =>
      JSON.parse(JSON.stringify({ ...w, name: '' }), (k, v) => (k === 'id' ? undefined : v));
    expect(strip(filterToWire(copy))).toEqual(strip(filterToWire(original)));
    // The copy's pair value is its own object: editing one does not edit the other.
    const pair = (f: EditorFilter) =>
      ((f.raw_query.rules[1] as EditorGroup).rules[1] as EditorCondition).value;
    expect(pair(copy)).toEqual({ count: '2', amount: '9.99' });
    expect(pair(copy)).not.toBe(pair(original));

    expect(copyName('x'.repeat(200), 1)).toBe(`${'x'.repeat(193)} (copy)`);
    expect(copyName('x'.repeat(200), 1)).toHaveLength(200);
    expect(copyName('  ', 7)).toBe('Rule #7 (copy)');
  });

  it("keeps a list operator's values through the editor and back, and reshapes on the operator", () => {
    const listed: FilterDraft = {
      ...wire,
      raw_query: {
        id: 'g9',
        type: 'group',
        condition: 'AND',
        rules: [
          {
            id: 'c9',
            type: 'condition',
            field: 'shipping_postal_code',
            operator: 'in',
            value: ['99501', '99502'],
          },
        ],
      },
    };
    const editor = filterFromWire(listed);
    expect(editor.raw_query.rules[0]).toMatchObject({ value: ['99501', '99502'] });
    expect(filterToWire(editor).raw_query.rules[0]).toMatchObject({
      value: ['99501', '99502'],
    });
    // A list to one code and back: its first value, then a list of that code.
    let root = setOperator(editor.raw_query, 'c9', 'equal');
    expect((root.rules[0] as EditorCondition).value).toBe('99501');
    root = setValue(root, 'c9', '99502');
    root = setOperator(root, 'c9', 'not_starts_with');
    expect((root.rules[0] as EditorCondition).value).toBe('99502');
    root = setOperator(root, 'c9', 'starts_with_any');
    expect((root.rules[0] as EditorCondition).value).toEqual(['99502']);
    root = setOperator(setValue(root, 'c9', '  '), 'c9', 'equal');
    expect((root.rules[0] as EditorCondition).value).toBe('');
    root = setOperator(root, 'c9', 'in');
    expect((root.rules[0] as EditorCondition).value).toEqual([]);
    expect((setOperator(root, 'c9', 'between').rules[0] as EditorCondition).value).toEqual({
      from: '',
      to: '',
    });
    root = setValue(root, 'c9', [' 995 ', '', '968']);
    root = setOperator(root, 'c9', 'not_in');
    expect((root.rules[0] as EditorCondition).value).toEqual([' 995 ', '', '968']);
    expect(filterToWire({ ...editor, raw_query: root }).raw_query.rules[0]).toMatchObject({
      value: ['995', '968'],
    });
  });
});
