import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ConfigImportReply } from '@ratesmith/contracts/edge';
import { fakeGateway, renderScreen } from '../test-utils';
import Backup from './Backup';

/** The dry run's answer to a file whose one ruleset is disabled, in a shop where "Summer" is enabled. */
const plan = (settings: ConfigImportReply['plan']['settings']): ConfigImportReply => ({
  status: true,
  message: '',
  dry_run: true,
  applied: false,
  errors: [],
  plan: {
    rulesets: [{ name: 'Winter', action: 'add', filters_count: 2, enabled: false }],
    product_rules: [
      { product_id: '7', title: 'Mat', action: 'add', filters_count: 1, enabled: true },
    ],
    settings,
    missing_products: [],
  },
});

/** jsdom's File has no text(): the one the page reads is added. */
const file = () => {
  const json = JSON.stringify({ format: 'ratesmith-config' });
  return Object.assign(new File([json], 'shop.json', { type: 'application/json' }), {
    text: async () => json,
  });
};

function gateway(reply: ConfigImportReply) {
  return fakeGateway({
    'POST /api/config/import': { status: 200, body: reply },
    '/api/settings': {
      status: 200,
      body: {
        status: true,
        message: '',
        settings: { fallback_enabled: false, fallback_name: '', fallback_cost: 0 },
      },
    },
    // Product 7 has a rule now, disabled: the file's enabled one replaces it.
    '/api/product-rules': {
      status: 200,
      body: { products: { data: [{ product_id: '7', active: false, filters: [{}] }] } },
    },
  });
}

describe('importing a file that enables no ruleset', () => {
  it('warns before the import what checkout gets, with the fallback rate and product rules the file brings', async () => {
    const user = userEvent.setup();
    const gw = gateway(
      plan([
        { field: 'fallback_enabled', before: 'false', after: 'true' },
        { field: 'fallback_name', before: '""', after: '"Standard"' },
        { field: 'fallback_cost', before: '0', after: '7.5' },
        { field: 'enabled_ruleset', before: '"Summer"', after: 'null' },
      ]),
    );
    const { container } = renderScreen(<Backup />, '/backup', gw.api);
    await user.upload(container.querySelector('input[type=file]') as HTMLInputElement, file());
    await screen.findByText('What importing shop.json will change');
    const banner = (
      await screen.findByText('No ruleset will be enabled: the file enables none')
    ).closest('.Polaris-Banner') as HTMLElement;
    expect(
      await within(banner).findByText(
        /^Checkout will get no Ratesmith rates, except for carts that your product rule matches\. Instead every other cart will get your fallback rate “Standard” at (\$)?7\.50\.$/,
      ),
    ).toBeTruthy();
    // Said before the Confirm button, and nothing imported yet.
    expect(gw.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Confirm import' })).toBeTruthy();
  });

  it('says nothing of it when the file keeps a ruleset enabled', async () => {
    const user = userEvent.setup();
    const gw = gateway(plan([{ field: 'enabled_ruleset', before: '"Summer"', after: '"Winter"' }]));
    const { container } = renderScreen(<Backup />, '/backup', gw.api);
    await user.upload(container.querySelector('input[type=file]') as HTMLInputElement, file());
    await screen.findByText('What importing shop.json will change');
    expect(screen.queryByText(/No ruleset will be enabled/)).toBeNull();
    // The Shadow mode section reads its report on its own; of the backup, only the dry run.
    const backup = gw.calls.map((c) => c.path).filter((p) => p.startsWith('/api/config'));
    expect(backup).toEqual(['/api/config/import?dry_run=1']);
  });
});
