import { screen, waitFor } from '@testing-library/react';
import { createApiClient } from '../api';
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

describe('the shop currency in Settings', () => {
  it('is asked beside the settings, so the form shows it from its first render', async () => {
    const gw = fakeGateway({
      '/api/settings': { status: 200, body: { status: true, settings: settings(2) } },
      '/api/shop': shop('EUR'),
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The settings answer only once released: the shop's question must not wait for them.
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).startsWith('/api/settings')) await held;
      return gw.fetch(input, init);
    }) as typeof globalThis.fetch;
    renderScreen(<Settings />, '/settings', createApiClient({ tokens: { kind: 'none' }, fetch }));
    await waitFor(() => expect(gw.calls.map((c) => c.path)).toContain('/api/shop'));
    expect(gw.calls.map((c) => c.path)).not.toContain('/api/settings');
    release();
    const cost = await screen.findByLabelText('Bump shipping cost');
    // No waiting: the form's first render already has the currency.
    expect((cost.closest('.Polaris-TextField') as HTMLElement).textContent).toContain('€');
  });
});
