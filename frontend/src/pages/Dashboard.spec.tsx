import { screen, within } from '@testing-library/react';
import { fakeGateway, renderScreen } from '../test-utils';
import Dashboard from './Dashboard';

const rulesets = (active: string | null) => ({
  status: 200,
  body: {
    shop: { shop: 'a.myshopify.com', global_rule_id: active },
    globalRules: [{ id: 'r1', name: 'Summer', position: 0, filters_count: 1, active: false }],
  },
});
const settings = {
  status: 200,
  body: {
    status: true,
    message: '',
    settings: { fallback_enabled: false, fallback_name: '', fallback_cost: 0 },
  },
};

describe('the Dashboard', () => {
  it('says first when no ruleset is enabled what checkout gets, with a link to Global Rules', async () => {
    const gw = fakeGateway({
      '/api/global-rules': rulesets(null),
      '/api/settings': settings,
      '/api/product-rules': { status: 200, body: { products: { data: [] } } },
    });
    renderScreen(<Dashboard />, '/', gw.api);
    const title = await screen.findByText('No ruleset is enabled');
    const banner = title.closest('.Polaris-Banner') as HTMLElement;
    await within(banner).findByText(
      'Until a ruleset is enabled, checkout gets no Ratesmith rates.',
    );
    expect(
      within(banner).getByRole('link', { name: 'Go to Global Rules' }).getAttribute('href'),
    ).toBe('/global-rules');
  });

  it('shows no such banner while a ruleset is enabled, and says what product rules do to the fee', async () => {
    const gw = fakeGateway({ '/api/global-rules': rulesets('r1') });
    renderScreen(<Dashboard />, '/', gw.api);
    await screen.findByText(/Then each product rule runs for carts holding its product/);
    expect(document.body.textContent).toContain(
      "or sets the whole cart's fee (Set Shipping Fee, which replaces what the rules before it made)",
    );
    expect(document.body.textContent).not.toContain('product rules add to the fee');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('No ruleset is enabled')).toBeNull();
    expect(gw.calls.map((c) => c.path)).not.toContain('/api/settings');
  });
});
