import { draftCondition, draftFilter, draftGroup } from '../testing';
import type { DraftCondition, DraftGroup, DraftValue, FilterDraft } from './draft';
import { diffFilters, summariseChanges, type FilterChange } from './diff';

const cheap = draftFilter({
  id: 'a',
  raw_query: {
    ...draftGroup([{ ...draftCondition('cart_price', 'less_than', 50), id: 'c1' }]),
    id: 'g',
  },
});
const heavy = draftFilter({ id: 'b', name: 'Heavy', action_type: 5, action_data: 20 });
const free = draftFilter({ id: 'c', name: 'Free', action_type: 0, action_data: null });

const withCondition = (
  filter: FilterDraft,
  rules: FilterDraft['raw_query']['rules'],
  condition = 'AND',
) => ({
  ...filter,
  raw_query: { ...filter.raw_query, condition, rules },
});

describe('diffFilters', () => {
  it.each<
    [string, FilterDraft[], FilterDraft[], { type: string; text: string; details: string[] }[]]
  >([
    ['nothing', [cheap, heavy], [cheap, heavy], []],
    [
      'a filter added, with what it does',
      [cheap],
      [cheap, free],
      [
        {
          type: 'added',
          text: 'Added rule "Free" at #2',
          details: ['Action: Make Shipping Free', 'Condition: Cart Price less than 50'],
        },
      ],
    ],
    [
      'a filter removed',
      [cheap, heavy],
      [heavy],
      [{ type: 'removed', text: 'Removed rule "Cheap carts" (was #1)', details: [] }],
    ],
    [
      'one filter moved to the top (only it, not the ones it passed)',
      [cheap, heavy, free],
      [free, cheap, heavy],
      [{ type: 'moved', text: 'Moved rule "Free" from #3 to #1', details: [] }],
    ],
    [
      'action fields changed, in merchant words',
      [heavy],
      [{ ...heavy, action_type: 1, action_data: 25, post_processing_action_type: 1 }],
      [
        {
          type: 'changed',
          text: 'Changed rule "Heavy"',
          details: [
            'Action: Set Shipping Fee → Add Single Shipping Fee',
            'Amount: 20 → 25',
            'After a match: stop → continue',
          ],
        },
      ],
    ],
    [
      'conditions added, removed and changed',
      [cheap],
      [
        withCondition(
          cheap,
          [
            { ...draftCondition('cart_price', 'less_than', 60), id: 'c1' },
            {
              ...draftCondition('cart_weight', 'greater_than', { amount: 2, unit: 'kg' }),
              id: 'c2',
            },
          ],
          'OR',
        ),
      ],
      [
        {
          type: 'changed',
          text: 'Changed rule "Cheap carts"',
          details: [
            'Conditions now match when any is true (was all are true)',
            'Changed condition: Cart Price less than 50 → Cart Price less than 60',
            'Added condition: Cart Weight greater than 2 kg',
          ],
        },
      ],
    ],
    [
      'a condition removed, and a renamed filter',
      [cheap],
      [{ ...withCondition(cheap, []), name: 'Small carts' }],
      [
        {
          type: 'changed',
          text: 'Changed rule "Small carts"',
          details: [
            'Name: Cheap carts → Small carts',
            'Removed condition: Cart Price less than 50',
          ],
        },
      ],
    ],
  ])('%s', (_case, before, after, expected) => {
    const changes = diffFilters(before, after, 'ruleset');
    expect(changes.map(({ type, text, details }) => ({ type, text, details }))).toEqual(expected);
  });

  it('says a product rule action in its scope and leaves out Apply To', () => {
    const changes = diffFilters([free], [{ ...free, global_rule_action: 1 }], 'product');
    expect(changes).toEqual([]);
    const added = diffFilters([], [free], 'product');
    expect(added[0]?.details[0]).toBe('Action: Make Shipping Free For This Item');
  });
});

describe('summariseChanges', () => {
  it.each([
    [[], [], 'No rule changes'],
    [[cheap], [cheap, free], '1 rule change: 1 added'],
    [[cheap, heavy, free], [free, heavy], '2 rule changes: 1 removed, 1 moved'],
  ])('%#', (before, after, summary) => {
    expect(summariseChanges(diffFilters(before, after, 'ruleset'))).toBe(summary);
  });
});

const cond = (id: string, field: string, operator: string, value: DraftValue): DraftCondition => ({
  ...draftCondition(field, operator, value),
  id,
});
const group = (id: string, condition: string, rules: DraftGroup['rules']): DraftGroup => ({
  ...draftGroup(rules, condition),
  id,
});
const texts = (changes: FilterChange[]) => changes.map((change) => change.text);

describe('diffFilters: order', () => {
  const [a, b, c, d] = ['A', 'B', 'C', 'D'].map((name) =>
    draftFilter({ id: name.toLowerCase(), name }),
  ) as [FilterDraft, FilterDraft, FilterDraft, FilterDraft];

  it.each<[string, FilterDraft[], FilterDraft[], string[]]>([
    ['two swapped: the first one moved', [a, b], [b, a], ['Moved rule "A" from #1 to #2']],
    [
      'two pairs swapped',
      [a, b, c, d],
      [b, a, d, c],
      ['Moved rule "A" from #1 to #2', 'Moved rule "C" from #3 to #4'],
    ],
    ['the last one moved to the top', [a, b, c, d], [d, a, b, c], ['Moved rule "D" from #4 to #1']],
    [
      'the first one moved to the bottom',
      [a, b, c, d],
      [b, c, d, a],
      ['Moved rule "A" from #1 to #4'],
    ],
    ['the middle two swapped', [a, b, c, d], [a, c, b, d], ['Moved rule "B" from #2 to #3']],
    [
      'of two equally long orders kept, the one ending last',
      [a, b, c, d],
      [c, a, d, b],
      ['Moved rule "A" from #1 to #2', 'Moved rule "B" from #2 to #4'],
    ],
    [
      'reversed: all but the last one moved',
      [a, b, c],
      [c, b, a],
      ['Moved rule "B" from #2 to #2', 'Moved rule "A" from #1 to #3'],
    ],
    [
      'an added and a removed one do not count as moves',
      [a, b, c],
      [d, a, c],
      ['Removed rule "B" (was #2)', 'Added rule "D" at #1'],
    ],
    [
      'removed and added around a swap',
      [d, a, b],
      [b, a, c],
      ['Removed rule "D" (was #1)', 'Moved rule "A" from #2 to #2', 'Added rule "C" at #3'],
    ],
  ])('%s', (_case, before, after, expected) => {
    expect(texts(diffFilters(before, after, 'ruleset'))).toEqual(expected);
  });
});

describe('diffFilters: names and values', () => {
  it('trims names and calls a blank one "Untitled rule"', () => {
    const spaced = draftFilter({ id: 's', name: '  Spaced  ' });
    const blank = draftFilter({ id: 'u', name: '   ' });
    const changes = diffFilters([], [spaced, blank], 'ruleset');
    expect(changes.map(({ filter, text }) => [filter, text])).toEqual([
      ['Spaced', 'Added rule "Spaced" at #1'],
      ['Untitled rule', 'Added rule "Untitled rule" at #2'],
    ]);
    expect(texts(diffFilters([blank], [], 'ruleset'))).toEqual([
      'Removed rule "Untitled rule" (was #1)',
    ]);
  });

  it('says an added filter amount after its action', () => {
    expect(diffFilters([], [heavy], 'ruleset')[0]?.details).toEqual([
      'Action: Set Shipping Fee 20',
      'Condition: Cart Price less than 50',
    ]);
  });

  it('says every value kind of an added filter conditions, unknown words as they are', () => {
    const filter = draftFilter({
      id: 'v',
      raw_query: group('root', 'AND', [
        cond('p', 'shipping_postal_code', 'between', { from: '1000', to: '1999' }),
        cond('x', 'cart_product_count_of_x_price', 'greater_or_equal', { count: 3, amount: 10 }),
        cond('w', 'cart_weight', 'less_or_equal', { amount: 1.5, unit: 'lb' }),
        cond('e', 'cart_weight', 'equal', { amount: null, unit: 'kg' }),
        cond('n', 'cart_price', 'equal', null),
        cond('t', 'shipping_country', 'not_equal', ''),
        cond('m', 'mystery', 'frobs', 7),
        cond('o', 'mystery', 'equal', { colour: 'red' } as never),
      ]),
    });
    expect(diffFilters([], [filter], 'ruleset')[0]?.details).toEqual([
      'Action: Add Single Shipping Fee 4.99',
      'Condition: Shipping Postal Code between 1000 to 1999',
      'Condition: Cart Product Count of $X Price greater or equal 3 units at 10',
      'Condition: Cart Weight less or equal 1.5 lb',
      'Condition: Cart Weight equal (none) kg',
      'Condition: Cart Price equal (none)',
      'Condition: Shipping Country not equal (none)',
      'Condition: mystery frobs 7',
      'Condition: mystery equal {"colour":"red"}',
    ]);
  });

  const plain = draftFilter({
    id: 'f',
    name: 'Plain',
    action_type: 4,
    action_data: 2,
    global_rule_action: 0,
  });
  const dressed: FilterDraft = {
    ...plain,
    action_type: 6,
    action_data: 3,
    rule_product_limit_amount: 10,
    action_weight_step: { amount: 500, unit: 'g' },
    global_rule_action: 1,
    post_processing_action_type: 1,
    is_shipping_overridden: 'Yes',
    shipping_name: 'Express',
    shipping_description: 'Two days',
    bump_shipping_name: 'Bumped',
    bump_shipping_description: 'Bumped up',
  };

  it('names every changed field, empty values as (none)', () => {
    expect(diffFilters([plain], [dressed], 'ruleset')).toEqual([
      {
        type: 'changed',
        filter: 'Plain',
        text: 'Changed rule "Plain"',
        details: [
          'Action: Add Shipping Fee For Each Product Costing $X → Add Shipping Fee For Each Weight Step',
          'Amount: 2 → 3',
          'Product cost $X: (none) → 10',
          'Weight step: (none) → 500 g',
          'Apply to: every unit → units without a product rule',
          'After a match: stop → continue',
          'Override rate name: No → Yes',
          'Rate name: (none) → Express',
          'Rate description: (none) → Two days',
          'Bump rate name: (none) → Bumped',
          'Bump rate description: (none) → Bumped up',
        ],
      },
    ]);
  });

  it('names fields changed back to empty, and no Apply To for a product rule', () => {
    expect(diffFilters([dressed], [plain], 'product')[0]?.details).toEqual([
      'Action: Add Shipping Fee For Each Weight Step → Add Shipping Fee For Each Product Costing $X',
      'Amount: 3 → 2',
      'Product cost $X: 10 → (none)',
      'Weight step: 500 g → (none)',
      'After a match: continue → stop',
      'Override rate name: Yes → No',
      'Rate name: Express → (none)',
      'Rate description: Two days → (none)',
      'Bump rate name: Bumped → (none)',
      'Bump rate description: Bumped up → (none)',
    ]);
  });

  it('sees no change between a missing weight step and an empty one', () => {
    expect(diffFilters([plain], [{ ...plain, action_weight_step: null }], 'ruleset')).toEqual([]);
  });
});

describe('diffFilters: nested groups', () => {
  const nested = (rules: DraftGroup['rules']) =>
    draftFilter({ id: 'n', name: 'Nested', raw_query: group('', 'AND', rules) });

  it('matches groups by id, unnamed ones by place, and conditions at any depth by id', () => {
    const before = nested([
      cond('c1', 'cart_price', 'less_than', 50),
      group('inner', 'AND', [cond('c2', 'cart_weight', 'greater_than', { amount: 2, unit: 'kg' })]),
      group('', 'AND', [cond('c3', 'shipping_country', 'equal', 'FR')]),
    ]);
    const after = nested([
      cond('c1', 'cart_price', 'less_than', 50),
      group('inner', 'OR', [
        cond('c2', 'cart_weight', 'greater_than', { amount: 3, unit: 'kg' }),
        group('', 'AND', [cond('c4', 'shipping_country', 'equal', 'DE')]),
      ]),
      group('', 'OR', []),
    ]);
    expect(diffFilters([before], [after], 'ruleset')[0]?.details).toEqual([
      'Conditions now match when any is true (was all are true)',
      'Conditions now match when any is true (was all are true)',
      'Removed condition: Shipping Country equal FR',
      'Changed condition: Cart Weight greater than 2 kg → Cart Weight greater than 3 kg',
      'Added condition: Shipping Country equal DE',
    ]);
    expect(diffFilters([after], [before], 'ruleset')[0]?.details).toEqual([
      'Conditions now match when all are true (was any is true)',
      'Conditions now match when all are true (was any is true)',
      'Removed condition: Shipping Country equal DE',
      'Changed condition: Cart Weight greater than 3 kg → Cart Weight greater than 2 kg',
      'Added condition: Shipping Country equal FR',
    ]);
  });

  it('sees no change when groups with ids trade places', () => {
    const a = group('a', 'AND', [cond('c1', 'cart_price', 'less_than', 50)]);
    const b = group('b', 'OR', [cond('c2', 'cart_price', 'greater_than', 10)]);
    expect(diffFilters([nested([a, b])], [nested([b, a])], 'ruleset')).toEqual([]);
  });

  it('tells unnamed groups apart by their place', () => {
    const first = (condition: string) =>
      group('', condition, [cond('c1', 'cart_price', 'less_than', 50)]);
    const second = group('', 'AND', [cond('c2', 'cart_price', 'greater_than', 10)]);
    expect(
      diffFilters([nested([first('AND'), second])], [nested([first('OR'), second])], 'ruleset')[0]
        ?.details,
    ).toEqual(['Conditions now match when any is true (was all are true)']);
  });
});
