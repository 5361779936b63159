import { draftCondition, draftFilter, draftGroup } from '@ratesmith/contracts/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { ReactElement } from 'react';
import { ApiProvider } from '../api';
import { AppProviders } from '../AppProviders';
import '../editor/testing';
import { FOCUS_FIRST_RULE } from '../shell/focus-targets';
import { fakeGateway } from '../test-utils';
import EditGlobalRule from './EditGlobalRule';
import EditProductRule from './EditProductRule';

const settings = (bump: boolean) => ({
  status: 200,
  body: {
    status: true,
    message: '',
    settings: {
      carrier_name: '',
      carrier_description: '',
      bump_shipping_enabled: bump,
      bump_shipping_name: '',
      bump_shipping_description: '',
      bump_shipping_action: null,
      bump_shipping_cost: 0,
    },
  },
});

function renderAt(
  path: string | { pathname: string; state: unknown },
  route: string,
  page: ReactElement,
  gateway: ReturnType<typeof fakeGateway>,
) {
  const router = createMemoryRouter(
    [
      { path: route, element: page },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <ApiProvider client={gateway.api}>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </ApiProvider>,
  );
}

describe('EditProductRule', () => {
  it('edits at product scope and shows the errors the server answers to Save All', async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway({
      '/api/product-rules/p1/rules': {
        status: 200,
        body: { status: true, productRule: { id: 'p1', name: 'Blue hat' }, rules: [] },
      },
      '/api/settings': settings(true),
      'POST /api/product-rules/update/p1': {
        status: 400,
        body: {
          status: false,
          message: 'Please fix the following errors:',
          errors: ['A product rule can have at most 50 rules.'],
        },
      },
    });
    renderAt('/edit-product-rule/p1', '/edit-product-rule/:id', <EditProductRule />, gateway);
    expect(await screen.findByRole('heading', { name: 'Product Rules: Blue hat' })).toBeTruthy();
    // A product rule that matches nothing adds nothing: no ruleset help here.
    expect(screen.queryByText(/checkout gets no Ratesmith rate/)).toBeNull();
    expect(screen.getByText('No rules found')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Add Rule' }));
    await user.type(screen.getByLabelText('Rule name'), 'Free for this hat');
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    await user.selectOptions(screen.getByLabelText('Field'), 'cart_price');
    await user.type(screen.getByLabelText('Amount'), '20');
    const action = screen.getByLabelText('Action') as HTMLSelectElement;
    expect(action.options[0]?.text).toBe('Make Shipping Free For This Item');
    // Bump shipping is on in the settings: its texts can be edited.
    await user.selectOptions(
      screen.getByLabelText('Override shipping name and description'),
      'Yes',
    );
    expect((screen.getByLabelText('Bump shipping name') as HTMLInputElement).disabled).toBe(false);

    const saveAll = screen.getByRole('button', { name: 'Save All' });
    expect(saveAll.getAttribute('aria-disabled')).not.toBe('true');
    await user.click(saveAll);
    const banner = (await screen.findByText('Please fix the following errors:')).closest(
      '.Polaris-Banner',
    ) as HTMLElement;
    expect(within(banner).getByText('A product rule can have at most 50 rules.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save All' }).getAttribute('aria-disabled')).toBe(
      'true',
    );
    const save = gateway.calls.find((c) => c.method === 'POST');
    expect(save?.body).toMatchObject({
      rules: [
        {
          name: 'Free for this hat',
          action_type: 0,
          raw_query: { condition: 'AND', rules: [{ field: 'cart_price', value: 20 }] },
        },
      ],
    });

    // The next edit clears the server's answer until the next save.
    await user.type(screen.getByLabelText('Rule name'), '!');
    await waitFor(() => expect(screen.queryByText('Please fix the following errors:')).toBeNull());
  });
});

describe('EditGlobalRule', () => {
  it('titles an unnamed ruleset "Untitled Ruleset" and keeps bump inputs off without bump shipping', async () => {
    const user = userEvent.setup();
    const filter = draftFilter({
      id: 'f1',
      name: 'Flat',
      raw_query: {
        ...draftGroup([{ ...draftCondition('cart_price', 'greater_or_equal', 0), id: 'c1' }]),
        id: 'g1',
      },
      action_type: 5,
      action_data: 5,
      is_shipping_overridden: 'Yes',
      shipping_name: 'Standard',
    });
    const gateway = fakeGateway({
      '/api/global-rules/rules': {
        status: 200,
        body: { status: true, globalRule: { id: 'r1', name: '' }, rules: [filter] },
      },
      '/api/settings': settings(false),
      '/api/product-rules': { status: 200, body: { products: { data: [] } } },
      'POST /api/global-rules/update/r1': {
        status: 200,
        body: { status: true, message: 'Rules saved.', rules: [{ ...filter, action_data: 6 }] },
      },
    });
    renderAt('/edit-global-rule/r1', '/edit-global-rule/:id', <EditGlobalRule />, gateway);
    expect(
      await screen.findByRole('heading', { name: 'Global Rules: Untitled Ruleset' }),
    ).toBeTruthy();
    // A ruleset's editor says what a cart that no rule matches gets at checkout.
    expect(
      screen.getByText(/When none matches a cart, checkout gets no Ratesmith rate/),
    ).toBeTruthy();
    expect((screen.getByLabelText('Shipping name') as HTMLInputElement).value).toBe('Standard');
    expect((screen.getByLabelText('Bump shipping name') as HTMLInputElement).disabled).toBe(true);

    const amount = within(screen.getByRole('region', { name: 'Rule #1' })).getAllByLabelText(
      'Amount',
    )[1] as HTMLInputElement;
    await user.clear(amount);
    await user.type(amount, '6');
    await user.click(screen.getByRole('button', { name: 'Save All' }));
    expect(await screen.findByText('Rules saved.')).toBeTruthy();
    expect(gateway.calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      rules: [{ id: 'f1', action_data: 6 }],
    });
  });
});

describe('EditGlobalRule: a saved ruleset that is not live', () => {
  const filter = draftFilter({
    id: 'f1',
    name: 'Flat',
    raw_query: { ...draftGroup([]), id: 'g1' },
    action_type: 1,
    action_data: 5,
  });
  const rulesets = (active: string | null) => ({
    status: 200,
    body: {
      shop: { shop: 'a.myshopify.com', global_rule_id: active },
      globalRules: [{ id: 'r1', name: 'Summer', position: 0, filters_count: 1, active: false }],
    },
  });
  const replies = (active: string | null): Parameters<typeof fakeGateway>[0] => ({
    '/api/global-rules/rules': {
      status: 200,
      body: { status: true, globalRule: { id: 'r1', name: 'Summer' }, rules: [filter] },
    },
    '/api/settings': settings(false),
    '/api/product-rules': { status: 200, body: { products: { data: [] } } },
    '/api/global-rules': rulesets(active),
    'POST /api/global-rules/update/r1': {
      status: 200,
      body: { status: true, message: 'Rules saved.', rules: [filter] },
    },
    '/api/global-rules/r1/toggle': {
      status: 200,
      body: { status: true, message: 'Ruleset enabled.' },
    },
  });

  it('says after a save that no ruleset is live, and Enable it enables this one', async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway(replies(null));
    renderAt('/edit-global-rule/r1', '/edit-global-rule/:id', <EditGlobalRule />, gateway);
    await screen.findByRole('heading', { name: 'Global Rules: Summer' });
    // Not before a save: opening a ruleset is no moment to nag.
    expect(screen.queryByText('This ruleset is not live')).toBeNull();

    // Saved from the keyboard (Ctrl+S while there are unsaved edits).
    await user.type(screen.getByLabelText('Rule name'), '!');
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText('This ruleset is not live')).toBeTruthy();
    expect(
      await screen.findByText('Until a ruleset is enabled, checkout gets no Ratesmith rates.'),
    ).toBeTruthy();
    expect(gateway.calls.some((c) => c.path.endsWith('/toggle'))).toBe(false);
    // The notice takes focus: its Enable it is the next Tab.
    const notice = screen.getByText('This ruleset is not live').closest('[role="alert"]');
    expect(document.activeElement).toBe(notice);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Enable it' }));

    await user.keyboard('{Enter}');
    expect(await screen.findByText('Ruleset enabled.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('This ruleset is not live')).toBeNull());
    // The notice has gone: its page's heading has focus, not nothing.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 })),
    );
    expect(gateway.calls.filter((c) => c.path.endsWith('/toggle')).map((c) => c.path)).toEqual([
      '/api/global-rules/r1/toggle',
    ]);
  });

  it("opens on the first rule's name when the list made it from a template", async () => {
    renderAt(
      { pathname: '/edit-global-rule/r1', state: FOCUS_FIRST_RULE },
      '/edit-global-rule/:id',
      <EditGlobalRule />,
      fakeGateway(replies(null)),
    );
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Rule name' })),
    );
  });

  it('says nothing after a save when another ruleset is live', async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway(replies('r2'));
    renderAt('/edit-global-rule/r1', '/edit-global-rule/:id', <EditGlobalRule />, gateway);
    await screen.findByRole('heading', { name: 'Global Rules: Summer' });
    await user.click(screen.getByRole('button', { name: 'Save All' }));
    expect(await screen.findByText('Rules saved.')).toBeTruthy();
    await waitFor(() =>
      expect(gateway.calls.filter((c) => c.path === '/api/global-rules')).toHaveLength(1),
    );
    expect(screen.queryByText('This ruleset is not live')).toBeNull();
  });
});
