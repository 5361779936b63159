import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setWeightUnit } from '../editor/model';
import '../editor/testing';
import { fakeGateway, renderScreen } from '../test-utils';
import EditProductRule from './EditProductRule';

afterEach(() => setWeightUnit('kg'));

/** New weights start in the shop's default weight unit (Shopify's Shop.weightUnit, through GET /api/shop). */
describe("the shop's weight unit in the editor", () => {
  it.each([
    ['lb', 'lb'],
    ['oz', 'oz'],
  ])('a shop weighing in %s gets new weights in %s', async (unit, shown) => {
    const user = userEvent.setup();
    const gw = fakeGateway({
      '/api/product-rules/p1/rules': {
        status: 200,
        body: { status: true, productRule: { id: 'p1', name: 'Mug' }, rules: [] },
      },
      '/api/product-rules': { status: 200, body: { products: { data: [] } } },
      '/api/shop': {
        status: 200,
        body: {
          status: true,
          shop: {
            shop: 'a.myshopify.com',
            currency_code: 'USD',
            money_format: '${{amount}}',
            weight_unit: unit,
          },
        },
      },
    });
    renderScreen(<EditProductRule />, '/edit-product-rule/p1', gw.api, '/edit-product-rule/:id');
    await waitFor(() => expect(gw.calls.map((c) => c.path)).toContain('/api/shop'));
    await user.click(await screen.findByRole('button', { name: 'Add Rule' }));
    const conditions = screen.getByRole('region', { name: 'Conditions' });
    await user.click(within(conditions).getByRole('button', { name: 'Add condition' }));
    await user.selectOptions(within(conditions).getByLabelText('Field'), 'cart_weight');
    const unitSelect = within(conditions).getByLabelText('Weight unit') as HTMLSelectElement;
    expect(unitSelect.value).toBe(shown);
  });
});
