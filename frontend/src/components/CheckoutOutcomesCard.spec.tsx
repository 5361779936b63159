import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CheckoutOutcomesReply } from '../api';
import { fakeGateway, renderScreen } from '../test-utils';
import { useRulesets } from '../global-rules/useRulesets';
import { CheckoutOutcomesCard } from './CheckoutOutcomesCard';

/** As the Dashboard shows it, with its read of the rulesets. */
function Card() {
  return <CheckoutOutcomesCard rulesets={useRulesets()} />;
}

const CART = {
  outcome: 'fallback' as const,
  at: '2026-11-24T10:00:00.000Z',
  country: 'CA',
  currency: 'USD',
  lines: [{ product_id: '48447225880', variant_id: '2', quantity: 2, price: 2500, grams: 1000 }],
};
const outcomes = (over: Partial<CheckoutOutcomesReply> = {}) => ({
  status: 200,
  body: {
    status: true,
    message: '',
    days: 7,
    fallback: 12,
    no_rate: 0,
    blocked: 0,
    fallback_enabled: true,
    carts: [CART],
    ...over,
  },
});
const rulesets = (active: string | null) => ({
  status: 200,
  body: { shop: { shop: 'a.myshopify.com', global_rule_id: active }, globalRules: [] },
});

const card = () => screen.findByRole('region', { name: 'Checkouts your rules missed' });

describe('the checkouts card', () => {
  it('counts the fallback checkouts and links to the enabled ruleset’s preview with the cart', async () => {
    const gw = fakeGateway({
      '/api/checkout-outcomes': outcomes(),
      '/api/global-rules': rulesets('r1'),
    });
    renderScreen(<Card />, '/', gw.api);
    const region = await card();
    expect(
      await within(region).findByText(/12 checkouts in the last 7 days got the fallback rate/),
    ).toBeTruthy();
    const link = within(region).getByRole('link', { name: 'see which carts' });
    expect(link.getAttribute('href')).toBe(
      '/edit-global-rule/r1?country=CA&currency=USD&line=2500_2_1000_48447225880',
    );
    expect(within(region).getByText('To CA, 2 items, $50.00')).toBeTruthy();
    expect(
      within(region).getByRole('link', { name: 'Preview cart 1: To CA, 2 items, $50.00' }),
    ).toBeTruthy();
    // Nothing said about no rate when there was none.
    expect(within(region).queryByText(/no rate from Ratesmith/)).toBeNull();
  });

  it('does not count checkouts a Block Shipping rule answered as missed', async () => {
    const gw = fakeGateway({
      '/api/checkout-outcomes': outcomes({
        fallback: 0,
        no_rate: 5,
        blocked: 3,
        fallback_enabled: false,
        carts: [],
      }),
      '/api/global-rules': rulesets('r1'),
    });
    renderScreen(<Card />, '/', gw.api);
    const region = await card();
    expect(
      await within(region).findByText(/^2 checkouts in the last 7 days got no rate from Ratesmith/),
    ).toBeTruthy();
    expect(
      within(region).getByText(
        '3 checkouts in the last 7 days got no rate because a Block Shipping rule matched, as your rules say.',
      ),
    ).toBeTruthy();
  });

  it('says nothing was missed when every no-rate checkout was blocked on purpose', async () => {
    const gw = fakeGateway({
      '/api/checkout-outcomes': outcomes({ fallback: 0, no_rate: 1, blocked: 1, carts: [] }),
      '/api/global-rules': rulesets('r1'),
    });
    renderScreen(<Card />, '/', gw.api);
    const region = await card();
    expect(
      await within(region).findByText(
        'No checkout in the last 7 days got the fallback rate or no rate: your rules matched every cart they were meant for.',
      ),
    ).toBeTruthy();
    expect(
      within(region).getByText(/^1 checkout in the last 7 days got no rate because/),
    ).toBeTruthy();
  });

  it('says when nothing was missed', async () => {
    const gw = fakeGateway({
      '/api/checkout-outcomes': outcomes({ fallback: 0, carts: [] }),
      '/api/global-rules': rulesets('r1'),
    });
    renderScreen(<Card />, '/', gw.api);
    expect(
      await within(await card()).findByText(
        'No checkout in the last 7 days got the fallback rate or no rate: your rules matched every cart.',
      ),
    ).toBeTruthy();
  });

  it('does not say rules matched when no ruleset is enabled, and links to Global Rules', async () => {
    const gw = fakeGateway({
      '/api/checkout-outcomes': outcomes({ fallback: 0, carts: [] }),
      '/api/global-rules': rulesets(null),
    });
    renderScreen(<Card />, '/', gw.api);
    const region = await card();
    await within(region).findByRole('link', { name: 'Enable a ruleset' });
    expect(region.textContent).toContain(
      'No checkout in the last 7 days got the fallback rate or no rate, but no ruleset is enabled now. Enable a ruleset so that its rules price your carts.',
    );
    expect(region.textContent).not.toContain('matched');
    expect(
      within(region).getByRole('link', { name: 'Enable a ruleset' }).getAttribute('href'),
    ).toBe('/global-rules');
  });

  it('counts no-rate checkouts, points to the fallback setting, and asks for a ruleset when none is enabled', async () => {
    const gw = fakeGateway({
      '/api/checkout-outcomes': outcomes({
        fallback: 0,
        no_rate: 1,
        fallback_enabled: false,
        carts: [{ ...CART, outcome: 'no_rate' }],
      }),
      '/api/global-rules': rulesets(null),
    });
    renderScreen(<Card />, '/', gw.api);
    const region = await card();
    expect(
      await within(region).findByText('1 checkout in the last 7 days got no rate from Ratesmith'),
    ).toBeTruthy();
    expect(within(region).queryByRole('link', { name: 'see which carts' })).toBeNull();
    expect(
      within(region).getByRole('link', { name: 'fallback rate in Settings' }).getAttribute('href'),
    ).toBe('/settings');
    expect(
      within(region).getByRole('link', { name: 'Enable a ruleset' }).getAttribute('href'),
    ).toBe('/global-rules');
  });

  it('shows the loading state, then the server’s error with Retry', async () => {
    const gw = fakeGateway({
      '/api/checkout-outcomes': {
        status: 503,
        body: { status: false, message: 'Rules are down.' },
      },
      '/api/global-rules': rulesets('r1'),
    });
    renderScreen(<Card />, '/', gw.api);
    expect(screen.getByText('Loading checkouts…')).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toContain('Rules are down.');
    gw.calls.length = 0;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(gw.calls.map((c) => c.path)).toContain('/api/checkout-outcomes');
  });
});
