import type { DraftCondition, DraftGroup, FilterDraft } from './draft';
import { lintFilters, type LintCode } from './lint';

import { draftCondition as c, draftFilter, draftGroup as group } from '../testing';

// Each branch of the analysis behind lintFilters (docs/filters.md), through the
// warnings it changes: every case lists every warning of its filters, so a
// warning too many or too few fails it. lint.spec.ts has the everyday cases.

type Node = DraftCondition | DraftGroup;

/** A filter with these conditions (AND), its action and whether it stops (default: fee 5, stop). */
const rule = (rules: Node[] | DraftGroup, more: Partial<FilterDraft> = {}): FilterDraft =>
  draftFilter({
    raw_query: Array.isArray(rules) ? group(rules) : rules,
    action_data: 5,
    ...more,
  });
const goesOn = { post_processing_action_type: 1 };
const price = (operator: string, value: number) => c('cart_price', operator, value);
const count = (operator: string, value: number) => c('cart_retail_product_count', operator, value);
const free = (operator: string, value: number) => c('cart_free_product_count', operator, value);
const country = (operator: string, value: string) => c('shipping_country', operator, value);
const region = (operator: string, value: string) => c('shipping_region', operator, value);
const postal = (operator: string, value: string) => c('shipping_postal_code', operator, value);
const atPrice = (operator: string, units: number, amount: number) =>
  c('cart_product_count_of_x_price', operator, { count: units, amount });
const or = (...rules: Node[]) => group(rules, 'OR');
const and = (...rules: Node[]) => group(rules, 'AND');
/** `rules` in an AND group `levels` deep. */
const nested = (levels: number, rules: Node[]): DraftGroup =>
  levels === 1 ? and(...rules) : and(nested(levels - 1, rules));
/** n conditions made from 1..n. */
const many = (n: number, make: (k: number) => Node) =>
  Array.from({ length: n }, (_, k) => make(k + 1));
/** n two-letter country codes in alphabetical order: AA, AB, ... AZ, BA, ... */
const codes = (n: number) =>
  Array.from({ length: n }, (_, i) => String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26)));

const reached = (first = 'Rule #1') =>
  `This rule is never reached: every cart it matches also matches ${first}, which comes first and stops the rules.`;
const everyCart = (first = 'Rule #1') =>
  `This rule is never reached: ${first} matches every cart and stops the rules.`;
const onlyTo = (countries: string) =>
  `Only carts to ${countries} match a rule: every rule names its countries, so carts to any other country get no rate from Ratesmith.`;
const gap = (figure: string, value: string, mine: string, theirs: string, other = 'Rule #1') =>
  `A ${figure} of exactly ${value} matches neither this rule (“${mine}”) nor ${other} (“${theirs}”): did you mean “or equal”?`;
const bothMatch = (what: string, other = 'Rule #1') =>
  `This rule and ${other} both match a ${what}, and ${other} comes first and stops, so it decides for those carts.`;
const never = (said: string) => `This rule never matches: ${said}.`;

type Expected = [number, LintCode, string];

const cases: [string, FilterDraft[], Expected[]][] = [
  // Reading the condition tree.
  [
    'a lower-case combinator is read',
    [rule(group([price('greater_than', 100), price('less_than', 50)], 'and'))],
    [
      [
        0,
        'never_matches',
        never(
          '“Cart Price greater than 100” and “Cart Price less than 50” are never true together',
        ),
      ],
    ],
  ],
  [
    'a group that is neither AND nor OR is not read',
    [rule(group([price('greater_than', 100), price('less_than', 50)], 'XOR'))],
    [],
  ],
  [
    'a group without a combinator is not read',
    [
      rule({
        ...and(price('greater_than', 100), price('less_than', 50)),
        condition: 5 as unknown as string,
      }),
    ],
    [],
  ],
  [
    'a group whose rules are not a list is not read (so it is not certain either)',
    [rule({ ...and(), rules: undefined as unknown as Node[] }), rule([price('less_than', 5)])],
    [],
  ],
  [
    'a country list is read as the countries it names (and its negation as none of them)',
    [
      rule([c('shipping_country', 'in', ['CA', 'US'])]),
      rule([c('shipping_country', 'in', ['US'])]),
      rule([c('shipping_country', 'in', ['MX']), c('shipping_country', 'not_in', ['MX', 'CA'])]),
    ],
    [
      [1, 'unreachable', reached()],
      [
        2,
        'never_matches',
        never(
          '“Shipping Country is any of MX” and “Shipping Country is none of MX, CA” are never true together',
        ),
      ],
      [2, 'countries_uncovered', onlyTo('CA, US')],
    ],
  ],
  [
    'a region list names its countries',
    [rule([c('shipping_region', 'in', ['US-CA', 'US-OR']), country('equal', 'CA')])],
    [
      [
        0,
        'never_matches',
        never(
          '“Shipping State/Province is any of US-CA, US-OR” and “Shipping Country equal CA” are never true together',
        ),
      ],
    ],
  ],
  [
    'a filter without conditions matches every cart: what it stops is never reached',
    [rule([]), rule([price('less_than', 5)])],
    [
      [
        1,
        'unreachable',
        'This rule is never reached: Rule #1 matches every cart and stops the rules.',
      ],
    ],
  ],
  [
    'a Block Shipping filter stops the rules even when it says to go on',
    [rule([], { action_type: 7, action_data: null, ...goesOn }), rule([price('less_than', 5)])],
    [
      [
        1,
        'unreachable',
        'This rule is never reached: Rule #1 matches every cart and stops the rules.',
      ],
    ],
  ],
  ['an empty OR is not read', [rule(or())], []],
  [
    'an empty group inside an AND leaves the rest read',
    [rule([price('greater_than', 100), or(), price('less_than', 50)])],
    [
      [
        0,
        'never_matches',
        never(
          '“Cart Price greater than 100” and “Cart Price less than 50” are never true together',
        ),
      ],
    ],
  ],
  [
    'a group 5 deep is read',
    [rule([nested(4, [price('greater_than', 100), price('less_than', 50)])])],
    [
      [
        0,
        'never_matches',
        never(
          '“Cart Price greater than 100” and “Cart Price less than 50” are never true together',
        ),
      ],
    ],
  ],
  [
    'a group 6 deep is not read',
    [rule([nested(5, [price('greater_than', 100), price('less_than', 50)])])],
    [],
  ],
  [
    '50 conditions are read',
    [
      rule([
        price('greater_than', 100),
        price('less_than', 50),
        ...many(48, () => country('not_equal', 'AQ')),
      ]),
    ],
    [
      [
        0,
        'never_matches',
        never(
          '“Cart Price greater than 100” and “Cart Price less than 50” are never true together',
        ),
      ],
    ],
  ],
  [
    'a filter of 51 conditions is not read',
    [
      rule([
        price('greater_than', 100),
        price('less_than', 50),
        ...many(49, () => country('not_equal', 'AQ')),
      ]),
    ],
    [],
  ],
  [
    'a conflict names the first-written condition first, even when it is repeated',
    [rule([price('greater_than', 100), price('less_than', 50), price('greater_than', 100)])],
    [
      [
        0,
        'never_matches',
        never(
          '“Cart Price greater than 100” and “Cart Price less than 50” are never true together',
        ),
      ],
    ],
  ],
  [
    'of two equal lower bounds the first-written one is named',
    [rule([price('greater_than', 99.99), price('greater_or_equal', 100), price('less_than', 50)])],
    [
      [
        0,
        'never_matches',
        never(
          '“Cart Price greater than 99.99” and “Cart Price less than 50” are never true together',
        ),
      ],
    ],
  ],
  [
    'of two equal upper bounds the first-written one is named',
    [rule([price('less_than', 50.01), price('less_or_equal', 50), price('greater_than', 100)])],
    [
      [
        0,
        'never_matches',
        never(
          '“Cart Price less than 50.01” and “Cart Price greater than 100” are never true together',
        ),
      ],
    ],
  ],

  // OR lists and their sizes.
  [
    '32 branches of an OR are each read',
    [rule([price('less_or_equal', 100)]), rule(or(...many(32, (k) => price('equal', k))))],
    [[1, 'unreachable', reached()]],
  ],
  [
    'an OR of 33 branches may match any cart',
    [rule([price('less_or_equal', 100)]), rule(or(...many(33, (k) => price('equal', k))))],
    [],
  ],
  [
    'of an OR of 33 branches the first 32 are certain',
    [rule(or(...many(33, (k) => price('equal', k)))), rule([price('equal', 32)])],
    [[1, 'unreachable', reached()]],
  ],
  [
    'of an OR of 33 branches the 33rd is not certain',
    [rule(or(...many(33, (k) => price('equal', k)))), rule([price('equal', 33)])],
    [],
  ],
  [
    'an OR of 32 countries is one list',
    [
      rule(or(...codes(32).map((code) => country('equal', code)))),
      rule(or(country('equal', 'AB'), country('equal', 'AA'))),
    ],
    [
      [1, 'unreachable', reached()],
      [1, 'countries_uncovered', onlyTo(codes(32).join(', '))],
    ],
  ],
  [
    'an OR of two countries stays one list beside an OR of 17 prices',
    [
      rule([
        or(country('equal', 'US'), country('equal', 'CA')),
        or(...many(17, (k) => price('equal', k))),
      ]),
    ],
    [[0, 'countries_uncovered', onlyTo('CA, US')]],
  ],
  [
    'an OR of a country and a price, and one of two prices',
    [
      rule(or(country('equal', 'US'), price('less_than', 50))),
      rule(or(price('less_than', 5), price('greater_than', 100)), goesOn),
    ],
    [],
  ],
  [
    'a country beside a country with a price is not one list',
    [
      rule(or(country('equal', 'US'), and(country('equal', 'CA'), price('less_than', 50)))),
      rule([country('equal', 'CA'), price('greater_or_equal', 100)]),
    ],
    [[1, 'countries_uncovered', onlyTo('CA, US')]],
  ],
  [
    '4 times 8 branches are each read',
    [
      rule([price('less_or_equal', 100)]),
      rule([or(...many(4, (k) => price('equal', k))), or(...many(8, (k) => count('equal', k)))]),
    ],
    [[1, 'unreachable', reached()]],
  ],
  [
    '4 times 9 branches may match any cart',
    [
      rule([price('less_or_equal', 100)]),
      rule([or(...many(4, (k) => price('equal', k))), or(...many(9, (k) => count('equal', k)))]),
    ],
    [],
  ],
  [
    'an OR with an unread branch may match any cart, however many its other branches',
    [
      rule([price('less_or_equal', 60)]),
      rule([
        or(postal('starts_with', '9'), ...many(5, (k) => count('equal', k))),
        or(postal('starts_with', '8'), ...many(5, (k) => free('equal', k))),
        price('less_than', 50),
      ]),
    ],
    [[1, 'unreachable', reached()]],
  ],
  [
    'a rule matching its own overlapping ranges',
    [
      rule(
        or(price('less_or_equal', 60), and(price('greater_or_equal', 50), price('less_than', 100))),
      ),
    ],
    [],
  ],

  // Conditions of each kind.
  [
    'an operator a field does not take is not read',
    [
      rule([price('not_equal', 50)]),
      rule([count('not_equal', 2)]),
      rule([c('cart_weight', 'not_equal', { amount: 1, unit: 'kg' })]),
      rule([atPrice('not_equal', 2, 10)]),
      rule([region('starts_with', 'US')]),
      rule([country('greater_than', 'US')]),
      rule([
        price('less_than', 5),
        count('less_than', 1),
        c('cart_weight', 'less_than', { amount: 1, unit: 'g' }),
        atPrice('less_than', 1, 10),
        country('equal', 'FR'),
      ]),
    ],
    [],
  ],
  [
    'a postal prefix is not read as a code',
    [rule([postal('starts_with', '9')]), rule([postal('equal', '12345')])],
    [],
  ],
  [
    'a postal code is read',
    [
      rule([postal('equal', '12345')]),
      rule([postal('equal', '12345'), price('less_than', 50)]),
      rule([postal('not_equal', '12345')], goesOn),
      rule([postal('equal', '54321')]),
    ],
    [[1, 'unreachable', reached()]],
  ],
  [
    'every postal code but one',
    [rule([postal('not_equal', '12345')]), rule([postal('equal', '54321')])],
    [[1, 'unreachable', reached()]],
  ],
  [
    'a region left out names no country',
    [rule([region('not_equal', 'US-CA')]), rule([country('equal', 'FR')])],
    [],
  ],
  [
    'a region names its country',
    [rule([region('equal', 'US-CA')]), rule([country('equal', 'FR')])],
    [[1, 'countries_uncovered', onlyTo('FR, US')]],
  ],
  [
    'counts of products at one price overlap',
    [rule([atPrice('less_or_equal', 5, 9.99)]), rule([atPrice('greater_or_equal', 3, 9.99)])],
    [[1, 'order_decides', bothMatch('count of products costing 9.99 from 3 to 5')]],
  ],
  [
    'counts of products at two prices are two figures',
    [rule([atPrice('less_or_equal', 5, 9.99)]), rule([atPrice('greater_or_equal', 3, 4.99)])],
    [],
  ],
  [
    'a boundary of a count of products at a price',
    [rule([atPrice('less_than', 3, 10)]), rule([atPrice('greater_than', 3, 10)])],
    [
      [
        1,
        'boundary_gap',
        gap(
          'count of products costing 10',
          '3',
          'Cart Product Count of $X Price greater than 3 (at 10)',
          'Cart Product Count of $X Price less than 3 (at 10)',
        ),
      ],
    ],
  ],
  [
    'prices are compared in cents',
    [rule([price('less_than', 50.5)]), rule([price('greater_than', 50)])],
    [[1, 'order_decides', bothMatch('Cart Price from 50.01 to 50.49')]],
  ],
  [
    'a boundary of 49.90 is shown with its cents',
    [rule([price('less_than', 49.9)]), rule([price('greater_than', 49.9)])],
    [
      [
        1,
        'boundary_gap',
        gap('Cart Price', '49.90', 'Cart Price greater than 49.9', 'Cart Price less than 49.9'),
      ],
    ],
  ],

  // Countries met and joined.
  [
    'two countries left out',
    [
      rule([country('not_equal', 'US')]),
      rule([country('not_equal', 'US'), country('not_equal', 'CA')]),
    ],
    [[1, 'unreachable', reached()]],
  ],
  [
    'leaving out more does not cover leaving out less',
    [
      rule([country('not_equal', 'US'), country('not_equal', 'CA')]),
      rule([country('not_equal', 'US')]),
    ],
    [],
  ],
  [
    'two country lists meet in the country they share',
    [
      rule([
        or(country('equal', 'US'), country('equal', 'CA')),
        or(country('equal', 'CA'), country('equal', 'MX')),
      ]),
    ],
    [[0, 'countries_uncovered', onlyTo('CA')]],
  ],
  [
    'an OR of two countries left out leaves out the one both leave out',
    [
      rule(
        or(and(country('not_equal', 'US'), country('not_equal', 'CA')), country('not_equal', 'US')),
      ),
      rule([country('equal', 'US')]),
    ],
    [],
  ],
  [
    'an OR of two different countries left out is every cart',
    [
      rule(or(country('not_equal', 'US'), country('not_equal', 'CA'))),
      rule([price('less_than', 5)]),
    ],
    [[1, 'unreachable', everyCart()]],
  ],
  [
    'an OR of two pairs of countries left out is every cart',
    [
      rule(
        or(
          and(country('not_equal', 'US'), country('not_equal', 'CA')),
          and(country('not_equal', 'FR'), country('not_equal', 'DE')),
        ),
      ),
      rule([price('less_than', 5)]),
    ],
    [[1, 'unreachable', everyCart()]],
  ],
  [
    'an OR of two different countries left out asks nothing of a later rule',
    [
      rule([or(country('not_equal', 'US'), country('not_equal', 'CA')), price('less_than', 50)]),
      rule([price('less_than', 10)]),
    ],
    [[1, 'unreachable', reached()]],
  ],
  [
    'an OR of countries left out inside an OR: the lists are joined again',
    [
      rule(
        or(
          or(
            and(country('not_equal', 'US'), country('not_equal', 'CA')),
            country('not_equal', 'US'),
          ),
          country('not_equal', 'CA'),
        ),
      ),
      rule([price('less_than', 5)]),
    ],
    [[1, 'unreachable', everyCart()]],
  ],
  [
    'a country or all but another, inside an OR: the lists are joined again',
    [
      rule(or(or(country('equal', 'US'), country('not_equal', 'CA')), country('not_equal', 'US'))),
      rule([price('less_than', 5)]),
    ],
    [[1, 'unreachable', everyCart()]],
  ],
  [
    'one country or every country but another',
    [rule(or(country('equal', 'US'), country('not_equal', 'CA'))), rule([country('equal', 'FR')])],
    [[1, 'unreachable', reached()]],
  ],
  [
    'every country but one, or one country: the one left out is not covered',
    [rule(or(country('not_equal', 'CA'), country('equal', 'US'))), rule([country('equal', 'CA')])],
    [],
  ],

  // Which carts an earlier rule holds.
  [
    'a condition every cart meets asks nothing of a later rule',
    [
      rule([price('greater_or_equal', 0), country('equal', 'US')]),
      rule([country('equal', 'US'), count('less_than', 5)]),
    ],
    [
      [1, 'unreachable', reached()],
      [1, 'countries_uncovered', onlyTo('US')],
    ],
  ],
  [
    'a price above 100 asks something of a later rule',
    [rule([country('equal', 'US'), price('greater_than', 100)]), rule([country('equal', 'US')])],
    [[1, 'countries_uncovered', onlyTo('US')]],
  ],
  [
    'a country or its opposite asks nothing of a later rule',
    [
      rule([or(country('equal', 'US'), country('not_equal', 'US')), price('less_than', 50)]),
      rule([price('less_than', 10)]),
    ],
    [[1, 'unreachable', reached()]],
  ],
  [
    'a country left out asks something of a later rule',
    [rule([country('not_equal', 'AQ'), price('less_than', 50)]), rule([price('less_than', 10)])],
    [],
  ],
  [
    'the same lower bound',
    [
      rule([price('greater_or_equal', 50)]),
      rule([price('greater_or_equal', 50), price('less_than', 80)]),
    ],
    [[1, 'unreachable', reached()]],
  ],
  [
    'a list of countries not within another',
    [
      rule(or(country('equal', 'US'), country('equal', 'MX'))),
      rule(or(country('equal', 'US'), country('equal', 'CA'))),
    ],
    [[1, 'countries_uncovered', onlyTo('CA, MX, US')]],
  ],
  [
    'a country within every country but another',
    [rule([country('not_equal', 'US')]), rule([country('equal', 'FR')])],
    [[1, 'unreachable', reached()]],
  ],
  [
    'the country left out',
    [rule([country('not_equal', 'US')]), rule([country('equal', 'US')])],
    [],
  ],
  [
    'a list with the country left out',
    [rule([country('not_equal', 'US')]), rule(or(country('equal', 'FR'), country('equal', 'US')))],
    [],
  ],
  [
    'two price ranges that together hold every cart',
    [
      rule(or(price('less_than', 50), price('greater_or_equal', 50))),
      rule([price('greater_or_equal', 40), price('less_or_equal', 60)]),
    ],
    [[1, 'unreachable', everyCart()]],
  ],
  [
    'a later OR with one branch outside',
    [rule([price('less_than', 50)]), rule(or(price('less_than', 10), price('greater_than', 100)))],
    [],
  ],

  // Rules that match every cart.
  [
    'two conditions every cart meets',
    [
      rule([price('greater_or_equal', 0), count('greater_or_equal', 0)]),
      rule([country('equal', 'US')]),
    ],
    [[1, 'unreachable', everyCart()]],
  ],
  [
    'a condition every cart meets beside one that some carts meet',
    [rule([price('greater_or_equal', 0), country('equal', 'US')]), rule([country('equal', 'CA')])],
    [[1, 'countries_uncovered', onlyTo('CA, US')]],
  ],
  [
    'a price above 0 is not every cart',
    [
      rule([price('greater_than', 0), count('greater_or_equal', 0)]),
      rule([country('equal', 'FR')]),
    ],
    [],
  ],
  [
    'a price of at most 100 is not every cart',
    [
      rule([price('less_or_equal', 100), count('greater_or_equal', 0)]),
      rule([country('equal', 'FR')]),
    ],
    [],
  ],
  [
    'a country, its opposite and 31 others: the first 32 branches hold every cart',
    [
      rule(
        or(
          country('not_equal', 'US'),
          country('equal', 'US'),
          ...codes(31).map((code) => country('equal', code)),
        ),
      ),
      rule([price('less_than', 5)]),
    ],
    [[1, 'unreachable', everyCart()]],
  ],
  [
    '33 countries: the first 32 branches do not hold every cart',
    [rule(or(...codes(33).map((code) => country('equal', code)))), rule([price('less_than', 5)])],
    [],
  ],
  [
    'price ranges given from the top hold every cart',
    [
      rule(or(price('greater_or_equal', 50), price('less_than', 50))),
      rule([country('equal', 'FR')]),
    ],
    [[1, 'unreachable', everyCart()]],
  ],
  [
    'three price ranges in any order hold every cart',
    [
      rule(
        or(
          price('greater_or_equal', 100),
          price('less_than', 60),
          and(price('greater_or_equal', 50), price('less_than', 100)),
        ),
      ),
      rule([country('equal', 'FR')]),
    ],
    [[1, 'unreachable', everyCart()]],
  ],
  [
    'price ranges with a gap at 50',
    [rule(or(price('less_than', 50), price('greater_than', 50))), rule([country('equal', 'FR')])],
    [],
  ],
  [
    'price ranges up to 100 only',
    [
      rule(or(price('less_than', 50), and(price('greater_or_equal', 50), price('less_than', 100)))),
      rule([country('equal', 'FR')]),
    ],
    [],
  ],
  [
    'count ranges from 1',
    [
      rule(or(count('greater_or_equal', 1), count('greater_or_equal', 5))),
      rule([count('greater_or_equal', 3)]),
    ],
    [[1, 'unreachable', reached()]],
  ],
  [
    'count ranges from 2',
    [
      rule(or(count('greater_or_equal', 2), count('greater_or_equal', 5))),
      rule([count('greater_or_equal', 3)]),
    ],
    [[1, 'unreachable', reached()]],
  ],

  // The order decides, or not.
  [
    'a range within the earlier one from the same start',
    [
      rule([price('less_or_equal', 60)]),
      rule(or(price('less_or_equal', 40), country('equal', 'FR'))),
    ],
    [],
  ],
  [
    'a range within the earlier one',
    [
      rule([price('less_or_equal', 60)]),
      rule(
        or(and(price('greater_or_equal', 10), price('less_or_equal', 40)), country('equal', 'FR')),
      ),
    ],
    [],
  ],
  [
    'a range within the earlier one to the same end',
    [
      rule([price('less_or_equal', 60)]),
      rule(
        or(and(price('greater_or_equal', 10), price('less_or_equal', 60)), country('equal', 'FR')),
      ),
    ],
    [],
  ],
  [
    'a range holding the earlier one from the same start',
    [
      rule([price('less_or_equal', 40)]),
      rule(or(price('less_or_equal', 60), country('equal', 'FR'))),
    ],
    [],
  ],
  [
    'a range holding the earlier one to the same end',
    [
      rule([price('greater_or_equal', 10), price('less_or_equal', 40)]),
      rule(or(price('less_or_equal', 40), country('equal', 'FR'))),
    ],
    [],
  ],
  [
    'an earlier range above a later one',
    [rule([price('greater_or_equal', 50)]), rule([price('less_or_equal', 60)])],
    [[1, 'order_decides', bothMatch('Cart Price from 50 to 60')]],
  ],
  [
    'ranges that share one value',
    [rule([price('less_or_equal', 50)]), rule([price('greater_or_equal', 50)])],
    [[1, 'order_decides', bothMatch('Cart Price of exactly 50')]],
  ],

  // Boundaries.
  [
    'a boundary is reported once',
    [
      rule([price('less_than', 50)]),
      rule([price('greater_than', 50)], goesOn),
      rule([price('greater_than', 50)]),
    ],
    [
      [
        1,
        'boundary_gap',
        gap('Cart Price', '50', 'Cart Price greater than 50', 'Cart Price less than 50'),
      ],
    ],
  ],
  ['a gap inside one rule', [rule(or(price('less_than', 50), price('greater_than', 50)))], []],
  [
    'a boundary names the condition that sets it (earlier rule below)',
    [
      rule([price('greater_or_equal', 10), price('less_than', 50)]),
      rule([price('greater_than', 50), price('less_or_equal', 100)]),
    ],
    [
      [
        1,
        'boundary_gap',
        gap('Cart Price', '50', 'Cart Price greater than 50', 'Cart Price less than 50'),
      ],
    ],
  ],
  [
    'a boundary names the condition that sets it (earlier rule above)',
    [
      rule([price('greater_than', 50), price('less_or_equal', 100)]),
      rule([price('greater_or_equal', 10), price('less_than', 50)]),
    ],
    [
      [
        1,
        'boundary_gap',
        gap('Cart Price', '50', 'Cart Price less than 50', 'Cart Price greater than 50'),
      ],
    ],
  ],
  [
    'boundaries are listed by the later rule',
    [
      rule(
        or(
          and(country('equal', 'US'), price('greater_than', 50)),
          and(country('equal', 'CA'), count('less_than', 3)),
        ),
      ),
      rule([country('equal', 'CA'), count('greater_than', 3)]),
      rule([country('equal', 'US'), price('less_than', 50)]),
    ],
    [
      [
        1,
        'boundary_gap',
        gap(
          'Cart Retail Product Count',
          '3',
          'Cart Retail Product Count greater than 3',
          'Cart Retail Product Count less than 3',
        ),
      ],
      [
        2,
        'boundary_gap',
        gap('Cart Price', '50', 'Cart Price less than 50', 'Cart Price greater than 50'),
      ],
      [2, 'countries_uncovered', onlyTo('CA, US')],
    ],
  ],
  [
    'a boundary one branch of a third rule takes',
    [
      rule([country('equal', 'US'), price('less_than', 50)]),
      rule([country('equal', 'US'), price('greater_than', 50)]),
      rule(
        or(
          and(country('equal', 'US'), price('equal', 50)),
          and(country('equal', 'CA'), price('equal', 70)),
        ),
      ),
    ],
    [[2, 'countries_uncovered', onlyTo('CA, US')]],
  ],
  [
    'a boundary a third rule takes only in another country',
    [
      rule([country('equal', 'US'), price('less_than', 50)]),
      rule([country('equal', 'US'), price('greater_than', 50)]),
      rule([country('equal', 'CA'), price('equal', 50)]),
    ],
    [
      [
        1,
        'boundary_gap',
        gap('Cart Price', '50', 'Cart Price greater than 50', 'Cart Price less than 50'),
      ],
      [2, 'countries_uncovered', onlyTo('CA, US')],
    ],
  ],

  // Fees.
  [
    'a fee of 4999 that is no fee (free shipping, an unknown action)',
    [
      rule([country('not_equal', 'AQ')], { action_type: 0, action_data: 4999, ...goesOn }),
      rule([country('not_equal', 'AQ')], { action_type: 9, action_data: 4999, ...goesOn }),
      rule([country('not_equal', 'AQ')], { action_type: 6, action_data: 1995 }),
    ],
    [
      [
        2,
        'fee_looks_like_cents',
        'The fee 1995 looks like an amount in cents: fees are typed in currency units (19.95, not 1995).',
      ],
    ],
  ],
];

describe('lintFilters, branch by branch', () => {
  it.each(cases)('%s', (_name, filters, expected) => {
    const warnings = lintFilters(filters).map((w) => [w.filterIndex, w.code, w.message]);
    expect(warnings).toEqual(expected);
  });
});
