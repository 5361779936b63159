import { checkoutWithoutRuleset, withoutRulesetWords } from './withoutRuleset';

const money = (amount: number) => `$${amount.toFixed(2)}`;
const settings = (on: boolean, name = 'Standard') => ({
  fallback_enabled: on,
  fallback_name: name,
  fallback_cost: 7.5,
});
const rules = (n: number) => Array.from({ length: n }, () => ({ enabled: true, filters: 1 }));

describe('what checkout gets without a ruleset, in words', () => {
  it.each([
    [false, 0, 'will', 'Checkout will get no Ratesmith rates.'],
    [
      true,
      0,
      'will',
      'Checkout will get no Ratesmith rates. Instead every cart will get your fallback rate “Standard” at $7.50.',
    ],
    [
      false,
      1,
      'will',
      'Checkout will get no Ratesmith rates, except for carts that your product rule matches.',
    ],
    [
      true,
      3,
      'now',
      'Until a ruleset is enabled, checkout gets no Ratesmith rates, except for carts that one of your 3 product rules matches. Instead every other cart gets your fallback rate “Standard” at $7.50.',
    ],
  ] as const)('fallback %s, %i product rules, %s', (on, count, tense, words) => {
    expect(
      withoutRulesetWords(checkoutWithoutRuleset(settings(on), rules(count)), money, tense),
    ).toBe(words);
  });

  it('counts only enabled product rules with rules, and names an unnamed fallback by its price', () => {
    const facts = checkoutWithoutRuleset(settings(true, '  '), [
      { enabled: false, filters: 2 },
      { enabled: true, filters: 0 },
    ]);
    expect(facts).toEqual({ fallback: { name: '', cost: 7.5 }, productRules: 0 });
    expect(withoutRulesetWords(facts, money, 'will')).toBe(
      'Checkout will get no Ratesmith rates. Instead every cart will get your fallback rate at $7.50.',
    );
  });

  it('says what holds whatever Settings say when the facts could not be read', () => {
    expect(withoutRulesetWords(null, money, 'will')).toBe(
      'Checkout will get no Ratesmith rates from a ruleset: a cart that no product rule matches will get no rate from Ratesmith, or your fallback rate if one is enabled in Settings.',
    );
  });
});
