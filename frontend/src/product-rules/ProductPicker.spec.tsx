import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithPolaris } from '../editor/testing';
import { ProductPicker } from './ProductPicker';
import type { PageRequest, ProductPage, StoreProduct } from './types';

const PAGE_SIZE = 15;

const product = (n: number, title = `Product ${n}`): StoreProduct => ({
  id: `gid://shopify/Product/${n}`,
  title,
  images: { edges: [{ node: { url: `https://cdn.example/p${n}.png`, altText: null } }] },
  variants: {
    edges: [
      { node: { id: `gid://shopify/ProductVariant/${n}`, title: 'Default', price: '10.00' } },
    ],
  },
});

/** A small in-memory catalog paged like the gateway: 15 a page, cursors are positions. */
function catalog(products: StoreProduct[]) {
  const requests: PageRequest[] = [];
  const loadPage = async (request: PageRequest): Promise<ProductPage> => {
    requests.push(request);
    const matching = products.filter((p) =>
      p.title.toLowerCase().includes(request.search.toLowerCase()),
    );
    let start = 0;
    if (request.after) start = Number(request.after) + 1;
    if (request.before) start = Math.max(0, Number(request.before) - PAGE_SIZE);
    const slice = matching.slice(start, start + PAGE_SIZE);
    return {
      edges: slice.map((node, i) => ({ cursor: String(start + i), node })),
      pageInfo: {
        hasPreviousPage: start > 0,
        hasNextPage: start + PAGE_SIZE < matching.length,
        startCursor: slice.length ? String(start) : null,
        endCursor: slice.length ? String(start + slice.length - 1) : null,
      },
    };
  };
  // Every variant weighs its product's number in grams.
  const loadVariants = async (productId: string) =>
    products
      .find((p) => p.id === productId)!
      .variants.edges.map(({ node }) => ({
        ...node,
        weight: { amount: Number(productId.split('/').at(-1)), unit: 'g' as const },
      }));
  return { loadPage, loadVariants, requests };
}

const tiles = () =>
  screen.getAllByRole('checkbox').map((box) => box.closest('label')?.textContent ?? '');
const checkbox = (title: string) =>
  screen.getByRole('checkbox', { name: new RegExp(`^${title}\\b`) });

describe('ProductPicker', () => {
  it('pages through 15 at a time and keeps the selection across pages', async () => {
    const user = userEvent.setup();
    const shop = catalog(Array.from({ length: 40 }, (_, i) => product(i + 1)));
    const onAdd = jest.fn(async () => undefined);
    renderWithPolaris(
      <ProductPicker
        open
        onClose={() => undefined}
        loadPage={shop.loadPage}
        onAdd={onAdd}
        loadVariants={shop.loadVariants}
      />,
    );

    await screen.findByRole('checkbox', { name: /^Product 1\b/ });
    expect(screen.getAllByRole('checkbox')).toHaveLength(15);
    expect(tiles()[14]).toContain('Product 15');
    // Nothing chosen: no add button.
    expect(screen.queryByRole('button', { name: /^Add \d+ product/ })).toBeNull();

    await user.click(checkbox('Product 2'));
    expect(screen.getByRole('button', { name: 'Add 1 product' })).toBeTruthy();
    // A checked one-variant product says its weight (the shop's unit unknown here: Shopify's).
    expect(await screen.findByText('Weight: 2 g')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('checkbox', { name: /^Product 16\b/ });
    expect(shop.requests.at(-1)).toEqual({ search: '', after: '14' });
    await user.click(checkbox('Product 20'));

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('checkbox', { name: /^Product 31\b/ });
    expect(screen.getAllByRole('checkbox')).toHaveLength(10);
    expect(screen.getByRole('button', { name: 'Next' }).getAttribute('aria-disabled')).toBe('true');

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await screen.findByRole('checkbox', { name: /^Product 16\b/ });
    expect(shop.requests.at(-1)).toEqual({ search: '', before: '30' });
    expect((checkbox('Product 20') as HTMLInputElement).checked).toBe(true);

    await user.click(checkbox('Product 20'));
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await screen.findByRole('checkbox', { name: /^Product 1\b/ });
    expect((checkbox('Product 2') as HTMLInputElement).checked).toBe(true);
    await user.click(checkbox('Product 3'));

    await user.click(screen.getByRole('button', { name: 'Add 2 products' }));
    expect(onAdd).toHaveBeenCalledWith(['gid://shopify/Product/2', 'gid://shopify/Product/3']);
  });

  it('searches from page 1 and says when nothing matches', async () => {
    const user = userEvent.setup();
    const products = [
      ...Array.from({ length: 20 }, (_, i) => product(i + 1, `Shirt ${i + 1}`)),
      product(21, 'Blue hat'),
      product(22, 'Red hat'),
    ];
    const shop = catalog(products);
    renderWithPolaris(
      <ProductPicker
        open
        onClose={() => undefined}
        loadPage={shop.loadPage}
        onAdd={async () => undefined}
        loadVariants={shop.loadVariants}
        searchDelayMs={0}
      />,
    );
    await screen.findByRole('checkbox', { name: /^Shirt 1\b/ });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('checkbox', { name: /^Shirt 16\b/ });

    await user.type(screen.getByLabelText('Search products'), 'hat');
    await waitFor(() =>
      expect(tiles().map((t) => t.split(/\d+ variant/)[0])).toEqual(['Blue hat', 'Red hat']),
    );
    expect(shop.requests.at(-1)).toEqual({ search: 'hat' });
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();

    await user.type(screen.getByLabelText('Search products'), 'xyz');
    expect(await screen.findByText('No products match “hatxyz”.')).toBeTruthy();
  });

  it('shows a failed load with Retry', async () => {
    const user = userEvent.setup();
    let fail = true;
    const shop = catalog([product(1)]);
    const loadPage = async (request: PageRequest) => {
      if (fail) throw new Error('Shopify is not answering.');
      return shop.loadPage(request);
    };
    renderWithPolaris(
      <ProductPicker
        open
        onClose={() => undefined}
        loadPage={loadPage}
        onAdd={async () => undefined}
        loadVariants={shop.loadVariants}
      />,
    );
    const alert = await screen.findByText('Shopify is not answering.');
    fail = false;
    await act(async () => {
      await user.click(
        within(alert.closest('.Polaris-Banner') as HTMLElement).getByRole('button', {
          name: 'Retry',
        }),
      );
    });
    expect(await screen.findByRole('checkbox', { name: /^Product 1\b/ })).toBeTruthy();
  });
});
