import { screen, within } from '@testing-library/react';
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

  it('goes live: the report closes and a shadow can start again', async () => {
    const user = userEvent.setup();
    const gw = fakeGateway({
      'GET /api/shadow': { status: 200, body: running },
      'GET /api/global-rules': rulesets,
      '/api/shop': shop,
      'POST /api/shadow/go-live': {
        status: 200,
        body: { ...none, message: '“Imported” is live: checkout gets Ratesmith’s rates.' },
      },
    });
    renderScreen(<ShadowReport />, '/backup', gw.api);
    await user.click(await screen.findByRole('button', { name: 'Go live' }));
    expect(await screen.findByRole('button', { name: 'Start shadow' })).toBeTruthy();
    expect(gw.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      '/api/shadow/go-live',
    ]);
  });
});
