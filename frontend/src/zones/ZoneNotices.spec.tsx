import { draftCondition, draftFilter, draftGroup } from '@ratesmith/contracts/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, renderScreen } from '../test-utils';
import { withZones } from './coverage';
import { country, generalProfile, profile, zone, zonesReply } from './testing';
import { ZoneNotices } from './ZoneNotices';

const ZONE = (n: number) => `gid://shopify/DeliveryZone/${n}`;
const ALL = [ZONE(1), ZONE(2), ZONE(3)];

const ruleset = (...conditions: ReturnType<typeof draftCondition>[]) => ({
  status: 200,
  body: {
    status: true,
    globalRule: { id: 'r1', name: 'Main', position: 0, filters_count: 1, active: true },
    rules: [draftFilter({ raw_query: draftGroup(conditions, 'OR') })],
  },
});

const toast = () => within(screen.getByTestId('toasts')).getByRole('status').textContent;

describe('the Dashboard’s shipping-zone notices', () => {
  it('proposes the General profile’s zones, all checked, and confirms the ones kept', async () => {
    const start = [generalProfile()];
    const gw = fakeGateway({
      'GET /api/shipping-zones': zonesReply(start, false),
      'POST /api/shipping-zones': zonesReply(withZones(start, [ZONE(1), ZONE(3)], true), true),
    });
    renderScreen(<ZoneNotices enabledRulesetId={null} />, '/', gw.api);
    const card = await screen.findByRole('region', {
      name: 'Choose where checkout asks Ratesmith',
    });
    const boxes = within(card).getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((b) => b.checked)).toEqual([true, true, true]);
    expect(within(card).getByText('United States (all states)')).toBeTruthy();
    await userEvent.click(within(card).getByRole('checkbox', { name: /North America/ }));
    await userEvent.click(within(card).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('region')).toBeNull());
    expect(gw.calls.at(-1)).toMatchObject({
      method: 'POST',
      path: '/api/shipping-zones',
      body: { zone_ids: [ZONE(1), ZONE(3)], ratesmith: true },
    });
    expect(toast()).toContain('Checkout now asks Ratesmith in 2 shipping zones.');
    // No ruleset enabled: nothing else to check, nothing else read.
    expect(gw.calls.map((c) => c.path)).toEqual(['/api/shipping-zones', '/api/shipping-zones']);
  });

  it('needs a zone checked to confirm; Not now only records the answer, then warns', async () => {
    const start = [generalProfile()];
    const gw = fakeGateway({
      'GET /api/shipping-zones': zonesReply(start, false),
      'POST /api/shipping-zones': zonesReply(start, true),
    });
    renderScreen(<ZoneNotices enabledRulesetId={null} />, '/', gw.api);
    const card = await screen.findByRole('region', {
      name: 'Choose where checkout asks Ratesmith',
    });
    for (const box of within(card).getAllByRole('checkbox')) await userEvent.click(box);
    expect(
      within(card).getByRole('button', { name: 'Confirm' }).getAttribute('aria-disabled'),
    ).toBe('true');
    expect(within(card).getByText('Check at least one zone, or choose Not now.')).toBeTruthy();
    await userEvent.click(within(card).getByRole('button', { name: 'Not now' }));
    expect(await screen.findByText('Checkout never asks Ratesmith for rates')).toBeTruthy();
    expect(gw.calls.at(-1)?.body).toEqual({ zone_ids: [], ratesmith: true });
  });

  it('warns when no zone asks Ratesmith and fixes it with the General profile’s zones', async () => {
    const start = [
      generalProfile(),
      profile('2', 'Heavy', [zone('9', 'Freight', [country('US')])]),
    ];
    const gw = fakeGateway({
      'GET /api/shipping-zones': zonesReply(start, true),
      'POST /api/shipping-zones': zonesReply(withZones(start, ALL, true), true, 'Done.'),
    });
    renderScreen(<ZoneNotices enabledRulesetId={null} />, '/', gw.api);
    expect(await screen.findByText('Checkout never asks Ratesmith for rates')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Choose shipping zones' }).getAttribute('href')).toBe(
      '/shipping-zones',
    );
    await userEvent.click(
      screen.getByRole('button', { name: 'Add Ratesmith to every zone of General' }),
    );
    await waitFor(() =>
      expect(screen.queryByText('Checkout never asks Ratesmith for rates')).toBeNull(),
    );
    expect(gw.calls.at(-1)?.body).toEqual({ zone_ids: ALL, ratesmith: true });
    expect(toast()).toContain('Done.');
    // Focus stays in the notices' place, not lost with the banner.
    expect(document.activeElement?.className).toBe('rs-zone-notices');
  });

  it('tells the merchant to create zones when the General profile has none', async () => {
    const gw = fakeGateway({
      '/api/shipping-zones': zonesReply([profile('1', 'General', [], true)], false),
    });
    renderScreen(<ZoneNotices enabledRulesetId={null} />, '/', gw.api);
    expect(
      await screen.findByText(/General has no shipping zones\. Create them in Settings/),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Add Ratesmith/ })).toBeNull();
  });

  it('names the places the enabled ruleset is for that no asking zone holds, and adds the zones that do', async () => {
    const start = [generalProfile({ domestic: true })];
    const gw = fakeGateway({
      'GET /api/shipping-zones': zonesReply(start),
      'POST /api/shipping-zones': zonesReply(withZones(start, [ZONE(2), ZONE(3)], true)),
      '/api/global-rules/rules': ruleset(
        draftCondition('shipping_country', 'equal', 'US'),
        draftCondition('shipping_region', 'equal', 'CA-ON'),
        draftCondition('shipping_region', 'equal', 'CA-BC'),
        draftCondition('shipping_country', 'equal', 'DE'),
        draftCondition('shipping_country', 'not_equal', 'FR'),
      ),
    });
    renderScreen(<ZoneNotices enabledRulesetId="r1" />, '/', gw.api);
    const title = await screen.findByText(
      'Checkout does not ask Ratesmith about places your rules are for',
    );
    const banner = title.closest('.Polaris-Banner') as HTMLElement;
    expect(
      within(banner).getByText(
        /Your enabled ruleset has rules for Ontario, Canada, British Columbia, Canada and Germany/,
      ),
    ).toBeTruthy();
    expect(
      within(banner).getByText(/No shipping zone includes British Columbia, Canada: add it/),
    ).toBeTruthy();
    expect(gw.calls.find((c) => c.path.startsWith('/api/global-rules/rules'))?.path).toBe(
      '/api/global-rules/rules?globalRuleId=r1',
    );
    await userEvent.click(
      within(banner).getByRole('button', {
        name: 'Add Ratesmith to North America and International',
      }),
    );
    expect(gw.calls.at(-1)?.body).toEqual({ zone_ids: [ZONE(2), ZONE(3)], ratesmith: true });
    // Still warns about the place no zone holds, now without a button.
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: /Add Ratesmith to/ })).toBeNull(),
    );
    expect(
      screen.getByText(/Your enabled ruleset has rules for British Columbia, Canada, but/),
    ).toBeTruthy();
  });

  it('says nothing when every place the rules name is asked, or when the zones cannot be read', async () => {
    const gw = fakeGateway({
      '/api/shipping-zones': zonesReply([generalProfile({ domestic: true })]),
      '/api/global-rules/rules': ruleset(draftCondition('shipping_region', 'equal', 'US-CA')),
    });
    const { container, unmount } = renderScreen(<ZoneNotices enabledRulesetId="r1" />, '/', gw.api);
    await waitFor(() => expect(gw.calls).toHaveLength(2));
    await new Promise((r) => setTimeout(r, 20));
    expect(container.querySelector('.rs-zone-notices')?.childElementCount).toBe(0);
    unmount();

    const down = fakeGateway({
      '/api/shipping-zones': { status: 502, body: { status: false, message: 'Shopify is down.' } },
    });
    const again = renderScreen(<ZoneNotices enabledRulesetId="r1" />, '/', down.api);
    await waitFor(() => expect(down.calls).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(again.container.querySelector('.rs-zone-notices')?.childElementCount).toBe(0);
  });
});
