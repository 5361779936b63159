import { formatWeight } from './weight';

describe('formatWeight', () => {
  it.each([
    [{ amount: 680, unit: 'g' }, 'lb', '1.5 lb'],
    [{ amount: 680, unit: 'g' }, 'kg', '0.68 kg'],
    [{ amount: 680, unit: 'g' }, 'oz', '23.99 oz'],
    [{ amount: 1.5, unit: 'lb' }, 'g', '680 g'],
    [{ amount: 2500, unit: 'g' }, 'g', '2,500 g'],
    [{ amount: 0, unit: 'g' }, 'kg', '0 kg'],
  ] as const)('%j in %s is %s', (weight, unit, text) => {
    expect(formatWeight(weight, unit, 'en-US')).toBe(text);
  });

  it("follows the admin's number formatting", () => {
    expect(formatWeight({ amount: 1250, unit: 'g' }, 'kg', 'de-DE')).toBe('1,25 kg');
  });
});
