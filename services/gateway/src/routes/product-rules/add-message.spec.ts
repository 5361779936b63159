import { addedMessage, nameList, nothingAddedMessage } from './add-message';

const p = (title: string) =>
  ({ productId: `gid://shopify/Product/${title.length}`, title }) as never;

describe('add product messages', () => {
  it('counts what was added', () => {
    expect(addedMessage([p('Hat')], [])).toBe('1 product added.');
    expect(addedMessage([p('Hat'), p('Mug')], [])).toBe('2 products added.');
  });

  it('names products that were already added', () => {
    expect(addedMessage([p('Hat')], [p('Mug')])).toBe(
      '1 product added. Already added before, so not added again: Mug.',
    );
    expect(nothingAddedMessage([p('Mug'), p('Hat')])).toBe(
      'Already added: Mug and Hat. No new product rule was created.',
    );
  });

  it('keeps long lists short', () => {
    const many = ['A', 'B', 'C', 'D', 'E', 'F', 'G'].map(p);
    expect(nameList(many)).toBe('A, B, C, D, E and 2 more');
    expect(nameList(many.slice(0, 3))).toBe('A, B and C');
  });
});
