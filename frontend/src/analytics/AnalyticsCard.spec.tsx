import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnalyticsReply } from '../api';
import { fakeGateway, renderScreen } from '../test-utils';
import { AnalyticsCard } from './AnalyticsCard';

const DAYS = ['2026-11-23', '2026-11-24', '2026-11-25'];
const FEES = [
  { fromCents: 0, toCents: 0, count: 2 },
  { fromCents: 1, toCents: 500, count: 0 },
  { fromCents: 501, toCents: 1000, count: 5 },
  { fromCents: 1001, toCents: 2000, count: 0 },
  { fromCents: 2001, toCents: 5000, count: 0 },
  { fromCents: 5001, toCents: 10000, count: 0 },
  { fromCents: 10001, toCents: null, count: 1 },
];
const filter = (over: Partial<AnalyticsReply['filters'][number]>) => ({
  owner: 'ruleset' as const,
  ownerId: 'r1',
  ownerName: 'Default',
  filterId: 'f1',
  filterName: 'Heavy carts',
  matched: 0,
  stopped: 0,
  feeCents: 0,
  neverMatched: false,
  ...over,
});
const analytics = (over: Partial<AnalyticsReply> = {}): AnalyticsReply => ({
  status: true,
  message: '',
  days: 30,
  from: '2026-10-27',
  to: '2026-11-25',
  countingSince: '2026-11-23',
  checkouts: 1234,
  daily: DAYS.map((day, i) => ({ day, standard: 10 + i, bump: i, fallback: 0, noRate: 1 })),
  fees: FEES,
  filters: [
    filter({
      filterId: 'f1',
      filterName: 'Heavy carts',
      matched: 1204,
      stopped: 300,
      feeCents: 481200,
    }),
    filter({
      filterId: 'f2',
      filterName: 'Free over $100',
      matched: 30,
      stopped: 30,
      feeCents: -15000,
    }),
    filter({ filterId: 'f3', filterName: 'Alaska', neverMatched: true }),
    filter({
      owner: 'product_rule',
      ownerId: 'p1',
      ownerName: 'Gift wrap',
      filterId: 'f4',
      filterName: 'Oversized',
      neverMatched: true,
    }),
  ],
  ...over,
});
const ok = (body: unknown) => ({ status: 200, body });
const shop = ok({
  status: true,
  shop: {
    shop: 'a.myshopify.com',
    currency_code: 'USD',
    money_format: '${{amount}}',
    weight_unit: 'kg',
  },
});
const card = () => screen.findByRole('region', { name: 'Checkouts in the last 30 days' });

describe('the Dashboard analytics card', () => {
  it('asks for 30 days and shows the window, the charts’ tables, the top filters and those never matched', async () => {
    const gw = fakeGateway({ '/api/analytics': ok(analytics()), '/api/shop': shop });
    renderScreen(<AnalyticsCard />, '/', gw.api);
    const region = await card();
    expect(gw.calls.find((c) => c.path.startsWith('/api/analytics'))?.path).toBe(
      '/api/analytics?days=30',
    );
    expect(
      within(region).getByText(/1,234 checkouts from Oct 27 to Nov 25 \(counted since Nov 23\)/),
    ).toBeTruthy();

    // Each chart: a visible heading and its figures as a table for screen readers.
    expect(within(region).getByRole('heading', { name: 'Checkouts per day by rate' })).toBeTruthy();
    const daily = within(region).getByRole('table', { name: 'Checkouts per day by rate' });
    expect(
      within(daily)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Day', 'Regular rate', 'Regular and bump rate', 'Fallback rate', 'No rate']);
    expect(within(daily).getAllByRole('row')[3]!.textContent).toBe(
      'Nov 25' + '10' + '2' + '0' + '1', // regular only: 12 with the regular rate less the 2 with bump too
    );
    const fees = within(region).getByRole('table', { name: 'Checkouts by regular rate fee' });
    // Money in the shop's currency, once /api/shop has answered.
    await waitFor(() =>
      expect(
        within(fees)
          .getAllByRole('rowheader')
          .map((c) => c.textContent),
      ).toEqual([
        'Free',
        '$0.01 to $5.00',
        '$5.01 to $10.00',
        '$10.01 to $20.00',
        '$20.01 to $50.00',
        '$50.01 to $100.00',
        '$100.01 or more',
      ]),
    );

    const top = within(region).getByRole('heading', {
      name: 'Rules that matched most',
    }).parentElement!;
    expect(
      within(top)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Heavy carts in Default (ruleset): matched 1,204 times, stopped here 300 · added $4,812.00',
      'Free over $100 in Default (ruleset): matched 30 times, stopped here 30 · took off $150.00',
    ]);
    const never = within(region).getByRole('heading', {
      name: 'Rules no checkout matched in 30 days',
    }).parentElement!;
    expect(within(never).getByRole('link', { name: 'Alaska' }).getAttribute('href')).toBe(
      '/edit-global-rule/r1',
    );
    expect(within(never).getByRole('link', { name: 'Oversized' }).getAttribute('href')).toBe(
      '/edit-product-rule/p1',
    );
    expect(within(never).getByText(/in Gift wrap \(product rule\)/)).toBeTruthy();
  });

  it('says counting starts with the next checkout when nothing was counted', async () => {
    const gw = fakeGateway({
      '/api/analytics': ok(analytics({ countingSince: null, checkouts: 0, filters: [] })),
      '/api/shop': shop,
    });
    renderScreen(<AnalyticsCard />, '/', gw.api);
    const region = await card();
    expect(
      within(region).getByText(
        'No checkout counted yet: counting starts with the next checkout Ratesmith answers.',
      ),
    ).toBeTruthy();
    expect(within(region).queryByRole('table')).toBeNull();
  });

  it('says so when every filter matched and none matched the most', async () => {
    const gw = fakeGateway({
      '/api/analytics': ok(analytics({ filters: [filter({ matched: 3, stopped: 3 })] })),
      '/api/shop': shop,
    });
    renderScreen(<AnalyticsCard />, '/', gw.api);
    const region = await card();
    expect(
      within(region).getByText('Every rule in use matched at least one checkout.'),
    ).toBeTruthy();
    expect(
      within(region)
        .getByText(/Heavy carts/)
        .closest('li')?.textContent,
    ).toBe('Heavy carts in Default (ruleset): matched 3 times, stopped here 3');
  });

  it('shows loading, then the server’s error with Retry, and loads again', async () => {
    const user = userEvent.setup();
    const replies: Parameters<typeof fakeGateway>[0] = {
      '/api/analytics': {
        status: 503,
        body: { status: false, message: 'Analytics are unavailable.' },
      },
      '/api/shop': shop,
    };
    const gw = fakeGateway(replies);
    renderScreen(<AnalyticsCard />, '/', gw.api);
    expect(screen.getByText('Loading checkout analytics…')).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toBe('Analytics are unavailable.');
    replies['/api/analytics'] = ok(analytics());
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await within(await card()).findByText(/1,234 checkouts/)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
