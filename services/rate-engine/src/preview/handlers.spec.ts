import { filterFromJson, type rulesV1 } from '@ratesmith/contracts';
import { draftCondition, draftFilter, draftGroup } from '@ratesmith/contracts/testing';
import { filter, snapshot } from '../../test/fixtures/cases';
import { compileSnapshot, type SnapshotCompileError } from '../engine';
import { DRAFT_OWNER, draftFilters } from './handlers';

/** The preview's problems name the unsaved filters as the draft, never as the active ruleset. */
describe('the preview of a draft', () => {
  const valid = () =>
    draftFilter({
      name: 'Flat',
      raw_query: draftGroup([draftCondition('cart_price', 'greater_than', 1)]),
    });

  it('names the draft when it has too many filters', () => {
    const many = Array.from({ length: 101 }, () => filterFromJson(valid()) as rulesV1.Filter);
    expect(() => draftFilters(many)).toThrow(
      expect.objectContaining({ details: ['The draft can have at most 100 rules.'] }),
    );
  });

  it('compiles the draft with problems named after it, the published snapshot after the active ruleset', () => {
    const unknownField = snapshot({
      filters: [
        filter(
          {
            id: 'g',
            type: 'group',
            condition: 'AND',
            rules: [
              { id: 'c', type: 'condition', field: 'nope', operator: 'equal', value: 1 } as never,
            ],
          },
          1,
          1,
        ),
      ],
    });
    const problems = (options?: { globalOwner: string }) => {
      try {
        compileSnapshot(unknownField, options);
      } catch (err) {
        return (err as SnapshotCompileError).problems;
      }
      return [];
    };
    expect(problems({ globalOwner: DRAFT_OWNER })).toEqual([
      'The draft rule #1 has a condition on an unknown field',
    ]);
    expect(problems()).toEqual(['The enabled ruleset rule #1 has a condition on an unknown field']);
  });
});
