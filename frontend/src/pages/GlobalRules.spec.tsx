import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, renderScreen } from '../test-utils';
import GlobalRules from './GlobalRules';

const list = (activeId: string | null) => ({
  status: 200,
  body: {
    shop: { shop: 'a.myshopify.com', global_rule_id: activeId },
    globalRules: [
      { id: 'r1', name: 'Summer', position: 0, filters_count: 3, active: activeId === 'r1' },
      { id: 'r2', name: 'Winter', position: 1, filters_count: 1, active: activeId === 'r2' },
    ],
  },
});

const fallbackSettings = (on: boolean) => ({
  status: 200,
  body: {
    status: true,
    message: '',
    settings: { fallback_enabled: on, fallback_name: 'Standard', fallback_cost: 7.5 },
  },
});
const productRules = (rules: { active: boolean; filters: number }[]) => ({
  status: 200,
  body: {
    products: {
      data: rules.map((r, i) => ({
        id: `p${i}`,
        product_id: String(100 + i),
        active: r.active,
        filters: Array.from({ length: r.filters }, () => ({})),
      })),
    },
  },
});
const shopReply = {
  status: 200,
  body: {
    status: true,
    shop: { shop: 'a.myshopify.com', currency_code: 'USD', money_format: '', weight_unit: 'kg' },
  },
};

describe('the global rules list', () => {
  it("shows the server's message and a Retry when loading fails, then the list", async () => {
    const replies: Parameters<typeof fakeGateway>[0] = {
      '/api/global-rules': {
        status: 503,
        body: { status: false, message: 'The rules service is not available right now' },
      },
    };
    const gw = fakeGateway(replies);
    renderScreen(<GlobalRules />, '/global-rules', gw.api);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The rules service is not available right now',
    );
    replies['/api/global-rules'] = list('r1');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByText('Summer');
    expect(screen.getByText('Contains 3 rules')).toBeTruthy();
    expect(screen.getByText('Contains 1 rule')).toBeTruthy();
  });

  it('says "This ruleset is already enabled." and calls nothing for the active ruleset', async () => {
    const gw = fakeGateway({ '/api/global-rules': list('r1') });
    renderScreen(<GlobalRules />, '/global-rules', gw.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Summer is enabled' }));
    const toasts = screen.getByTestId('toasts');
    expect(within(toasts).getByRole('status').textContent).toContain(
      'This ruleset is already enabled.',
    );
    expect(gw.calls.map((c) => c.path)).toEqual(['/api/global-rules']);
  });

  it('enables a disabled ruleset through toggle at once when none is enabled, then reloads', async () => {
    const replies: Parameters<typeof fakeGateway>[0] = {
      '/api/global-rules': list(null),
      '/api/global-rules/r2/toggle': {
        status: 200,
        body: { status: true, message: 'Ruleset enabled.' },
      },
    };
    const gw = fakeGateway(replies);
    renderScreen(<GlobalRules />, '/global-rules', gw.api);
    const enable = await screen.findByRole('button', { name: 'Disabled: enable Winter' });
    replies['/api/global-rules'] = list('r2');
    await userEvent.click(enable);
    await screen.findByRole('button', { name: 'Winter is enabled' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('Ruleset enabled.')).toBeTruthy();
    expect(gw.calls.map((c) => c.path)).toEqual([
      '/api/global-rules',
      '/api/global-rules/r2/toggle',
      '/api/global-rules',
    ]);
  });

  it('names the enabled ruleset and the new one before switching, and switches only when confirmed', async () => {
    const user = userEvent.setup();
    const replies: Parameters<typeof fakeGateway>[0] = {
      '/api/global-rules': list('r1'),
      '/api/global-rules/r2/toggle': {
        status: 200,
        body: { status: true, message: 'Ruleset enabled.' },
      },
    };
    const gw = fakeGateway(replies);
    renderScreen(<GlobalRules />, '/global-rules', gw.api);
    await user.click(await screen.findByRole('button', { name: 'Disabled: enable Winter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enable “Winter”?' });
    expect(dialog.textContent).toContain(
      'Checkout will use the rules of “Winter” instead of those of “Summer”. “Summer” will be disabled; it and its rules are kept.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(gw.calls.map((c) => c.path)).toEqual(['/api/global-rules']);

    await user.click(screen.getByRole('button', { name: 'Disabled: enable Winter' }));
    replies['/api/global-rules'] = list('r2');
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Enable' }),
    );
    await screen.findByRole('button', { name: 'Winter is enabled' });
    expect(gw.calls.map((c) => c.path)).toEqual([
      '/api/global-rules',
      '/api/global-rules/r2/toggle',
      '/api/global-rules',
    ]);
  });

  it('warns before deleting the enabled ruleset what checkout gets then, with the fallback rate of Settings', async () => {
    const user = userEvent.setup();
    const gw = fakeGateway({
      '/api/global-rules': list('r1'),
      '/api/settings': fallbackSettings(true),
      '/api/product-rules': productRules([]),
      '/api/shop': shopReply,
    });
    renderScreen(<GlobalRules />, '/global-rules', gw.api);
    // A disabled one: the plain question, and nothing read.
    await user.click(await screen.findByRole('button', { name: 'Delete Winter' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete ruleset?' });
    expect(dialog.textContent).not.toContain('Checkout');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(gw.calls.map((c) => c.path)).toEqual(['/api/global-rules']);

    await user.click(screen.getByRole('button', { name: 'Delete Summer' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete the enabled ruleset?' });
    await within(dialog).findByText(
      'Checkout will get no Ratesmith rates. Instead every cart will get your fallback rate “Standard” at $7.50.',
    );
    expect(within(dialog).getByText('No ruleset will be enabled')).toBeTruthy();
  });

  it('says without a fallback rate that checkout gets no Ratesmith rates but from product rules', async () => {
    const user = userEvent.setup();
    const gw = fakeGateway({
      '/api/global-rules': list('r1'),
      '/api/settings': fallbackSettings(false),
      '/api/product-rules': productRules([
        { active: true, filters: 1 },
        { active: true, filters: 2 },
        // Neither a disabled product rule nor one without rules prices a cart.
        { active: false, filters: 1 },
        { active: true, filters: 0 },
      ]),
    });
    renderScreen(<GlobalRules />, '/global-rules', gw.api);
    await user.click(await screen.findByRole('button', { name: 'Delete Summer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the enabled ruleset?' });
    await within(dialog).findByText(
      'Checkout will get no Ratesmith rates, except for carts that one of your 2 product rules matches.',
    );
  });

  it('requires a name to add a ruleset, and appends the new one', async () => {
    const gw = fakeGateway({
      'GET /api/global-rules': list(null),
      'POST /api/global-rules': {
        status: 200,
        body: {
          status: true,
          message: 'Ruleset created.',
          rule: { id: 'r3', name: 'Autumn', position: 2, filters_count: 0, active: false },
        },
      },
    });
    renderScreen(<GlobalRules />, '/global-rules', gw.api);
    await screen.findByText('Summer');
    await userEvent.click(screen.getByRole('button', { name: 'Add Ruleset' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByText('Please enter a ruleset name')).toBeTruthy();
    expect(gw.calls.filter((c) => c.method === 'POST')).toEqual([]);

    await userEvent.type(within(dialog).getByLabelText('Ruleset name'), '  Autumn ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await screen.findByText('Autumn');
    expect(screen.getByText('No rules yet')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(gw.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { name: 'Autumn' },
    ]);
  });

  it('adds a ruleset from a template: its name, its filters saved, amounts in the shop currency', async () => {
    const gw = fakeGateway({
      'GET /api/global-rules': list(null),
      'GET /api/shop': {
        status: 200,
        body: {
          status: true,
          shop: {
            shop: 'a.myshopify.com',
            currency_code: 'EUR',
            money_format: '',
            weight_unit: 'kg',
          },
        },
      },
      'POST /api/global-rules': {
        status: 200,
        body: {
          status: true,
          message: 'Ruleset created.',
          rule: {
            id: 'r3',
            name: 'Flat rate plus per item',
            position: 2,
            filters_count: 0,
            active: false,
          },
        },
      },
      'POST /api/global-rules/update/r3': {
        status: 200,
        body: { status: true, message: 'Saved.', rules: [] },
      },
    });
    renderScreen(<GlobalRules />, '/global-rules', gw.api);
    await screen.findByText('Summer');
    await userEvent.click(screen.getByRole('button', { name: 'Add Ruleset' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText(/€4\.00 per order plus €1\.00 for each item/);
    await userEvent.click(within(dialog).getByLabelText('Flat rate plus per item'));
    expect((within(dialog).getByLabelText('Ruleset name') as HTMLInputElement).value).toBe(
      'Flat rate plus per item',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await screen.findByText(/It starts from "Flat rate plus per item"/);
    const posts = gw.calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => c.path)).toEqual(['/api/global-rules', '/api/global-rules/update/r3']);
    expect(posts[0]!.body).toEqual({ name: 'Flat rate plus per item' });
    expect(
      (
        posts[1]!.body as { rules: { name: string; action_type: number; action_data: number }[] }
      ).rules.map((f) => [f.name, f.action_type, f.action_data]),
    ).toEqual([
      ['Flat rate', 1, 4],
      ['Per item', 2, 1],
    ]);
  });

  it('shows an error toast when adding fails (the original only logged it), keeping the dialog', async () => {
    const gw = fakeGateway({
      'GET /api/global-rules': list(null),
      'POST /api/global-rules': { status: 503, body: { status: false } },
    });
    renderScreen(<GlobalRules />, '/global-rules', gw.api);
    await screen.findByText('Summer');
    await userEvent.click(screen.getByRole('button', { name: 'Add Ruleset' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Ruleset name'), 'Autumn');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    const toasts = screen.getByTestId('toasts');
    expect((await within(toasts).findByRole('alert')).textContent).toContain(
      'Failed to add ruleset',
    );
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('sends a failed add again with the same Idempotency-Key, and a new one for the next ruleset', async () => {
    const replies: Parameters<typeof fakeGateway>[0] = {
      'GET /api/global-rules': list(null),
      'POST /api/global-rules': { status: 503, body: { status: false } },
    };
    const gw = fakeGateway(replies);
    renderScreen(<GlobalRules />, '/global-rules', gw.api);
    await screen.findByText('Summer');
    const add = async (name: string) => {
      await userEvent.click(screen.getByRole('button', { name: 'Add Ruleset' }));
      const dialog = await screen.findByRole('dialog');
      await userEvent.type(within(dialog).getByLabelText('Ruleset name'), name);
      return dialog;
    };
    const dialog = await add('Autumn');
    const submit = () => userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await submit();
    await within(screen.getByTestId('toasts')).findByRole('alert');
    replies['POST /api/global-rules'] = {
      status: 200,
      body: {
        status: true,
        message: 'Ruleset created.',
        rule: { id: 'r3', name: 'Autumn', position: 2, filters_count: 0, active: false },
      },
    };
    await submit();
    await screen.findByText('Autumn');
    await add('Spring');
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(gw.calls.filter((c) => c.method === 'POST')).toHaveLength(3));
    const keys = gw.calls
      .filter((c) => c.method === 'POST')
      .map((c) => c.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    // The try again is the same action: its key; the next ruleset is another.
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[2]).not.toBe(keys[0]);
  });
});
