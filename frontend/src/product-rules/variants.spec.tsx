import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ProductRuleSummary } from '@ratesmith/contracts/edge';
import { ApiError, ApiProvider, type StoreVariant } from '../api';
import { renderWithPolaris } from '../editor/testing';
import { variantsCovered } from '../pages/ProductRules';
import { fakeGateway } from '../test-utils';
import { ProductPicker } from './ProductPicker';
import type { LoadVariants, ProductPage, StoreProduct } from './types';

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

/** Tee's variants weigh 680, 1000 and 1500 g; Cap's has no weight in Shopify. */
const weighed = (product: StoreProduct): StoreVariant[] =>
  product.variants.edges.map(({ node }, i) => ({
    ...node,
    weight: product === tee ? { amount: [680, 1000, 1500][i]!, unit: 'g' } : null,
  }));
const loadWeights: LoadVariants = async (id) => weighed(id === tee.id ? tee : cap);

describe('picking variants', () => {
  it('limits a product to the variants left checked, and sends a whole product as its id', async () => {
    const user = userEvent.setup();
    const onAdd = jest.fn(async () => undefined);
    renderWithPolaris(
      <ProductPicker
        open
        onClose={() => undefined}
        loadPage={async () => page}
        onAdd={onAdd}
        loadVariants={loadWeights}
      />,
    );
    await user.click(await screen.findByRole('checkbox', { name: /^Tee\b/ }));
    await user.click(screen.getByRole('checkbox', { name: /^Cap\b/ }));
    // A one-variant product offers no variant choice.
    const variants = screen.getByRole('group', { name: /Variants of Tee/ });
    expect(screen.queryByRole('group', { name: /Variants of Cap/ })).toBeNull();
    const boxes = within(variants).getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((b) => b.checked)).toEqual([true, true, true]);
    // Without a shop (no api here) weights show in the unit Shopify gave.
    await waitFor(() => expect(variants.textContent).toContain('Small · 680 g (10.00)'));

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

describe('variant weights', () => {
  const shopInPounds = () =>
    fakeGateway({
      '/api/shop': {
        status: 200,
        body: {
          status: true,
          shop: {
            shop: 'a.myshopify.com',
            currency_code: 'USD',
            money_format: '${{amount}}',
            weight_unit: 'lb',
          },
        },
      },
    }).api;

  it("reads a product's weights when it is checked and shows them in the shop's unit", async () => {
    const user = userEvent.setup();
    const asked: string[] = [];
    let answer: (variants: StoreVariant[]) => void = () => undefined;
    const loadVariants: LoadVariants = (id) => {
      asked.push(id);
      return new Promise((resolve) => (answer = resolve));
    };
    renderWithPolaris(
      <ApiProvider client={shopInPounds()}>
        <ProductPicker
          open
          onClose={() => undefined}
          loadPage={async () => page}
          onAdd={async () => undefined}
          loadVariants={loadVariants}
        />
      </ApiProvider>,
    );
    await screen.findByRole('checkbox', { name: /^Tee\b/ });
    // Nothing is read for products not checked.
    expect(asked).toEqual([]);
    await user.click(screen.getByRole('checkbox', { name: /^Tee\b/ }));
    expect(asked).toEqual([tee.id]);
    const variants = screen.getByRole('group', { name: /Variants of Tee/ });
    expect(within(variants).getByText('Loading weights…')).toBeTruthy();
    expect(within(variants).getByRole('checkbox', { name: 'Small ($10.00)' })).toBeTruthy();

    await act(async () => answer(weighed(tee)));
    expect(within(variants).queryByText('Loading weights…')).toBeNull();
    expect(
      within(variants)
        .getAllByRole('checkbox')
        .map((box) => box.closest('label')?.textContent),
    ).toEqual(['Small · 1.5 lb ($10.00)', 'Medium · 2.2 lb ($10.00)', 'Large · 3.31 lb ($10.00)']);

    await user.click(screen.getByRole('checkbox', { name: /^Cap\b/ }));
    await act(async () => answer(weighed(cap)));
    expect(screen.getByText('No weight in Shopify')).toBeTruthy();
  });

  it('says when the weights could not be read, and reads them again on Retry', async () => {
    const user = userEvent.setup();
    let fail = true;
    const loadVariants: LoadVariants = async (id) => {
      const serverMessage = 'Shopify is busy. Please try again in a moment.';
      if (fail) throw new ApiError(serverMessage, { status: 503, serverMessage });
      return loadWeights(id, new AbortController().signal);
    };
    renderWithPolaris(
      <ApiProvider client={shopInPounds()}>
        <ProductPicker
          open
          onClose={() => undefined}
          loadPage={async () => page}
          onAdd={async () => undefined}
          loadVariants={loadVariants}
        />
      </ApiProvider>,
    );
    await user.click(await screen.findByRole('checkbox', { name: /^Tee\b/ }));
    expect(
      await screen.findByText(
        'Weights could not be loaded: Shopify is busy. Please try again in a moment.',
      ),
    ).toBeTruthy();
    // The variants stay pickable without their weights.
    expect(screen.getByRole('checkbox', { name: 'Small ($10.00)' })).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry loading the weights of Tee' }));
    expect(await screen.findByRole('checkbox', { name: 'Small · 1.5 lb ($10.00)' })).toBeTruthy();
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
