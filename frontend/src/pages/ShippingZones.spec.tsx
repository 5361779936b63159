import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { withZones } from '../zones/coverage';
import { country, generalProfile, profile, zone, zonesReply } from '../zones/testing';
import { fakeGateway, renderScreen } from '../test-utils';
import ShippingZones from './ShippingZones';

const ZONE = (n: number) => `gid://shopify/DeliveryZone/${n}`;

const heavy = (asking = false) =>
  profile('2', 'Heavy goods', [zone('9', 'Freight US', [country('US', ['CA', 'NY'])], asking)]);

const section = (name: string) => screen.findByRole('region', { name });

describe('the Shipping zones page', () => {
  it('lists each profile, General first, with its zones in words and whether checkout asks Ratesmith', async () => {
    const gw = fakeGateway({
      '/api/shipping-zones': zonesReply([heavy(), generalProfile({ domestic: true })]),
    });
    renderScreen(<ShippingZones />, '/shipping-zones', gw.api);
    expect(screen.getByText('Loading shipping zones…')).toBeTruthy();
    const general = await section('General');
    const regions = screen.getAllByRole('region').map((r) => r.getAttribute('aria-labelledby'));
    expect(regions).toHaveLength(2);
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'General',
      'Heavy goods',
    ]);
    expect(within(general).getByText('Default profile')).toBeTruthy();
    expect(
      within(general).getByText(/Checkout asks Ratesmith in 1 of 3 shipping zones\./),
    ).toBeTruthy();
    expect(screen.getByText('Checkout asks Ratesmith in 1 of 4 shipping zones.')).toBeTruthy();

    const domestic = within(general).getByRole('heading', { name: 'Domestic' }).closest('li')!;
    expect(within(domestic as HTMLElement).getByText('United States (all states)')).toBeTruthy();
    expect(within(domestic as HTMLElement).getByText('Checkout asks Ratesmith')).toBeTruthy();
    expect(
      within(domestic as HTMLElement).getByRole('button', {
        name: 'Remove Ratesmith from Domestic',
      }),
    ).toBeTruthy();
    const na = within(general).getByRole('heading', { name: 'North America' }).closest('li')!;
    expect(
      within(na as HTMLElement).getByText('Canada: Ontario, Quebec; Mexico (all states)'),
    ).toBeTruthy();
    expect(within(na as HTMLElement).getByText('Ratesmith not asked')).toBeTruthy();
    expect(within(general).getByText('Rest of world')).toBeTruthy();
    const freight = await section('Heavy goods');
    expect(within(freight).getByText('United States: California, New York')).toBeTruthy();
    expect(within(freight).queryByText('Default profile')).toBeNull();
    // No warning while some zone asks Ratesmith.
    expect(screen.queryByText('Checkout never asks Ratesmith')).toBeNull();
  });

  it("shows the server's message with Retry when the zones cannot be read, then the zones", async () => {
    const replies: Parameters<typeof fakeGateway>[0] = {
      '/api/shipping-zones': {
        status: 502,
        body: { status: false, message: 'Shopify did not answer. Please try again.' },
      },
    };
    const gw = fakeGateway(replies);
    renderScreen(<ShippingZones />, '/shipping-zones', gw.api);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Shopify did not answer. Please try again.',
    );
    replies['/api/shipping-zones'] = zonesReply([generalProfile()]);
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await section('General')).toBeTruthy();
    // No zone asks: the page says what that means.
    expect(screen.getByText('Checkout never asks Ratesmith')).toBeTruthy();
    expect(gw.calls.map((c) => c.path)).toEqual(['/api/shipping-zones', '/api/shipping-zones']);
  });

  it('tells the merchant to create zones in Shopify when there are none, and reads them again', async () => {
    const gw = fakeGateway({
      '/api/shipping-zones': zonesReply([profile('1', 'General', [], true)], false),
    });
    renderScreen(<ShippingZones />, '/shipping-zones', gw.api);
    expect(await screen.findByText('No shipping zones yet')).toBeTruthy();
    expect(
      screen.getByText(/Create shipping zones in Settings › Shipping and delivery/),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(gw.calls).toHaveLength(2));
  });

  it('adds Ratesmith to a zone, says so, and keeps focus on its button', async () => {
    const start = [generalProfile({ domestic: true })];
    const gw = fakeGateway({
      'GET /api/shipping-zones': zonesReply(start),
      'POST /api/shipping-zones': zonesReply(withZones(start, [ZONE(2)], true), true, 'Updated.'),
    });
    renderScreen(<ShippingZones />, '/shipping-zones', gw.api);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Add Ratesmith to North America' }),
    );
    const button = await screen.findByRole('button', {
      name: 'Remove Ratesmith from North America',
    });
    expect(gw.calls.at(-1)).toMatchObject({
      method: 'POST',
      path: '/api/shipping-zones',
      body: { zone_ids: [ZONE(2)], ratesmith: true },
    });
    expect(within(screen.getByTestId('toasts')).getByRole('status').textContent).toContain(
      'Updated.',
    );
    await waitFor(() => expect(document.activeElement).toBe(button));
    expect(screen.getByText(/Checkout asks Ratesmith in 2 of 3 shipping zones\./)).toBeTruthy();
  });

  it('removes Ratesmith from one of several asking zones at once, and says when that fails', async () => {
    const start = [generalProfile({ domestic: true, na: true })];
    const replies: Parameters<typeof fakeGateway>[0] = {
      'GET /api/shipping-zones': zonesReply(start),
      'POST /api/shipping-zones': {
        status: 502,
        body: { status: false, message: 'Shopify refused the change.' },
      },
    };
    const gw = fakeGateway(replies);
    renderScreen(<ShippingZones />, '/shipping-zones', gw.api);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Remove Ratesmith from Domestic' }),
    );
    expect((await within(screen.getByTestId('toasts')).findByRole('alert')).textContent).toContain(
      'Shopify refused the change.',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(gw.calls.at(-1)?.body).toEqual({ zone_ids: [ZONE(1)], ratesmith: false });

    replies['POST /api/shipping-zones'] = zonesReply(withZones(start, [ZONE(1)], false));
    await userEvent.click(screen.getByRole('button', { name: 'Remove Ratesmith from Domestic' }));
    expect(await screen.findByRole('button', { name: 'Add Ratesmith to Domestic' })).toBeTruthy();
    expect(within(screen.getByTestId('toasts')).getByRole('status').textContent).toContain(
      'Checkout no longer asks Ratesmith in Domestic.',
    );
  });

  it('asks before removing Ratesmith from the last zone that asks it', async () => {
    const start = [generalProfile({ domestic: true }), heavy()];
    const gw = fakeGateway({
      'GET /api/shipping-zones': zonesReply(start),
      'POST /api/shipping-zones': zonesReply(withZones(start, [ZONE(1)], false)),
    });
    renderScreen(<ShippingZones />, '/shipping-zones', gw.api);
    const remove = await screen.findByRole('button', { name: 'Remove Ratesmith from Domestic' });
    await userEvent.click(remove);
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(/checkout will no longer get Ratesmith’s rates anywhere/),
    ).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(gw.calls.filter((c) => c.method === 'POST')).toEqual([]);
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('button', { name: 'Remove Ratesmith from Domestic' }),
      ),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Remove Ratesmith from Domestic' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove Ratesmith' }),
    );
    expect(await screen.findByText('Checkout never asks Ratesmith')).toBeTruthy();
    expect(gw.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { zone_ids: [ZONE(1)], ratesmith: false },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('adds Ratesmith to every zone of a profile, and asks before removing it from all of them', async () => {
    const start = [generalProfile({ domestic: true })];
    const all = withZones(start, [ZONE(1), ZONE(2), ZONE(3)], true);
    const replies: Parameters<typeof fakeGateway>[0] = {
      'GET /api/shipping-zones': zonesReply(start),
      'POST /api/shipping-zones': zonesReply(all),
    };
    const gw = fakeGateway(replies);
    renderScreen(<ShippingZones />, '/shipping-zones', gw.api);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Add Ratesmith to every zone of General' }),
    );
    await screen.findByText(/Checkout asks Ratesmith in 3 of 3 shipping zones\./);
    expect(gw.calls.at(-1)?.body).toEqual({ zone_ids: [ZONE(2), ZONE(3)], ratesmith: true });
    const addAll = screen.getByRole('button', { name: 'Add Ratesmith to every zone of General' });
    expect(addAll.getAttribute('aria-disabled')).toBe('true');
    // Its own button is now disabled: focus goes to the one that undoes it.
    const removeAll = screen.getByRole('button', {
      name: 'Remove from every zone of General',
    });
    await waitFor(() => expect(document.activeElement).toBe(removeAll));

    replies['POST /api/shipping-zones'] = zonesReply(
      withZones(all, [ZONE(1), ZONE(2), ZONE(3)], false),
    );
    await userEvent.click(removeAll);
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove Ratesmith' }));
    expect(await screen.findByText('Checkout never asks Ratesmith')).toBeTruthy();
    expect(gw.calls.at(-1)?.body).toEqual({
      zone_ids: [ZONE(1), ZONE(2), ZONE(3)],
      ratesmith: false,
    });
    // Once the confirmation has closed, focus is on the button that adds it back.
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('button', { name: 'Add Ratesmith to every zone of General' }),
      ),
    );
  });
});
