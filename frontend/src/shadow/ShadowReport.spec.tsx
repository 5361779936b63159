import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ShadowReportReply } from '@ratesmith/contracts/edge';
import { fakeGateway, renderScreen } from '../test-utils';
import { ShadowReport } from './ShadowReport';

const none: ShadowReportReply = {
  status: true,
  message: '',
  shadow: null,
  seen: 0,
  counts: { same: 0, cheaper: 0, dearer: 0, no_rate: 0, only_ratesmith: 0 },
  distribution: [],
  largest: [],
  go_live: null,
};
const running: ShadowReportReply = {
  ...none,
  shadow: { ruleset_id: 'r2', ruleset_name: 'Imported', started_at: '2026-11-30T00:00:00.000Z' },
  seen: 3,
  counts: { same: 1, cheaper: 1, dearer: 0, no_rate: 1, only_ratesmith: 0 },
  distribution: [
    { from: -500, to: -101, count: 1 },
    { from: 0, to: 0, count: 1 },
  ],
  largest: [
    {
      at: '2026-11-30T00:01:00.000Z',
      country: 'US',
      currency: 'USD',
      lines: [{ product_id: '7', variant_id: '', quantity: 1, price: 2500, grams: 500 } as never],
      ratesmith: { name: 'Standard', cents: 500 },
      native: { name: 'Standard', cents: 800 },
      verdict: 'cheaper',
      difference: -300,
    },
  ],
};
/** The two rates of the plan as a confirmation lists them. */
const PLAN_TEXTS = [
  'West coast: Standard (5.00 USD, order up to 49.99 USD)',
  'Canada: Standard (9.00 USD)',
];
const listedRates = (dialog: HTMLElement) =>
  within(dialog)
    .getAllByRole('listitem')
    .map((li) => li.textContent);

const rulesets = {
  status: 200,
  body: {
    shop: { shop: 'a.myshopify.com', global_rule_id: 'r1' },
    globalRules: [
      { id: 'r1', name: 'Live', position: 1, filters_count: 1, active: true, created_at: '' },
      { id: 'r2', name: 'Imported', position: 2, filters_count: 5, active: false, created_at: '' },
    ],
  },
};

const shop = {
  status: 200,
  body: {
    status: true,
    shop: { shop: 'a.myshopify.com', currency_code: 'USD', weight_unit: 'kg' },
  },
};

describe('Shadow mode', () => {
  it('starts the chosen ruleset (a disabled one by default) in shadow', async () => {
    const user = userEvent.setup();
    const gw = fakeGateway({
      'GET /api/shadow': { status: 200, body: none },
      'GET /api/global-rules': rulesets,
      '/api/shop': shop,
      'POST /api/shadow': { status: 200, body: running },
    });
    renderScreen(<ShadowReport />, '/backup', gw.api);
    expect(await screen.findByLabelText('Ruleset to run in shadow')).toHaveProperty('value', 'r2');
    await user.click(screen.getByRole('button', { name: 'Start shadow' }));
    expect(gw.calls.find((c) => c.method === 'POST')?.body).toEqual({ ruleset_id: 'r2' });
    expect(await screen.findByText('3 carts seen.', { exact: false })).toBeTruthy();
  });

  it('reports the counts, the differences and the largest, each opening in the preview', async () => {
    const gw = fakeGateway({
      'GET /api/shadow': { status: 200, body: running },
      'GET /api/global-rules': rulesets,
      '/api/shop': shop,
    });
    renderScreen(<ShadowReport />, '/backup', gw.api);
    expect(await screen.findByText('Cheaper with Ratesmith: 1')).toBeTruthy();
    expect(screen.getByText('No rate from Ratesmith: 1')).toBeTruthy();
    expect(screen.getByText('-$5.00 to -$1.01: 1 cart')).toBeTruthy();
    const largest = screen.getByText(/Ratesmith \$5\.00 \(Standard\), Shopify \$8\.00/);
    const link = within(largest).getByRole('link', { name: 'Open in preview' });
    expect(link.getAttribute('href')).toBe(
      '/edit-global-rule/r2?country=US&currency=USD&line=2500_1_500_7',
    );
  });

  const plan = [
    {
      id: 'gid://shopify/DeliveryMethodDefinition/1',
      zone: 'West coast',
      name: 'Standard',
      price: '5.00 USD, order up to 49.99 USD',
    },
    {
      id: 'gid://shopify/DeliveryMethodDefinition/2',
      zone: 'Canada',
      name: 'Standard',
      price: '9.00 USD',
    },
  ];
  const live = (turned_off: typeof plan): ShadowReportReply => ({
    ...none,
    message: '“Imported” is live: checkout gets Ratesmith’s rates.',
    go_live: {
      ruleset_id: 'r2',
      ruleset_name: 'Imported',
      at: '2026-11-30T01:00:00.000Z',
      turned_off,
    },
  });
  const replies = () => ({
    'GET /api/shadow': { status: 200, body: running as ShadowReportReply },
    'GET /api/global-rules': rulesets,
    '/api/shop': shop,
    'GET /api/shadow/go-live': { status: 200, body: { status: true, message: '', rates: plan } },
  });

  it('goes live keeping Shopify’s rates: one confirmation, then the page says it is live, with Undo', async () => {
    const user = userEvent.setup();
    const gw = fakeGateway({
      ...replies(),
      'POST /api/shadow/go-live': { status: 200, body: live([]) },
    });
    renderScreen(<ShadowReport />, '/backup', gw.api);
    await user.click(await screen.findByRole('button', { name: 'Go live' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByRole('checkbox', { name: /Also disable Shopify’s own rates/ }),
    ).toHaveProperty('checked', false);
    await user.click(within(dialog).getByRole('button', { name: 'Go live' }));
    expect(await screen.findByText('“Imported” is live')).toBeTruthy();
    expect(screen.getByText(/Your Shopify rates stayed enabled/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Undo going live' })).toBeTruthy();
    expect(gw.calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      ['/api/shadow/go-live', { turn_off_native: [] }],
    ]);
    // Shopify's rates were never read: nothing to turn off.
    expect(gw.calls.some((c) => c.path === '/api/shadow/go-live' && c.method === 'GET')).toBe(
      false,
    );
  });

  it('with Shopify’s rates off: a second confirmation lists each rate, its button counts them, the list confirmed is sent', async () => {
    const user = userEvent.setup();
    const gw = fakeGateway({
      ...replies(),
      'POST /api/shadow/go-live': { status: 200, body: live(plan) },
    });
    renderScreen(<ShadowReport />, '/backup', gw.api);
    await user.click(await screen.findByRole('button', { name: 'Go live' }));
    await user.click(
      await screen.findByRole('checkbox', { name: /Also disable Shopify’s own rates/ }),
    );
    await user.click(screen.getByRole('button', { name: 'Review Shopify rates' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable these Shopify rates?' });
    expect(listedRates(dialog)).toEqual(PLAN_TEXTS);
    await user.click(
      within(dialog).getByRole('button', { name: 'Go live and disable 2 Shopify rates' }),
    );
    expect(await screen.findByText(/Going live disabled 2 Shopify rates/)).toBeTruthy();
    expect(gw.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { turn_off_native: plan.map((r) => r.id) },
    ]);
  });

  it('shows the changed list again when Shopify’s rates changed since it was read', async () => {
    const user = userEvent.setup();
    const r = replies();
    const gw = fakeGateway({
      ...r,
      'POST /api/shadow/go-live': {
        status: 409,
        body: {
          status: false,
          message: 'Your Shopify rates changed since you reviewed them: review the list again.',
        },
      },
    });
    renderScreen(<ShadowReport />, '/backup', gw.api);
    await user.click(await screen.findByRole('button', { name: 'Go live' }));
    await user.click(await screen.findByRole('checkbox', { name: /Also disable/ }));
    await user.click(screen.getByRole('button', { name: 'Review Shopify rates' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable these Shopify rates?' });
    r['GET /api/shadow/go-live'].body.rates = plan.slice(1);
    await user.click(
      within(dialog).getByRole('button', { name: 'Go live and disable 2 Shopify rates' }),
    );
    expect(
      await within(dialog).findByText(/Your Shopify rates changed since you reviewed them/),
    ).toBeTruthy();
    expect(
      await within(dialog).findByRole('button', { name: 'Go live and disable 1 Shopify rate' }),
    ).toBeTruthy();
  });

  it('keeps a go-live that could not turn Shopify’s rates off on the page, live, with Undo and a retry', async () => {
    const user = userEvent.setup();
    const r = replies();
    const message =
      '“Imported” is live, but Shopify’s own rates could not be disabled: checkout still shows them beside Ratesmith’s. Go live again to retry disabling them, or Undo.';
    const routes: Record<string, { status: number; body: unknown }> = {
      ...r,
      'POST /api/shadow/go-live': { status: 503, body: { status: false, message } },
    };
    const gw = fakeGateway(routes);
    renderScreen(<ShadowReport />, '/backup', gw.api);
    await user.click(await screen.findByRole('button', { name: 'Go live' }));
    await user.click(await screen.findByRole('checkbox', { name: /Also disable/ }));
    await user.click(screen.getByRole('button', { name: 'Review Shopify rates' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable these Shopify rates?' });
    r['GET /api/shadow'].body = live(plan);
    await user.click(
      within(dialog).getByRole('button', { name: 'Go live and disable 2 Shopify rates' }),
    );
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByText('Going live did not finish')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Undo going live' })).toBeTruthy();
    // Trying again sends the recorded list; once it worked, the error leaves the page.
    const retried = { ...live(plan), message: '2 Shopify rates disabled.' };
    routes['POST /api/shadow/go-live'] = { status: 200, body: retried };
    await user.click(screen.getByRole('button', { name: 'Disable Shopify’s rates again' }));
    await waitFor(() => expect(screen.queryByText('Going live did not finish')).toBeNull());
    expect(gw.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { turn_off_native: plan.map((p) => p.id) },
      { turn_off_native: plan.map((p) => p.id) },
    ]);
  });

  it('undoes a go-live found after a reload: the confirmation lists the rates that come back', async () => {
    const user = userEvent.setup();
    const gw = fakeGateway({
      ...replies(),
      'GET /api/shadow': { status: 200, body: live(plan) },
      'POST /api/shadow/undo-go-live': {
        status: 200,
        body: {
          ...running,
          message: 'Undone: “Imported” runs in shadow again. 2 Shopify rates enabled again.',
        },
      },
    });
    renderScreen(<ShadowReport />, '/backup', gw.api);
    await user.click(await screen.findByRole('button', { name: 'Undo going live' }));
    const dialog = await screen.findByRole('dialog', { name: 'Undo going live?' });
    expect(listedRates(dialog)).toEqual(PLAN_TEXTS);
    await user.click(within(dialog).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('3 carts seen.', { exact: false })).toBeTruthy();
    expect(screen.queryByText('“Imported” is live')).toBeNull();
    expect(gw.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      '/api/shadow/undo-go-live',
    ]);
  });

  it('keeps an undo that failed on the page, still live, without a retry of the turning off', async () => {
    const user = userEvent.setup();
    const message = 'Shopify cannot be reached right now. Please try again shortly.';
    const gw = fakeGateway({
      ...replies(),
      'GET /api/shadow': { status: 200, body: live(plan) },
      'POST /api/shadow/undo-go-live': { status: 503, body: { status: false, message } },
    });
    renderScreen(<ShadowReport />, '/backup', gw.api);
    await user.click(await screen.findByRole('button', { name: 'Undo going live' }));
    const dialog = await screen.findByRole('dialog', { name: 'Undo going live?' });
    await user.click(within(dialog).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByText('Undo did not finish')).toBeTruthy();
    expect(screen.getByText('“Imported” is live')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Disable Shopify’s rates again' })).toBeNull();
  });

  it('says why no Shopify rate can be disabled, and goes live keeping them', async () => {
    const user = userEvent.setup();
    const why =
      'Checkout does not call Ratesmith right now (Settings › Checkout): turning Shopify’s rates off would leave checkout without rates, so they stay on.';
    const gw = fakeGateway({
      ...replies(),
      'GET /api/shadow/go-live': { status: 200, body: { status: true, message: why, rates: [] } },
      'POST /api/shadow/go-live': { status: 200, body: live([]) },
    });
    renderScreen(<ShadowReport />, '/backup', gw.api);
    await user.click(await screen.findByRole('button', { name: 'Go live' }));
    await user.click(await screen.findByRole('checkbox', { name: /Also disable/ }));
    await user.click(screen.getByRole('button', { name: 'Review Shopify rates' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable these Shopify rates?' });
    expect(within(dialog).getByText(why)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Go live' }));
    expect(await screen.findByText(/Your Shopify rates stayed enabled/)).toBeTruthy();
    expect(gw.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { turn_off_native: [] },
    ]);
  });
});
