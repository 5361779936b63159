import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '../editor/testing';
import { fakeGateway, renderScreen } from '../test-utils';
import EditGlobalRule from './EditGlobalRule';
import GlobalRules from './GlobalRules';

const rule = (id: string, name: string, active: boolean) => ({
  id,
  name,
  position: 0,
  filters_count: 0,
  active,
  created_at: '',
});
const list = (activeId: string | null, names: Record<string, string> = {}) => ({
  status: 200,
  body: {
    shop: { shop: 'a.myshopify.com', global_rule_id: activeId },
    globalRules: [
      rule('r1', names.r1 ?? 'Summer', activeId === 'r1'),
      rule('r2', names.r2 ?? 'Winter', activeId === 'r2'),
    ],
  },
});

describe('renaming a ruleset', () => {
  it('renames from the list with the name checks of Add Ruleset', async () => {
    const user = userEvent.setup();
    const gw = fakeGateway({
      '/api/global-rules': list('r1'),
      'POST /api/global-rules/r2/rename': {
        status: 200,
        body: { status: true, message: 'Ruleset renamed.', rule: rule('r2', 'Cold', false) },
      },
    });
    renderScreen(<GlobalRules />, '/global-rules', gw.api);
    await user.click(await screen.findByRole('button', { name: 'Rename Winter' }));
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByLabelText('Ruleset name') as HTMLInputElement;
    expect(field.value).toBe('Winter');
    await user.clear(field);
    await user.type(field, '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(within(dialog).getByText('Please enter a ruleset name')).toBeTruthy();
    expect(gw.calls.filter((c) => c.path.includes('rename'))).toEqual([]);

    await user.clear(field);
    await user.type(field, ' Cold ');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await screen.findByText('Cold');
    expect(gw.calls.find((c) => c.path.includes('rename'))).toMatchObject({
      method: 'POST',
      path: '/api/global-rules/r2/rename',
      body: { name: 'Cold' },
    });
    expect(screen.queryByText('Winter')).toBeNull();
  });

  it('renames from the editor title, which then shows the new name', async () => {
    const user = userEvent.setup();
    const gw = fakeGateway({
      '/api/global-rules/rules': {
        status: 200,
        body: { status: true, globalRule: rule('r1', 'Summer', true), rules: [] },
      },
      '/api/product-rules': { status: 200, body: { products: { data: [] } } },
      'POST /api/global-rules/r1/rename': {
        status: 200,
        body: { status: true, message: 'Ruleset renamed.', rule: rule('r1', 'High summer', true) },
      },
    });
    renderScreen(<EditGlobalRule />, '/edit-global-rule/r1', gw.api, '/edit-global-rule/:id');
    await screen.findByRole('heading', { name: 'Global Rules: Summer' });
    await user.click(screen.getAllByRole('button', { name: 'Rename' })[0]!);
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByLabelText('Ruleset name');
    await user.clear(field);
    await user.type(field, 'x'.repeat(200));
    expect((field as HTMLInputElement).value).toHaveLength(200);
    await user.clear(field);
    await user.type(field, 'High summer');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await screen.findByRole('heading', { name: 'Global Rules: High summer' });
    expect(gw.calls.find((c) => c.path.includes('rename'))?.body).toEqual({ name: 'High summer' });
  });
});

describe('disabling all global rules', () => {
  it('offers Disable on the enabled ruleset only, confirms, then calls its toggle and reloads', async () => {
    const user = userEvent.setup();
    const replies: Parameters<typeof fakeGateway>[0] = {
      '/api/global-rules': list('r1'),
      '/api/global-rules/r1/toggle': {
        status: 200,
        body: { status: true, message: 'Ruleset disabled.' },
      },
      // What checkout gets without a ruleset: Settings' fallback rate, no product rule.
      '/api/settings': {
        status: 200,
        body: {
          status: true,
          message: '',
          settings: { fallback_enabled: true, fallback_name: 'Standard', fallback_cost: 7.5 },
        },
      },
      '/api/product-rules': { status: 200, body: { products: { data: [] } } },
    };
    const gw = fakeGateway(replies);
    /** The calls that change something (reads are free). */
    const changes = () => gw.calls.filter((c) => c.path.endsWith('/toggle')).map((c) => c.path);
    renderScreen(<GlobalRules />, '/global-rules', gw.api);
    await user.click(await screen.findByRole('button', { name: 'Disable Summer' }));
    expect(screen.queryByRole('button', { name: 'Disable Winter' })).toBeNull();
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Disable “Summer”?')).toBeTruthy();
    expect(within(dialog).getByText('No ruleset will be enabled')).toBeTruthy();
    // The fallback's name and price, in the shop's currency once it is known (numbers alone before).
    await within(dialog).findByText(
      /^Checkout will get no Ratesmith rates\. Instead every cart will get your fallback rate “Standard” at (\$)?7\.50\.$/,
    );

    // Cancel calls nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(changes()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Disable Summer' }));
    replies['/api/global-rules'] = list(null);
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disable' }),
    );
    await screen.findByRole('button', { name: 'Disabled: enable Summer' });
    expect(screen.queryByRole('button', { name: /^Disable / })).toBeNull();
    expect(changes()).toEqual(['/api/global-rules/r1/toggle']);
    expect(gw.calls.filter((c) => c.path === '/api/global-rules')).toHaveLength(2);
    await waitFor(() =>
      expect(within(screen.getByTestId('toasts')).getByRole('status').textContent).toContain(
        'Ruleset disabled.',
      ),
    );
  });
});
