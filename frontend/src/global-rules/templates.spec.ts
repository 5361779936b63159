import { validateFilters } from '@ratesmith/contracts/filters';
import { RULESET_TEMPLATES } from './templates';

describe('starter rulesets of Add Ruleset', () => {
  it.each(RULESET_TEMPLATES.map((t) => [t.name, t] as const))(
    '%s passes the editor validation and names its amounts',
    (_name, template) => {
      const filters = template.filters();
      expect(filters.length).toBeGreaterThan(0);
      expect(validateFilters(filters, 'ruleset').errors).toEqual([]);
      expect(template.description((n) => `<${n}>`)).toMatch(/<\d+>/);
    },
  );

  it('makes fresh filter ids each time, so two rulesets from one template never share them', () => {
    const [first, second] = [RULESET_TEMPLATES[0]!.filters(), RULESET_TEMPLATES[0]!.filters()];
    expect(first.map((f) => f.id)).not.toEqual(second.map((f) => f.id));
  });

  it('has unique keys', () => {
    const keys = RULESET_TEMPLATES.map((t) => t.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
