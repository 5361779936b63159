import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CarrierServiceState } from '../api';
import { fakeGateway, renderScreen } from '../test-utils';
import { CarrierServiceBanner, CarrierServiceCard } from './CarrierServiceStatus';

const reply = (
  state: CarrierServiceState,
  detail = '',
  zones: { asking: number; total: number } | null = null,
) => ({
  status: 200,
  body: {
    status: true,
    message: state === 'active' ? 'Checkout uses Ratesmith.' : 'Checked with Shopify.',
    carrier_service: { state, detail, checked_at: '2026-11-23T10:00:00.000Z', zones },
  },
});

describe('the carrier service status', () => {
  it('says nothing on the Dashboard while checkout uses Ratesmith', async () => {
    const gw = fakeGateway({ '/api/carrier-service': reply('active') });
    renderScreen(<CarrierServiceBanner />, '/', gw.api);
    await screen.findByTestId('toasts');
    await new Promise((r) => setTimeout(r, 20));
    expect(gw.calls.map((c) => c.path)).toEqual(['/api/carrier-service']);
    expect(screen.queryByRole('button', { name: 'Check again' })).toBeNull();
    expect(screen.queryByText(/checkout/i)).toBeNull();
  });

  it('explains a plan without calculated shipping, with Shopify’s reason, and checks again', async () => {
    const gw = fakeGateway({
      'GET /api/carrier-service': reply(
        'needs_plan',
        'Carrier Calculated Shipping must be enabled.',
      ),
      'POST /api/carrier-service/check': reply('active'),
    });
    renderScreen(<CarrierServiceBanner />, '/', gw.api);
    expect(
      await screen.findByText('Checkout cannot use Ratesmith on your current Shopify plan'),
    ).toBeTruthy();
    expect(screen.getByText(/Advanced Shopify or higher/)).toBeTruthy();
    expect(screen.getByText('Details: Carrier Calculated Shipping must be enabled.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Check again' }));
    const toasts = screen.getByTestId('toasts');
    expect((await within(toasts).findByRole('status')).textContent).toContain(
      'Checkout uses Ratesmith.',
    );
    expect(screen.queryByRole('button', { name: 'Check again' })).toBeNull();
    expect(gw.calls.at(-1)).toMatchObject({ method: 'POST', path: '/api/carrier-service/check' });
  });

  it('keeps the banner and says why when the check itself fails', async () => {
    const gw = fakeGateway({
      'GET /api/carrier-service': reply('inactive'),
      'POST /api/carrier-service/check': {
        status: 503,
        body: { status: false, message: 'Shopify cannot be reached right now.' },
      },
    });
    renderScreen(<CarrierServiceBanner />, '/', gw.api);
    expect(await screen.findByText('Ratesmith is disabled in your shipping settings')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Check again' }));
    const toasts = screen.getByTestId('toasts');
    expect((await within(toasts).findByRole('alert')).textContent).toContain(
      'Shopify cannot be reached right now.',
    );
    expect(screen.getByText('Ratesmith is disabled in your shipping settings')).toBeTruthy();
  });

  it.each([
    ['active', 'Enabled', /Shopify asks Ratesmith for shipping rates at checkout/],
    ['needs_plan', 'Plan required', /current Shopify plan/],
    ['inactive', 'Disabled', /disabled in your shipping settings/],
    ['error', 'Error', /could not confirm/],
    ['unknown', 'Not checked yet', /not confirmed its connection/],
  ] as const)(
    'the Settings card shows %s as a badge and a sentence',
    async (state, badge, text) => {
      const gw = fakeGateway({ '/api/carrier-service': reply(state) });
      renderScreen(<CarrierServiceCard />, '/settings', gw.api);
      expect(await screen.findByText(badge)).toBeTruthy();
      expect(screen.getByText(text)).toBeTruthy();
    },
  );

  it('the Settings card offers a retry when the status cannot be loaded', async () => {
    const gw = fakeGateway({
      '/api/carrier-service': { status: 503, body: { status: false, message: 'Try later.' } },
    });
    renderScreen(<CarrierServiceCard />, '/settings', gw.api);
    expect(await screen.findByText('The checkout connection could not be loaded')).toBeTruthy();
    gw.calls.length = 0;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(gw.calls.map((c) => c.path)).toEqual(['/api/carrier-service']);
  });

  it('the Settings card says in how many shipping zones checkout asks Ratesmith', async () => {
    const gw = fakeGateway({
      '/api/carrier-service': reply('active', '', { asking: 3, total: 5 }),
    });
    renderScreen(<CarrierServiceCard />, '/settings', gw.api);
    expect(await screen.findByText(/Asked in 3 of 5 shipping zones\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Choose shipping zones' }).getAttribute('href')).toBe(
      '/shipping-zones',
    );
    expect(screen.queryByText(/In no shipping zone/)).toBeNull();
  });

  it('the Settings card warns when checkout asks Ratesmith in no shipping zone', async () => {
    const gw = fakeGateway({
      '/api/carrier-service': reply('active', '', { asking: 0, total: 4 }),
    });
    renderScreen(<CarrierServiceCard />, '/settings', gw.api);
    expect(
      await screen.findByText('In no shipping zone: checkout never asks Ratesmith'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Choose shipping zones' }).getAttribute('href')).toBe(
      '/shipping-zones',
    );
  });

  it('the Settings card says nothing of zones before they are read', async () => {
    const gw = fakeGateway({ '/api/carrier-service': reply('active') });
    renderScreen(<CarrierServiceCard />, '/settings', gw.api);
    expect(await screen.findByText('Enabled')).toBeTruthy();
    expect(screen.queryByText(/shipping zone/)).toBeNull();
  });
});
