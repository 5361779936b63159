import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Link, RouterProvider } from 'react-router-dom';
import { ApiProvider } from '../api';
import { AppProviders } from '../AppProviders';
import '../editor/testing';
import { fakeGateway, renderScreen } from '../test-utils';
import Settings from './Settings';

/**
 * Settings keeps no edit silently: a save bar (Save, Discard) while there are
 * unsaved edits, a prompt before leaving, and each refused value said at its
 * field (aria-invalid, described by the message) until it is fixed.
 */

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
  cutoff_time: null,
  processing_days: 0,
  delivery_min_days: null,
  delivery_max_days: null,
  bump_delivery_min_days: null,
  bump_delivery_max_days: null,
  upgrades: [] as Record<string, unknown>[],
};

const gateway = (post?: { status: number; body: unknown }) =>
  fakeGateway({
    'GET /api/settings': { status: 200, body: { status: true, settings: stored } },
    'POST /api/settings': post ?? {
      status: 200,
      body: { status: true, message: 'Settings saved.', settings: stored },
    },
  });

const saveBar = () => screen.queryByRole('region', { name: 'Unsaved changes' });
const posts = (gw: ReturnType<typeof fakeGateway>) => gw.calls.filter((c) => c.method === 'POST');

function describedBy(field: HTMLElement): string {
  return (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

describe('the save bar of Settings', () => {
  it('shows Save and Discard only while there are unsaved edits; Discard goes back to the saved settings', async () => {
    const user = userEvent.setup();
    renderScreen(<Settings />, '/settings', gateway().api);
    const name = (await screen.findByLabelText('Carrier name')) as HTMLInputElement;
    expect(saveBar()).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();

    await user.type(name, ' Express');
    const bar = saveBar()!;
    expect(within(bar).getByRole('button', { name: 'Save' })).toBeTruthy();
    await user.click(within(bar).getByRole('button', { name: 'Discard' }));
    expect(name.value).toBe('Post');
    expect(saveBar()).toBeNull();

    // Typed back to what is saved: nothing to save.
    await user.type(name, 'x');
    expect(saveBar()).not.toBeNull();
    await user.type(name, '{backspace}');
    expect(saveBar()).toBeNull();
  });

  it('saves from the bar, which then goes', async () => {
    const user = userEvent.setup();
    const gw = gateway();
    renderScreen(<Settings />, '/settings', gw.api);
    await user.click(await screen.findByLabelText('Keep recent checkouts'));
    await user.click(within(saveBar()!).getByRole('button', { name: 'Save' }));
    expect(await within(screen.getByTestId('toasts')).findByText('Settings saved.')).toBeTruthy();
    expect(posts(gw)).toHaveLength(1);
    // The server answered the stored settings (recent checkouts on): the form shows them, saved.
    await waitFor(() => expect(saveBar()).toBeNull());
  });

  it('asks before leaving with unsaved edits: in the app, and on reload or closing the tab', async () => {
    const user = userEvent.setup();
    const gw = gateway();
    const router = createMemoryRouter(
      [
        {
          path: '/settings',
          element: (
            <>
              <Link to="/faq">FAQ</Link>
              <Settings />
            </>
          ),
        },
        { path: '/faq', element: <p>The FAQ</p> },
      ],
      { initialEntries: ['/settings'] },
    );
    render(
      <ApiProvider client={gw.api}>
        <AppProviders>
          <RouterProvider router={router} />
        </AppProviders>
      </ApiProvider>,
    );
    const name = await screen.findByLabelText('Carrier name');
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    await user.type(name, '!');
    expect(unload()).toBe(true);

    await user.click(screen.getByRole('link', { name: 'FAQ' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    expect(dialog.textContent).toContain('Your changes to these settings are not saved.');
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/settings');
    expect((screen.getByLabelText('Carrier name') as HTMLInputElement).value).toBe('Post!');

    await user.click(screen.getByRole('link', { name: 'FAQ' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave page' }),
    );
    expect(await screen.findByText('The FAQ')).toBeTruthy();
  });
});

describe('refused settings, at their fields', () => {
  it('refuses bump shipping without its pricing chosen or its cost, before any request, at each field until fixed', async () => {
    const user = userEvent.setup();
    const gw = gateway();
    renderScreen(<Settings />, '/settings', gw.api);
    await user.click(await screen.findByLabelText('Offer bump shipping'));
    await user.type(screen.getByLabelText('Bump shipping name'), 'Express');
    const action = screen.getByLabelText('Bump shipping action');
    const cost = screen.getByLabelText('Bump shipping cost');
    await user.clear(cost);
    // Nothing said before Save.
    expect(action.getAttribute('aria-invalid')).not.toBe('true');
    await user.click(within(saveBar()!).getByRole('button', { name: 'Save' }));

    expect(posts(gw)).toEqual([]);
    expect(action.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(action)).toContain(
      'Choose how bump shipping is priced: a percent or a static fee on top.',
    );
    expect(cost.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(cost)).toContain('Enter the bump shipping cost');
    // Announced, and the first refused field gets the focus.
    const list = screen
      .getByText('2 settings need fixing before they can be saved:')
      .closest('[role="alert"]') as HTMLElement;
    expect(list.textContent).toContain('Bump shipping action: Choose how');
    await waitFor(() => expect(document.activeElement).toBe(action));
    // No toast that goes by itself: the messages stay where they are.
    expect(within(screen.getByTestId('toasts')).queryByRole('alert')).toBeNull();

    // Kept until fixed, each on its own.
    await user.type(screen.getByLabelText('Bump shipping description'), 'Next day');
    expect(action.getAttribute('aria-invalid')).toBe('true');
    await user.selectOptions(action, '2');
    expect(action.getAttribute('aria-invalid')).not.toBe('true');
    expect(cost.getAttribute('aria-invalid')).toBe('true');
    await user.type(cost, '4.99');
    expect(cost.getAttribute('aria-invalid')).not.toBe('true');
    expect(screen.queryByText(/need fixing/)).toBeNull();

    await user.click(within(saveBar()!).getByRole('button', { name: 'Save' }));
    expect(await within(screen.getByTestId('toasts')).findByText('Settings saved.')).toBeTruthy();
    expect(posts(gw)[0]!.body).toMatchObject({
      bump_shipping_enabled: true,
      bump_shipping_action: 2,
      bump_shipping_cost: 4.99,
    });
  });

  it("puts the gateway's refusal of a field (its 400's fields) at that field", async () => {
    const user = userEvent.setup();
    const gw = gateway({
      status: 400,
      body: {
        status: false,
        message: 'The request is not valid.',
        errors: ['recent_checkouts_days: must be a whole number'],
        fields: { recent_checkouts_days: 'must be a whole number' },
      },
    });
    renderScreen(<Settings />, '/settings', gw.api);
    const days = await screen.findByLabelText('Days kept');
    await user.clear(days);
    await user.type(days, '3');
    await user.click(within(saveBar()!).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(days.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(days)).toContain('must be a whole number');
    expect(screen.getByText('One setting needs fixing before they can be saved:')).toBeTruthy();
  });

  it("keeps a failure that is no field's (the server unavailable) above the form until the next save", async () => {
    const user = userEvent.setup();
    const gw = gateway({
      status: 503,
      body: { status: false, message: 'The rules service did not answer in time. Try again.' },
    });
    renderScreen(<Settings />, '/settings', gw.api);
    await user.type(await screen.findByLabelText('Carrier name'), '!');
    await user.click(within(saveBar()!).getByRole('button', { name: 'Save' }));
    const list = (await screen.findByText('The settings were not saved:')).closest(
      '[role="alert"]',
    ) as HTMLElement;
    expect(list.textContent).toContain('The rules service did not answer in time. Try again.');
    // Still unsaved: the bar stays, to try again.
    expect(saveBar()).not.toBeNull();
  });
});
