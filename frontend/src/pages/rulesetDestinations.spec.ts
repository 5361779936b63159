import { draftCondition, draftFilter, draftGroup } from '@ratesmith/contracts/testing';
import { rulesetDestinations } from './rulesetDestinations';

describe('the destinations a ruleset names', () => {
  it('takes the countries and regions of "equal" conditions at any depth, once each, in order', () => {
    const filters = [
      draftFilter({
        raw_query: draftGroup([
          draftCondition('shipping_country', 'equal', 'us'),
          draftCondition('cart_price', 'greater_than', 50),
          draftGroup(
            [
              draftCondition('shipping_region', 'equal', ' ca-on '),
              draftGroup([draftCondition('shipping_region', 'equal', 'US-AK')]),
            ],
            'OR',
          ),
        ]),
      }),
      draftFilter({
        raw_query: draftGroup([
          draftCondition('shipping_country', 'equal', 'US'),
          draftCondition('shipping_country', 'equal', 'DE'),
        ]),
      }),
    ];
    expect(rulesetDestinations(filters)).toEqual(['US', 'CA-ON', 'US-AK', 'DE']);
  });

  it('leaves out places a rule excludes, other fields, and values that are not places yet', () => {
    const filters = [
      draftFilter({
        raw_query: draftGroup([
          draftCondition('shipping_country', 'not_equal', 'US'),
          draftCondition('shipping_region', 'not_equal', 'US-HI'),
          draftCondition('shipping_postal_code', 'equal', '10001'),
          draftCondition('shipping_country', 'equal', ''),
          draftCondition('shipping_country', 'equal', null),
          draftCondition('shipping_region', 'equal', 'California'),
        ]),
      }),
    ];
    expect(rulesetDestinations(filters)).toEqual([]);
  });

  it('is empty for no filters', () => {
    expect(rulesetDestinations([])).toEqual([]);
  });
});
