import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ProductRuleSummary } from '@ratesmith/contracts/edge';
import { renderWithPolaris } from '../editor/testing';
import { variantsCovered } from '../pages/ProductRules';
import { ProductPicker } from './ProductPicker';
import type { ProductPage, StoreProduct } from './types';

const tee: StoreProduct = {
  id: 'gid://shopify/Product/1',
  title: 'Tee',
  images: { edges: [] },
  variants: {
    edges: ['Small', 'Medium', 'Large'].map((title, i) => ({
      node: { id: `gid://shopify/ProductVariant/${i + 11}`, title, price: '10.00' },
    })),
  },
};
const cap: StoreProduct = {
  ...tee,
  id: 'gid://shopify/Product/2',
  title: 'Cap',
  variants: {
    edges: [{ node: { id: 'gid://shopify/ProductVariant/21', title: 'Default', price: '5.00' } }],
  },
};
const page: ProductPage = {
  edges: [tee, cap].map((node, i) => ({ cursor: String(i), node })),
  pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: '0', endCursor: '1' },
};

describe('picking variants', () => {
  it('limits a product to the variants left checked, and sends a whole product as its id', async () => {
    const user = userEvent.setup();
    const onAdd = jest.fn(async () => undefined);
    renderWithPolaris(
      <ProductPicker open onClose={() => undefined} loadPage={async () => page} onAdd={onAdd} />,
    );
    await user.click(await screen.findByRole('checkbox', { name: /^Tee\b/ }));
    await user.click(screen.getByRole('checkbox', { name: /^Cap\b/ }));
    // A one-variant product offers no variant choice.
    const variants = screen.getByRole('group', { name: /Variants of Tee/ });
    expect(screen.queryByRole('group', { name: /Variants of Cap/ })).toBeNull();
    const boxes = within(variants).getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((b) => b.checked)).toEqual([true, true, true]);
    expect(variants.textContent).toContain('Small (10.00)');

    // None left: Add waits for at least one.
    for (const box of boxes) await user.click(box);
    expect(screen.getByText('Pick at least one variant of each selected product.')).toBeTruthy();
    const add = screen.getByRole('button', { name: 'Add 2 products' });
    expect(add.getAttribute('aria-disabled') ?? String((add as HTMLButtonElement).disabled)).toBe(
      'true',
    );

    await user.click(within(variants).getByRole('checkbox', { name: /^Large/ }));
    await user.click(within(variants).getByRole('checkbox', { name: /^Small/ }));
    await user.click(screen.getByRole('button', { name: 'Add 2 products' }));
    expect(onAdd).toHaveBeenCalledWith([
      {
        id: 'gid://shopify/Product/1',
        variant_ids: ['gid://shopify/ProductVariant/11', 'gid://shopify/ProductVariant/13'],
      },
      'gid://shopify/Product/2',
    ]);
  });
});

describe('the list says which variants a rule covers', () => {
  const rule = (variant_ids: string[], count = 3) =>
    ({
      variants_count: count,
      variant_ids,
      metadata: {
        image: { src: '' },
        variants: [
          { id: '11', title: 'Small', price: '10.00' },
          { id: '12', title: 'Medium', price: '10.00' },
          { id: '13', title: 'Large', price: '10.00' },
        ],
      },
    }) as unknown as ProductRuleSummary;

  it.each([
    [[], 3, 'All 3 variants'],
    [[], 1, '1 variant'],
    [['11', '13'], 3, '2 of 3 variants: Small, Large'],
    [['99'], 3, '1 of 3 variants: 99'],
  ])('%j of %d: %s', (ids, count, text) => {
    expect(variantsCovered(rule(ids, count))).toBe(text);
  });
});
