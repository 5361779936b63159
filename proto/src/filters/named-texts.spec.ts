import type { SnapshotFilter } from '../snapshot';
import { namedProductTexts } from './named-texts';

const condition = (field: string, value: unknown) => ({
  id: `c-${field}`,
  type: 'condition' as const,
  field,
  operator: 'any_equal',
  value: value as string,
});
const withQuery = (rules: SnapshotFilter['raw_query']['rules']) =>
  ({ raw_query: { id: 'g', condition: 'AND', rules } }) as SnapshotFilter;

describe('namedProductTexts', () => {
  it('collects the types and tags of every list, nested groups included, normalised', () => {
    const named = namedProductTexts([
      [
        withQuery([
          condition('cart_item_product_tag', ' Oversize '),
          {
            id: 'inner',
            type: 'group',
            condition: 'OR',
            rules: [
              condition('cart_item_product_type', 'BOOTS'),
              condition('cart_item_product_tag', 'oversize'),
            ],
          },
        ]),
      ],
      [withQuery([condition('cart_item_product_tag', 'Fragile')])],
    ]);
    expect(named).toEqual({ types: new Set(['boots']), tags: new Set(['oversize', 'fragile']) });
  });

  it('names nothing for vendors, SKUs and other fields, or an incomplete value', () => {
    const named = namedProductTexts([
      [
        withQuery([
          condition('cart_item_vendor', 'Acme'),
          condition('cart_item_sku', 'AB'),
          condition('shipping_country', 'US'),
          condition('cart_item_product_tag', null),
        ]),
      ],
    ]);
    expect(named).toEqual({ types: new Set(), tags: new Set() });
  });
});
