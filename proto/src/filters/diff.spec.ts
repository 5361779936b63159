import { draftCondition, draftFilter, draftGroup } from '../testing';
import type { FilterDraft } from './draft';
import { diffFilters, summariseChanges } from './diff';

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
          text: 'Added filter "Free" at #2',
          details: ['Action: Make Shipping Free', 'Condition: Cart Price less than 50'],
        },
      ],
    ],
    [
      'a filter removed',
      [cheap, heavy],
      [heavy],
      [{ type: 'removed', text: 'Removed filter "Cheap carts" (was #1)', details: [] }],
    ],
    [
      'one filter moved to the top (only it, not the ones it passed)',
      [cheap, heavy, free],
      [free, cheap, heavy],
      [{ type: 'moved', text: 'Moved filter "Free" from #3 to #1', details: [] }],
    ],
    [
      'action fields changed, in merchant words',
      [heavy],
      [{ ...heavy, action_type: 1, action_data: 25, post_processing_action_type: 1 }],
      [
        {
          type: 'changed',
          text: 'Changed filter "Heavy"',
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
          text: 'Changed filter "Cheap carts"',
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
          text: 'Changed filter "Small carts"',
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
    [[], [], 'No filter changes'],
    [[cheap], [cheap, free], '1 filter change: 1 added'],
    [[cheap, heavy, free], [free, heavy], '2 filter changes: 1 removed, 1 moved'],
  ])('%#', (before, after, summary) => {
    expect(summariseChanges(diffFilters(before, after, 'ruleset'))).toBe(summary);
  });
});
