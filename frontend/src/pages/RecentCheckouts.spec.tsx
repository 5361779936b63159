import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, renderScreen } from '../test-utils';
import RecentCheckouts from './RecentCheckouts';

const rulesets = {
  status: 200,
  body: { status: true, globalRules: [], shop: { global_rule_id: 'r1' } },
};
const listOf = (checkouts: unknown[], enabled = true) => ({
  status: 200,
  body: { status: true, message: '', checkouts, enabled, retention_days: 14, kept_at_most: 200 },
});
const CHECKOUT = {
  id: 'a'.repeat(24),
  at: '2026-11-25T02:00:00.000Z',
  country: 'CA',
  currency: 'USD',
  lines: [{ product_id: '7', variant_id: '', quantity: 2, price: 2500, grams: 300 }],
  rates: [{ service_name: 'Shipping', service_code: 'RATESMITH_STANDARD', total_price: '900' }],
  latency_ms: 0.42,
};

describe('the Recent checkouts page', () => {
  it('says when there is nothing yet, and when Settings turned them off', async () => {
    const gw = fakeGateway({
      '/api/recent-checkouts': listOf([], false),
      '/api/global-rules': rulesets,
    });
    renderScreen(<RecentCheckouts />, '/recent-checkouts', gw.api);
    expect(await screen.findByText('No checkouts yet')).toBeTruthy();
    expect(screen.getByText('Recent checkouts are off')).toBeTruthy();
  });

  it("says, in demo mode only, how to make a checkout: the preview's test checkout", async () => {
    const gw = fakeGateway({
      '/api/recent-checkouts': listOf([], true),
      '/api/global-rules': rulesets,
    });
    const demo = renderScreen(<RecentCheckouts />, '/recent-checkouts', gw.api);
    expect(await screen.findByText(/Send this cart as a test checkout/)).toBeTruthy();
    demo.unmount();
    // Inside the Shopify admin (App Bridge's meta tag) real checkouts fill the page.
    const meta = document.createElement('meta');
    meta.name = 'shopify-api-key';
    document.head.append(meta);
    try {
      renderScreen(<RecentCheckouts />, '/recent-checkouts', gw.api);
      await screen.findByText('No checkouts yet');
      expect(screen.queryByText(/Send this cart as a test checkout/)).toBeNull();
    } finally {
      meta.remove();
    }
  });

  it('shows a failure in words with Retry', async () => {
    const gw = fakeGateway({
      '/api/recent-checkouts': { status: 503, body: { status: false } },
      '/api/global-rules': rulesets,
    });
    renderScreen(<RecentCheckouts />, '/recent-checkouts', gw.api);
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Data Fetch Failed');
  });

  it('shows the delivery dates a rate was answered with', async () => {
    const dated = {
      ...CHECKOUT,
      rates: [
        {
          ...CHECKOUT.rates[0]!,
          min_delivery_date: '2026-12-08 00:00:00 -0500',
          max_delivery_date: '2026-12-10 00:00:00 -0500',
        },
      ],
    };
    renderScreen(
      <RecentCheckouts />,
      '/',
      fakeGateway({ '/api/recent-checkouts': listOf([dated]), '/api/global-rules': rulesets }).api,
    );
    expect(
      await screen.findByText(/Shipping: \$9\.00 \(arrives Tue 8 – Thu 10 Dec\)/),
    ).toBeTruthy();
  });

  it('lists a checkout and opens its trace with a link to the preview', async () => {
    const gw = fakeGateway({
      '/api/recent-checkouts': listOf([CHECKOUT]),
      '/api/global-rules': rulesets,
      [`/api/recent-checkouts/${CHECKOUT.id}`]: {
        status: 200,
        body: {
          status: true,
          message: '',
          checkout: {
            ...CHECKOUT,
            trace: {
              steps: [
                {
                  scope: 'global',
                  filterId: 'f1',
                  filterName: 'Canada flat',
                  matched: true,
                  actionType: 1,
                  feeBefore: 0,
                  feeAfter: 900,
                  stopped: true,
                },
              ],
              freeItems: null,
              matchedAny: true,
              blocked: false,
              fee: 900,
            },
          },
        },
      },
    });
    renderScreen(<RecentCheckouts />, '/recent-checkouts', gw.api);
    expect(await screen.findByText('Shipping: $9.00')).toBeTruthy();
    expect(screen.getByText('$50.00')).toBeTruthy();
    expect(screen.getByText('0.42 ms')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /View trace/ }));
    expect(await screen.findByText('Global: Canada flat')).toBeTruthy();
    const link = screen.getByRole('link', { name: 'Open in preview' });
    expect(link.getAttribute('href')).toContain('/edit-global-rule/r1?country=CA&currency=USD');
    expect(link.getAttribute('href')).toContain('line=2500_2_300_7');
  });
});
