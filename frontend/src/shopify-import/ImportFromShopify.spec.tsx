import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ShippingImportReply } from '@ratesmith/contracts/edge';
import { fakeGateway, renderScreen } from '../test-utils';
import { ImportFromShopify } from './ImportFromShopify';

const PLAN = 'a'.repeat(64);
const reply = (over: Partial<ShippingImportReply> = {}): ShippingImportReply => ({
  status: true,
  message: 'Nothing was changed yet: confirm to import.',
  summary: '2 zones, 3 rates → 1 ruleset of 2 rules; 1 rate cannot be imported:',
  zones: 2,
  rates: 3,
  ruleset_name: 'Imported from Shopify 2026-11-30',
  rules: [
    { name: 'Domestic: Free shipping', zone: 'Domestic', rate: 'Free shipping', price: '0.00' },
    { name: 'Domestic: Standard', zone: 'Domestic', rate: 'Standard', price: '5.00' },
  ],
  skipped: [
    {
      profile: 'General profile',
      zone: 'Domestic',
      rate: 'Express',
      reason:
        'checkout shows it next to “Standard” for some carts, and Ratesmith answers one rate a cart',
    },
  ],
  plan: PLAN,
  ...over,
});
const shop = {
  status: 200,
  body: {
    status: true,
    shop: { shop: 'a.myshopify.com', currency_code: 'USD', weight_unit: 'kg' },
  },
};

describe('Import from Shopify', () => {
  it('reads nothing until asked, shows the plan, and confirms it with its fingerprint', async () => {
    const user = userEvent.setup();
    const gw = fakeGateway({
      'GET /api/shipping-import': { status: 200, body: reply() },
      'POST /api/shipping-import': {
        status: 200,
        body: reply({
          message:
            'Imported as the ruleset “Imported from Shopify 2026-11-30”, disabled: enable it on Global Rules.',
          ruleset: { id: 'r1', name: 'Imported from Shopify 2026-11-30' },
        }),
      },
      '/api/shop': shop,
    });
    renderScreen(<ImportFromShopify />, '/backup', gw.api);
    expect(gw.calls).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Review the import' }));
    await screen.findByText('2 zones, 3 rates → 1 ruleset of 2 rules; 1 rate cannot be imported:');
    expect(screen.getByText(/Express \(Domestic\): checkout shows it next to/)).toBeTruthy();
    expect(screen.getByText('Domestic: Free shipping, free')).toBeTruthy();
    expect(await screen.findByText('Domestic: Standard, $5.00')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Confirm import' }));
    await screen.findByText('Imported as “Imported from Shopify 2026-11-30”');
    const post = gw.calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ plan: PLAN });
    expect(screen.queryByRole('button', { name: 'Confirm import' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to Global Rules' })).toBeTruthy();
  });

  it('says when there is nothing to import, and Confirm cannot be pressed', async () => {
    const user = userEvent.setup();
    const gw = fakeGateway({
      'GET /api/shipping-import': {
        status: 200,
        body: reply({
          rules: [],
          summary: '1 zone, 1 rate → 1 ruleset of 0 rules; 1 rate cannot be imported:',
        }),
      },
      '/api/shop': shop,
    });
    renderScreen(<ImportFromShopify />, '/backup', gw.api);
    await user.click(screen.getByRole('button', { name: 'Review the import' }));
    await screen.findByText('There is no rate Ratesmith can import: nothing will be created.');
    expect(
      screen.getByRole('button', { name: 'Confirm import' }).getAttribute('aria-disabled'),
    ).toBe('true');
  });

  it("shows Shopify's refusal in words, and the plan stays when Confirm is refused", async () => {
    const user = userEvent.setup();
    const denied =
      "Shopify refused Ratesmith access to this store's shipping settings. Please reload the app to grant access.";
    const gw = fakeGateway({
      'GET /api/shipping-import': { status: 403, body: { status: false, message: denied } },
    });
    renderScreen(<ImportFromShopify />, '/backup', gw.api);
    await user.click(screen.getByRole('button', { name: 'Review the import' }));
    expect(await screen.findByText(denied)).toBeTruthy();
    expect(screen.getByText('Your Shopify shipping rates could not be read')).toBeTruthy();

    const changed =
      'Your shipping rates in Shopify changed since this plan was made. Review the new plan, then confirm again.';
    gw.calls.length = 0;
    const again = fakeGateway({
      'GET /api/shipping-import': { status: 200, body: reply() },
      'POST /api/shipping-import': { status: 409, body: { status: false, message: changed } },
      '/api/shop': shop,
    });
    renderScreen(<ImportFromShopify />, '/backup', again.api);
    await user.click(screen.getAllByRole('button', { name: 'Review the import' })[1]!);
    await user.click(await screen.findByRole('button', { name: 'Confirm import' }));
    expect(await screen.findByText(changed)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Confirm import' })).toBeTruthy();
  });
});
