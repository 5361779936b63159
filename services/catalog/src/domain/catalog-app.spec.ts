import { AppError } from '@ratesmith/kit';
import { LIMITS } from '@ratesmith/contracts';
import { normaliseIds } from './catalog-app';

describe('normaliseIds', () => {
  it('accepts product gids and bare numbers, as unique gids in the order given', () => {
    expect(
      normaliseIds(['gid://shopify/Product/7', ' 8 ', '7', 'gid://shopify/Product/8']),
    ).toEqual(['gid://shopify/Product/7', 'gid://shopify/Product/8']);
  });

  it('refuses ids that are not product ids', () => {
    for (const bad of ['gid://shopify/Order/1', 'abc', '', '1'.repeat(21), '-1']) {
      expect(() => normaliseIds([bad])).toThrow(
        new AppError('invalid_data', 'One of the selected products has an unknown id.'),
      );
    }
  });

  it('needs at least one and at most the limit', () => {
    expect(() => normaliseIds([])).toThrow('Please select at least one product.');
    const many = Array.from({ length: LIMITS.productsPerAdd + 1 }, (_, i) => String(i + 1));
    expect(() => normaliseIds(many)).toThrow(
      `At most ${LIMITS.productsPerAdd} products can be added at once.`,
    );
    expect(normaliseIds(many.slice(1))).toHaveLength(LIMITS.productsPerAdd);
  });
});
