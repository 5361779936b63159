import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, renderScreen } from '../test-utils';
import Settings from './Settings';

const stored = {
  carrier_name: 'Post',
  carrier_description: '',
  bump_shipping_enabled: false,
  bump_shipping_name: '',
  bump_shipping_description: '',
  bump_shipping_action: null,
  bump_shipping_cost: 0,
  fallback_enabled: false,
  fallback_name: '',
  fallback_description: '',
  fallback_cost: 0,
  recent_checkouts_enabled: true,
  recent_checkouts_per_minute: 6,
  recent_checkouts_days: 14,
};

describe('the settings form', () => {
  it('tells the merchant when the settings cannot be loaded (the original only logged it)', async () => {
    const gw = fakeGateway({ '/api/settings': { status: 503, body: { status: false } } });
    renderScreen(<Settings />, '/settings', gw.api);
    const toasts = await screen.findByTestId('toasts');
    expect((await within(toasts).findByRole('alert')).textContent).toContain('Data Fetch Failed');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('counts characters up to 160 and keeps bump inputs off until bump shipping is on', async () => {
    const gw = fakeGateway({
      '/api/settings': { status: 200, body: { status: true, settings: stored } },
    });
    renderScreen(<Settings />, '/settings', gw.api);
    const name = (await screen.findByLabelText('Carrier name')) as HTMLInputElement;
    expect(name.value).toBe('Post');
    expect(name.maxLength).toBe(160);
    expect(screen.getByText('4/160')).toBeTruthy();
    expect((screen.getByLabelText('Bump shipping name') as HTMLInputElement).disabled).toBe(true);
    await userEvent.click(screen.getByLabelText('Offer bump shipping'));
    expect((screen.getByLabelText('Bump shipping name') as HTMLInputElement).disabled).toBe(false);
  });

  it("saves with numbers and shows the server's errors when it refuses", async () => {
    const gw = fakeGateway({
      'GET /api/settings': { status: 200, body: { status: true, settings: stored } },
      'POST /api/settings': {
        status: 400,
        body: {
          status: false,
          message: 'Please fix the following errors:',
          errors: ['Bump shipping needs a name when it is enabled.'],
        },
      },
    });
    renderScreen(<Settings />, '/settings', gw.api);
    await userEvent.click(await screen.findByLabelText('Offer bump shipping'));
    await userEvent.selectOptions(screen.getByLabelText('Bump shipping action'), '2');
    await userEvent.type(screen.getByLabelText('Bump shipping cost'), '{backspace}4.5');
    await userEvent.click(screen.getAllByRole('button', { name: 'Save' })[0]!);
    const toasts = screen.getByTestId('toasts');
    expect((await within(toasts).findByRole('alert')).textContent).toContain(
      'Please fix the following errors: Bump shipping needs a name when it is enabled.',
    );
    expect(gw.calls.find((c) => c.method === 'POST')!.body).toEqual({
      ...stored,
      bump_shipping_enabled: true,
      bump_shipping_action: 2,
      bump_shipping_cost: 4.5,
    });
  });

  it('keeps the fallback inputs off until the fallback rate is on, and saves its amount as a number', async () => {
    const gw = fakeGateway({
      'GET /api/settings': { status: 200, body: { status: true, settings: stored } },
      'POST /api/settings': {
        status: 200,
        body: {
          status: true,
          message: 'Settings saved',
          settings: {
            ...stored,
            fallback_enabled: true,
            fallback_name: 'Standard',
            fallback_cost: 7.5,
          },
        },
      },
    });
    renderScreen(<Settings />, '/settings', gw.api);
    const name = (await screen.findByLabelText('Fallback rate name')) as HTMLInputElement;
    expect(name.disabled).toBe(true);
    expect((screen.getByLabelText('Fallback rate amount') as HTMLInputElement).disabled).toBe(true);
    await userEvent.click(screen.getByLabelText('Offer a fallback rate'));
    expect(name.disabled).toBe(false);
    await userEvent.type(name, 'Standard');
    await userEvent.type(screen.getByLabelText('Fallback rate amount'), '{backspace}7.5');
    await userEvent.click(screen.getAllByRole('button', { name: 'Save' })[0]!);
    expect(await within(screen.getByTestId('toasts')).findByText('Settings saved')).toBeTruthy();
    expect(gw.calls.find((c) => c.method === 'POST')!.body).toEqual({
      ...stored,
      fallback_enabled: true,
      fallback_name: 'Standard',
      fallback_cost: 7.5,
    });
  });

  it('turns Recent checkouts off (their inputs with it) and saves its counts as numbers', async () => {
    const gw = fakeGateway({
      'GET /api/settings': { status: 200, body: { status: true, settings: stored } },
      'POST /api/settings': {
        status: 200,
        body: {
          status: true,
          message: 'Settings saved',
          settings: { ...stored, recent_checkouts_enabled: false, recent_checkouts_days: 3 },
        },
      },
    });
    renderScreen(<Settings />, '/settings', gw.api);
    const days = (await screen.findByLabelText('Days kept')) as HTMLInputElement;
    expect(days.value).toBe('14');
    await userEvent.clear(days);
    await userEvent.type(days, '3');
    await userEvent.click(screen.getByLabelText('Keep recent checkouts'));
    expect(days.disabled).toBe(true);
    expect((screen.getByLabelText('Checkouts sampled a minute') as HTMLInputElement).disabled).toBe(
      true,
    );
    await userEvent.click(screen.getAllByRole('button', { name: 'Save' })[0]!);
    expect(await within(screen.getByTestId('toasts')).findByText('Settings saved')).toBeTruthy();
    expect(gw.calls.find((c) => c.method === 'POST')!.body).toEqual({
      ...stored,
      recent_checkouts_enabled: false,
      recent_checkouts_days: 3,
    });
  });
});
