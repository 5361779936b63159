import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, renderScreen } from '../test-utils';
import Settings from './Settings';
import { arrivalText } from '../delivery-dates';

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
  timezone: 'UTC',
  business_days: [1, 2, 3, 4, 5],
  holidays: [] as string[],
  cutoff_time: null as string | null,
  processing_days: 0,
  delivery_min_days: null as number | null,
  delivery_max_days: null as number | null,
  bump_delivery_min_days: null as number | null,
  bump_delivery_max_days: null as number | null,
  upgrades: [] as Record<string, unknown>[],
};

/** The text of what describes a field (its help and its error, by aria-describedby). */
function describedBy(field: HTMLElement): string {
  return (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

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

  it("saves with numbers and shows the server's errors at their fields when it refuses", async () => {
    const gw = fakeGateway({
      'GET /api/settings': { status: 200, body: { status: true, settings: stored } },
      'POST /api/settings': {
        status: 400,
        body: {
          status: false,
          message: 'Please fix the following errors:',
          errors: ['Carrier name must be at most 160 characters.', 'Holidays are not dates.'],
          fields: { carrier_name: 'Carrier name must be at most 160 characters.' },
        },
      },
    });
    renderScreen(<Settings />, '/settings', gw.api);
    await userEvent.click(await screen.findByLabelText('Offer bump shipping'));
    await userEvent.type(screen.getByLabelText('Bump shipping name'), 'Express');
    await userEvent.selectOptions(screen.getByLabelText('Bump shipping action'), '2');
    await userEvent.type(screen.getByLabelText('Bump shipping cost'), '{backspace}4.5');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const name = screen.getByLabelText('Carrier name');
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(name)).toContain('Carrier name must be at most 160 characters.');
    // The problem of no one field is listed above the form, with the field's.
    const list = screen
      .getByText('2 settings need fixing before they can be saved:')
      .closest('[role="alert"]') as HTMLElement;
    expect(list.textContent).toContain('Holidays are not dates.');
    expect(list.textContent).toContain(
      'Carrier name: Carrier name must be at most 160 characters.',
    );
    expect(gw.calls.find((c) => c.method === 'POST')!.body).toEqual({
      ...stored,
      bump_shipping_enabled: true,
      bump_shipping_name: 'Express',
      bump_shipping_action: 2,
      bump_shipping_cost: 4.5,
    });
    // The server's message stays until its field changes.
    await userEvent.type(screen.getByLabelText('Bump shipping description'), 'Fast');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    await userEvent.type(name, '!');
    expect(name.getAttribute('aria-invalid')).not.toBe('true');
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
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
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
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await within(screen.getByTestId('toasts')).findByText('Settings saved')).toBeTruthy();
    expect(gw.calls.find((c) => c.method === 'POST')!.body).toEqual({
      ...stored,
      recent_checkouts_enabled: false,
      recent_checkouts_days: 3,
    });
  });

  describe('delivery dates and services', () => {
    // Friday 4 December 2026, 15:00 UTC.
    const FRIDAY = Date.parse('2026-12-04T15:00:00Z');
    let clock: jest.SpyInstance;
    beforeEach(() => {
      clock = jest.spyOn(Date, 'now').mockReturnValue(FRIDAY);
    });
    afterEach(() => clock.mockRestore());

    const saving = (settings = stored) =>
      fakeGateway({
        'GET /api/settings': { status: 200, body: { status: true, settings } },
        'POST /api/settings': {
          status: 200,
          body: { status: true, message: 'Settings saved', settings },
        },
      });
    const save = async (gw: ReturnType<typeof fakeGateway>) => {
      await userEvent.click(screen.getByRole('button', { name: 'Save' }));
      expect(await within(screen.getByTestId('toasts')).findByText('Settings saved')).toBeTruthy();
      return gw.calls.find((c) => c.method === 'POST')!.body;
    };

    it('shows the time zone, edits the calendar and the windows, and saves them as numbers', async () => {
      const gw = saving();
      renderScreen(<Settings />, '/settings', gw.api);
      expect(await screen.findByText('UTC')).toBeTruthy();
      expect((screen.getByLabelText('Saturday') as HTMLInputElement).checked).toBe(false);
      await userEvent.click(screen.getByLabelText('Saturday'));
      await userEvent.click(screen.getByLabelText('Monday'));
      await userEvent.type(screen.getByLabelText('Holiday'), '2026-12-25');
      await userEvent.click(screen.getByRole('button', { name: 'Add holiday' }));
      await userEvent.type(screen.getByLabelText('Holiday'), '2026-12-24');
      await userEvent.click(screen.getByRole('button', { name: 'Add holiday' }));
      await userEvent.click(screen.getByRole('button', { name: 'Remove holiday 2026-12-25' }));
      expect(screen.getByText('2026-12-24')).toBeTruthy();
      await userEvent.type(screen.getByLabelText('Order cutoff time'), '14:30');
      await userEvent.clear(screen.getByLabelText('Processing days'));
      await userEvent.type(screen.getByLabelText('Processing days'), '1');
      await userEvent.type(screen.getByLabelText('Regular rate: fewest business days'), '2');
      await userEvent.type(screen.getByLabelText('Regular rate: most business days'), '4');
      expect(await save(gw)).toEqual({
        ...stored,
        business_days: [2, 3, 4, 5, 6],
        holidays: ['2026-12-24'],
        cutoff_time: '14:30',
        processing_days: 1,
        delivery_min_days: 2,
        delivery_max_days: 4,
      });
    });

    it("counts in the store's time zone from Shopify, and saves it, never typed", async () => {
      const gw = fakeGateway({
        'GET /api/settings': { status: 200, body: { status: true, settings: stored } },
        'GET /api/shop': {
          status: 200,
          body: {
            status: true,
            shop: {
              shop: 's.myshopify.com',
              currency_code: 'USD',
              money_format: '${{amount}}',
              weight_unit: 'kg',
              timezone: 'America/New_York',
            },
          },
        },
        'POST /api/settings': {
          status: 200,
          body: { status: true, message: 'Settings saved', settings: stored },
        },
      });
      renderScreen(<Settings />, '/settings', gw.api);
      expect(await screen.findByText('America/New_York')).toBeTruthy();
      expect(screen.queryByLabelText(/time zone/i)).toBeNull();
      // Saved with any edit (the save bar shows for edits only).
      await userEvent.click(screen.getByLabelText('Saturday'));
      expect(await save(gw)).toMatchObject({ timezone: 'America/New_York' });
    });

    it('shows an order placed now with its dates, counted like checkout', async () => {
      renderScreen(<Settings />, '/settings', saving().api);
      await userEvent.type(await screen.findByLabelText('Regular rate: fewest business days'), '2');
      await userEvent.type(screen.getByLabelText('Regular rate: most business days'), '4');
      // Friday 4 ships that day (no cutoff, no processing); 2 business days: Tue 8; 4: Thu 10.
      expect(screen.getByText('Ordered now: arrives Tue 8 – Thu 10 Dec')).toBeTruthy();
      // A 14:00 cutoff: Friday 15:00 counts from Monday 7; +2 Wed 9, +4 Fri 11.
      await userEvent.type(screen.getByLabelText('Order cutoff time'), '14:00');
      expect(screen.getByText('Ordered now: arrives Wed 9 – Fri 11 Dec')).toBeTruthy();
    });

    it('says inline what the rules service would refuse, in its words', async () => {
      renderScreen(<Settings />, '/settings', saving().api);
      await userEvent.type(await screen.findByLabelText('Regular rate: fewest business days'), '5');
      await userEvent.type(screen.getByLabelText('Regular rate: most business days'), '2');
      expect(
        screen.getByText(
          "The regular rate's delivery window has a minimum of 5 days, more than its maximum of 2 days.",
        ),
      ).toBeTruthy();
      expect(screen.queryByText(/^Ordered now/)).toBeNull();
      for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'])
        await userEvent.click(screen.getByLabelText(day));
      expect(screen.getByText('Choose at least one business day.')).toBeTruthy();
    });

    it('adds up to three services, each with its inline problems, removes one, and saves them', async () => {
      const gw = saving();
      renderScreen(<Settings />, '/settings', gw.api);
      const add = () => screen.getByRole('button', { name: 'Add a service' }) as HTMLButtonElement;
      await screen.findByRole('button', { name: 'Add a service' });
      await userEvent.click(add());
      expect(screen.getByText('Service 1 needs a name.')).toBeTruthy();
      await userEvent.type(screen.getByLabelText('Service 1 name'), 'Overnight');
      expect(screen.queryByText('Service 1 needs a name.')).toBeNull();
      await userEvent.clear(screen.getByLabelText('Service 1 cost'));
      await userEvent.type(screen.getByLabelText('Service 1 cost'), '15');
      await userEvent.type(screen.getByLabelText('Service 1: fewest business days'), '1');
      await userEvent.type(screen.getByLabelText('Service 1: most business days'), '1');
      // Friday 4 ships that day; 1 business day: Monday 7.
      expect(screen.getByText('Ordered now: arrives Mon 7 Dec')).toBeTruthy();
      await userEvent.click(add());
      await userEvent.click(add());
      expect(screen.getByLabelText('Service 3 name')).toBeTruthy();
      expect(add().getAttribute('aria-disabled')).toBe('true');
      await userEvent.type(screen.getByLabelText('Service 2 name'), 'Gift');
      await userEvent.selectOptions(screen.getByLabelText('Service 2 price'), '1');
      await userEvent.clear(screen.getByLabelText('Service 2 cost'));
      await userEvent.type(screen.getByLabelText('Service 2 cost'), '50');
      await userEvent.click(screen.getByRole('button', { name: 'Remove Service 3' }));
      expect(add().getAttribute('aria-disabled')).not.toBe('true');
      expect(await save(gw)).toEqual({
        ...stored,
        upgrades: [
          {
            name: 'Overnight',
            description: '',
            action: 2,
            cost: 15,
            delivery_min_days: 1,
            delivery_max_days: 1,
          },
          {
            name: 'Gift',
            description: '',
            action: 1,
            cost: 50,
            delivery_min_days: null,
            delivery_max_days: null,
          },
        ],
      });
    });
  });
});

describe('arrivalText', () => {
  it('writes one day, a range in a month, and a range across months', () => {
    expect(arrivalText('2026-12-07 00:00:00 +0000', '2026-12-07 00:00:00 +0000')).toBe(
      'arrives Mon 7 Dec',
    );
    expect(arrivalText('2026-12-08 00:00:00 -0500', '2026-12-10 00:00:00 -0500')).toBe(
      'arrives Tue 8 – Thu 10 Dec',
    );
    expect(arrivalText('2026-11-30 00:00:00 +1300', '2026-12-02 00:00:00 +1300')).toBe(
      'arrives Mon 30 Nov – Wed 2 Dec',
    );
  });
});
