import { draftFilter } from '@ratesmith/contracts/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { ApiProvider, type FilterAnalyticsReply, type FilterCountsJson } from '../api';
import { AppProviders } from '../AppProviders';
import { DraftEditor, renderWithPolaris } from '../editor/testing';
import EditGlobalRule from '../pages/EditGlobalRule';
import EditProductRule from '../pages/EditProductRule';
import { fakeGateway } from '../test-utils';
import * as Counts from './FilterCounts';

const counts = (filterId: string, over: Partial<FilterCountsJson> = {}): FilterCountsJson => ({
  filterId,
  matched: 0,
  stopped: 0,
  feeCents: 0,
  neverMatched: false,
  ...over,
});
const HEAVY = counts('f1', { matched: 1204, stopped: 300, feeCents: 481200 });
const ALASKA = counts('f2', { neverMatched: true });
const rule = (n: number) => screen.getByRole('region', { name: `Rule #${n}` });
// draftFilter's default condition is complete: Save All is enabled with it.
const saved = (id: string, name: string) => draftFilter({ id, name });

describe('the counts beside each filter in the editor', () => {
  it('shows matched, stopped and fee, a worded warning badge for none, and nothing for an unsaved filter', () => {
    renderWithPolaris(
      <DraftEditor
        saved={[saved('f1', 'Heavy'), saved('f2', 'Alaska'), saved('f3', 'New')]}
        counts={new Map([HEAVY, ALASKA].map((c) => [c.filterId, c]))}
      />,
    );
    // No api client here: amounts without a currency.
    expect(within(rule(1)).getByText('Matched 1,204 times in 30 days')).toBeTruthy();
    expect(within(rule(1)).getByText('stopped here 300 · added 4,812.00')).toBeTruthy();
    const badge = within(rule(2)).getByText('No checkout matched in 30 days');
    expect(badge.closest('.Polaris-Badge')?.className).toContain('toneWarning');
    expect(within(rule(2)).queryByText(/Matched/)).toBeNull();
    expect(within(rule(3)).queryByText(/Matched|No checkout matched/)).toBeNull();
  });

  it('renders no other card’s counts when a key is typed in one filter', async () => {
    const user = userEvent.setup();
    const three = [HEAVY, ALASKA, counts('f3', { matched: 1, stopped: 1, feeCents: -500 })];
    renderWithPolaris(
      <DraftEditor
        saved={[saved('f1', 'Heavy'), saved('f2', 'Alaska'), saved('f3', 'Cheap')]}
        counts={new Map(three.map((c) => [c.filterId, c]))}
      />,
    );
    expect(within(rule(3)).getByText('Matched 1 time in 30 days')).toBeTruthy();
    const renders = jest.spyOn(Counts, 'FilterCounts');
    await user.type(within(rule(2)).getByLabelText('Rule name'), '!');
    // One key: rule #2's counts line and no other, with its own (unchanged) object.
    expect(renders).toHaveBeenCalledTimes(1);
    expect(renders.mock.calls[0]![0].counts).toBe(ALASKA);
    renders.mockRestore();
  });
});

const ruleset = {
  status: 200,
  body: {
    status: true,
    globalRule: { id: 'r1', name: 'Default' },
    rules: [saved('f1', 'Heavy'), saved('f2', 'Alaska')],
  },
};
const settings = { status: 200, body: { status: false, message: 'Settings are unavailable.' } };
const reply = (over: Partial<FilterAnalyticsReply> = {}) => ({
  status: 200,
  body: {
    status: true,
    message: '',
    days: 30,
    from: '2026-10-27',
    to: '2026-11-25',
    countingSince: '2026-11-20',
    checkouts: 1234,
    inUse: true,
    filters: [HEAVY, ALASKA],
    ...over,
  },
});

function renderAt(
  path: string,
  route: string,
  page: ReactElement,
  gw: ReturnType<typeof fakeGateway>,
) {
  const router = createMemoryRouter([{ path: route, element: page }], { initialEntries: [path] });
  render(
    <ApiProvider client={gw.api}>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </ApiProvider>,
  );
}
const analyticsCalls = (gw: ReturnType<typeof fakeGateway>) =>
  gw.calls.filter((c) => c.path.startsWith('/api/analytics')).map((c) => c.path);

describe('the editors read the counts once', () => {
  it('the ruleset editor asks once for its ruleset’s counts, not again per key', async () => {
    const user = userEvent.setup();
    const gw = fakeGateway({
      '/api/global-rules/rules': ruleset,
      '/api/settings': settings,
      '/api/analytics/filters': reply(),
    });
    renderAt('/edit-global-rule/r1', '/edit-global-rule/:id', <EditGlobalRule />, gw);
    expect(
      await within(await waitFor(() => rule(1))).findByText('Matched 1,204 times in 30 days'),
    ).toBeTruthy();
    expect(
      screen.getByText(
        'Checkout counts of the last 30 days: 1,234 checkouts (counted since Nov 20). Rules not saved yet have none.',
      ),
    ).toBeTruthy();
    await user.type(within(rule(1)).getByLabelText('Rule name'), 'xyz');
    expect(analyticsCalls(gw)).toEqual(['/api/analytics/filters?owner=ruleset&id=r1']);
  });

  it('says once that a product rule not in use has no counts, and nothing per filter', async () => {
    const gw = fakeGateway({
      '/api/product-rules/p1/rules': {
        status: 200,
        body: {
          status: true,
          productRule: { id: 'p1', name: 'Hat' },
          rules: [saved('f1', 'Heavy')],
        },
      },
      '/api/settings': settings,
      '/api/analytics/filters': reply({ inUse: false, filters: [HEAVY] }),
    });
    renderAt('/edit-product-rule/p1', '/edit-product-rule/:id', <EditProductRule />, gw);
    expect(await screen.findByText('Not in use at checkout: no counts.')).toBeTruthy();
    expect(within(rule(1)).queryByText(/Matched/)).toBeNull();
    expect(analyticsCalls(gw)).toEqual(['/api/analytics/filters?owner=product_rule&id=p1']);
  });

  it('shows a failed read inline with Retry, and Save All still saves', async () => {
    const user = userEvent.setup();
    const replies: Parameters<typeof fakeGateway>[0] = {
      '/api/global-rules/rules': ruleset,
      '/api/settings': settings,
      '/api/analytics/filters': {
        status: 503,
        body: { status: false, message: 'Counts are unavailable.' },
      },
      'POST /api/global-rules/update/r1': {
        status: 200,
        body: { status: true, message: 'Rules saved.', rules: ruleset.body.rules },
      },
    };
    const gw = fakeGateway(replies);
    renderAt('/edit-global-rule/r1', '/edit-global-rule/:id', <EditGlobalRule />, gw);
    expect(await screen.findByText('Counts are unavailable.')).toBeTruthy();
    await user.type(within(rule(1)).getByLabelText('Rule name'), '!');
    await user.click(screen.getByRole('button', { name: 'Save All' }));
    await waitFor(() =>
      expect(
        gw.calls.some((c) => c.method === 'POST' && c.path === '/api/global-rules/update/r1'),
      ).toBe(true),
    );

    replies['/api/analytics/filters'] = reply();
    await user.click(screen.getByRole('button', { name: 'Retry counts' }));
    expect(await within(rule(2)).findByText('No checkout matched in 30 days')).toBeTruthy();
    expect(screen.queryByText('Counts are unavailable.')).toBeNull();
  });

  it('says nothing per filter before the first counted checkout', async () => {
    const gw = fakeGateway({
      '/api/global-rules/rules': ruleset,
      '/api/settings': settings,
      '/api/analytics/filters': reply({
        countingSince: null,
        checkouts: 0,
        filters: [counts('f1'), counts('f2')],
      }),
    });
    renderAt('/edit-global-rule/r1', '/edit-global-rule/:id', <EditGlobalRule />, gw);
    expect(
      await screen.findByText('No checkout counted yet: counting starts with the next checkout.'),
    ).toBeTruthy();
    expect(screen.queryByText(/Matched|No checkout matched/)).toBeNull();
  });
});
