import { screen, waitFor } from '@testing-library/react';
import { fakeGateway, renderScreen } from '../test-utils';
import Settings from './Settings';

const settings = (action: 1 | 2) => ({
  carrier_name: '',
  carrier_description: '',
  bump_shipping_enabled: true,
  bump_shipping_name: 'Express',
  bump_shipping_description: '',
  bump_shipping_action: action,
  bump_shipping_cost: 4,
});
const shop = (currency_code: string) => ({
  status: 200,
  body: { status: true, shop: { shop: 'a.myshopify.com', currency_code, money_format: '' } },
});

/** The bump cost's sign: the shop's currency for a fixed fee, % for a percent, never a hard-coded $. */
describe('the bump cost in Settings', () => {
  it.each([
    ['EUR', '€'],
    ['GBP', '£'],
  ])('a fixed fee in a %s shop is prefixed %s', async (code, sign) => {
    const gw = fakeGateway({
      '/api/settings': { status: 200, body: { status: true, settings: settings(2) } },
      '/api/shop': shop(code),
    });
    renderScreen(<Settings />, '/settings', gw.api);
    const cost = await screen.findByLabelText('Bump shipping cost');
    const field = cost.closest('.Polaris-TextField') as HTMLElement;
    await waitFor(() => expect(field.textContent).toContain(sign));
    expect(field.textContent).not.toContain('$');
  });

  it('a percent shows % and no currency', async () => {
    const gw = fakeGateway({
      '/api/settings': { status: 200, body: { status: true, settings: settings(1) } },
      '/api/shop': shop('EUR'),
    });
    renderScreen(<Settings />, '/settings', gw.api);
    const cost = await screen.findByLabelText('Bump shipping cost');
    const field = cost.closest('.Polaris-TextField') as HTMLElement;
    await waitFor(() => expect(field.textContent).toContain('%'));
    expect(field.textContent).not.toContain('€');
  });
});
