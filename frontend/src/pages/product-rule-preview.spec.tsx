import { draftCondition, draftFilter, draftGroup } from '@ratesmith/contracts/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '../editor/testing';
import { fakeGateway, renderScreen } from '../test-utils';
import EditProductRule from './EditProductRule';

const rule = draftFilter({
  id: 'f1',
  name: 'Per mug',
  raw_query: draftGroup([draftCondition('cart_price', 'greater_or_equal', 0)]),
  action_type: 2,
  action_data: 2,
});

describe('the product-rule editor’s rate preview', () => {
  it('quotes the product rule’s draft in the shop’s currency, offering the shop’s products', async () => {
    const user = userEvent.setup();
    const gw = fakeGateway({
      '/api/product-rules/p1/rules': {
        status: 200,
        body: { status: true, productRule: { id: 'p1', name: 'Mug' }, rules: [rule] },
      },
      '/api/product-rules': {
        status: 200,
        body: { products: { data: [{ id: 'p1', product_id: '42', name: 'Mug' }] } },
      },
      '/api/product-rules/shopify-products': {
        status: 200,
        body: {
          status: true,
          products: {
            edges: [
              { cursor: 'a', node: { id: 'gid://shopify/Product/42', title: 'Mug' } },
              { cursor: 'b', node: { id: 'gid://shopify/Product/43', title: 'Teapot' } },
            ],
            pageInfo: { hasNextPage: false, hasPreviousPage: false },
          },
        },
      },
      '/api/shop': {
        status: 200,
        body: {
          status: true,
          shop: { shop: 'a.myshopify.com', currency_code: 'EUR', money_format: '€{{amount}}' },
        },
      },
      'POST /api/rate-preview': {
        status: 200,
        body: {
          status: true,
          rates: [
            {
              service_name: 'Standard',
              service_code: 'RATESMITH_STANDARD',
              total_price: '400',
              description: '',
              currency: 'EUR',
            },
          ],
          trace: {
            steps: [
              {
                scope: 'product',
                productRuleId: 'p1',
                productId: '42',
                filterId: 'f1',
                filterName: 'Per mug',
                matched: true,
                actionType: 2,
                feeBefore: 0,
                feeAfter: 400,
                stopped: true,
              },
            ],
            freeItems: null,
            matchedAny: true,
            blocked: false,
            fee: 400,
          },
        },
      },
    });
    renderScreen(<EditProductRule />, '/edit-product-rule/p1', gw.api, '/edit-product-rule/:id');
    // The preview is its own chunk: its section once its fields are there.
    const preview = await waitFor(() => {
      const region = screen.getByRole('region', { name: 'Rate preview' });
      within(region).getByLabelText('Currency');
      return region;
    });
    await waitFor(() =>
      expect((within(preview).getByLabelText('Currency') as HTMLInputElement).value).toBe('EUR'),
    );
    const product = within(preview).getByLabelText('Product (optional)');
    await waitFor(() =>
      expect(
        within(product)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['No product', 'Mug', 'Teapot']),
    );
    await user.type(within(preview).getByLabelText('Price'), '10');
    await user.clear(within(preview).getByLabelText('Quantity'));
    await user.type(within(preview).getByLabelText('Quantity'), '2');
    await user.selectOptions(product, '42');
    await user.click(within(preview).getByRole('button', { name: 'Preview rates' }));
    const result = await screen.findByRole('region', { name: 'Preview result' });
    expect(result.textContent).toContain('Standard: €4.00');
    expect(result.textContent).toContain('Product rule (Mug): Per mug');
    const sent = gw.calls.find((c) => c.path === '/api/rate-preview')!.body as {
      rate: unknown;
      draft: { productRuleId: string; rules: { name: string }[] };
    };
    expect(sent.rate).toEqual({
      destination: { country: 'US', province: '', postal_code: '' },
      currency: 'EUR',
      items: [{ price: 1000, quantity: 2, grams: 0, requires_shipping: true, product_id: 42 }],
    });
    expect(sent.draft.productRuleId).toBe('p1');
    expect(sent.draft.rules.map((r) => r.name)).toEqual(['Per mug']);
  });
});
