import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '../editor/testing';
import { fakeGateway, renderScreen } from '../test-utils';
import ProductRules from './ProductRules';

const rule = (id: string, name: string, active: boolean, variants: number) => ({
  id,
  product_id: `gid://shopify/Product/${id.slice(1)}`,
  name,
  image: `https://cdn.example/${id}.png`,
  metadata: { image: { src: `https://cdn.example/${id}.png` }, variants: [] },
  variants_count: variants,
  variant_ids: [],
  active,
  filters: [],
  created_at: '2026-11-22T10:00:00Z',
});

const listReply = (rules: unknown[]) => ({ status: 200, body: { products: { data: rules } } });

function setup() {
  const gateway = fakeGateway({
    '/api/product-rules': listReply([
      rule('r1', 'Blue hat', true, 3),
      rule('r2', 'Red scarf', false, 1),
    ]),
    '/api/product-rules/r1/toggle': {
      status: 200,
      body: { status: true, message: 'Product rule disabled.' },
    },
    'DELETE /api/product-rules/r2': {
      status: 200,
      body: { status: true, message: 'Product rule deleted.' },
    },
    '/api/product-rules/shopify-products': {
      status: 200,
      body: {
        status: true,
        products: {
          edges: [
            {
              cursor: 'c1',
              node: {
                id: 'gid://shopify/Product/7',
                title: 'Green mug',
                images: { edges: [] },
                variants: { edges: [{ node: { id: 'v7', title: 'Default', price: '9.00' } }] },
              },
            },
          ],
          pageInfo: {
            hasNextPage: false,
            hasPreviousPage: false,
            startCursor: 'c1',
            endCursor: 'c1',
          },
        },
      },
    },
    '/api/product-rules/shopify-products/7/variants': {
      status: 200,
      body: {
        status: true,
        variants: [
          { id: 'v7', title: 'Default', price: '9.00', weight: { amount: 680, unit: 'g' } },
        ],
      },
    },
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
    'POST /api/product-rules/add-shopify-product': {
      status: 200,
      body: { status: true, message: '1 product added.' },
    },
  });
  renderScreen(<ProductRules />, '/product-rules', gateway.api);
  return gateway;
}

const calls = (gateway: ReturnType<typeof fakeGateway>) =>
  gateway.calls.map((call) => `${call.method} ${call.path.split('?')[0]}`);

describe('ProductRules', () => {
  it('lists each rule with its image, name, variant count and status; toggles and reloads', async () => {
    const user = userEvent.setup();
    const gateway = setup();
    const row = (await screen.findByText('Blue hat')).closest('tr') as HTMLElement;
    expect(within(row).getByRole('img', { name: 'Blue hat' }).getAttribute('src')).toBe(
      'https://cdn.example/r1.png',
    );
    expect(within(row).getByText('All 3 variants')).toBeTruthy();
    expect(within(row).getByText('Enabled')).toBeTruthy();
    const other = screen.getByText('Red scarf').closest('tr') as HTMLElement;
    expect(within(other).getByText('1 variant')).toBeTruthy();
    expect(within(other).getByText('Disabled')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Disable Blue hat' }));
    expect(await screen.findByText('Product rule disabled.')).toBeTruthy();
    await waitFor(() =>
      expect(calls(gateway)).toEqual([
        'GET /api/product-rules',
        'GET /api/product-rules/r1/toggle',
        'GET /api/product-rules',
      ]),
    );
  });

  it('deletes only after the confirmation', async () => {
    const user = userEvent.setup();
    const gateway = setup();
    await user.click(await screen.findByRole('button', { name: 'Delete Red scarf' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete product rule?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls(gateway)).not.toContain('DELETE /api/product-rules/r2');

    await user.click(screen.getByRole('button', { name: 'Delete Red scarf' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('Product rule deleted.')).toBeTruthy();
    expect(calls(gateway)).toContain('DELETE /api/product-rules/r2');
  });

  it('adds the picked products', async () => {
    const user = userEvent.setup();
    const gateway = setup();
    await screen.findByText('Blue hat');
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Green mug' }));
    // Its weight, read on the check, in the shop's unit (680 g in pounds).
    expect(await screen.findByText('Weight: 1.5 lb')).toBeTruthy();
    expect(calls(gateway)).toContain('GET /api/product-rules/shopify-products/7/variants');
    await user.click(screen.getByRole('button', { name: 'Add 1 product' }));
    expect(await screen.findByText('1 product added.')).toBeTruthy();
    const add = gateway.calls.find((c) => c.path === '/api/product-rules/add-shopify-product');
    expect(add?.body).toEqual({ products: ['gid://shopify/Product/7'] });
  });

  it('shows a failed load with Retry', async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway({
      '/api/product-rules': {
        status: 503,
        body: { status: false, message: 'Rules are unavailable.' },
      },
    });
    renderScreen(<ProductRules />, '/product-rules', gateway.api);
    expect(await screen.findByText('Rules are unavailable.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(gateway.calls).toHaveLength(2));
  });
});
