import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { draftCondition, draftFilter, draftGroup } from '@ratesmith/contracts/testing';
import { CountrySelect } from './CountrySelect';
import { DraftEditor, renderWithPolaris } from './testing';

/**
 * Where focus goes in the filter editor (issue 36, point 9): an added or copied
 * rule's name, an added condition's field, and after a removal the control
 * that takes the removed one's place, never nothing.
 */
const saved = [
  draftFilter({
    id: 'f1',
    name: 'Free over 50',
    raw_query: draftGroup([draftCondition('cart_price', 'greater_or_equal', 50)]),
  }),
  draftFilter({ id: 'f2', name: 'Standard' }),
];
const rule = (n: number) => screen.getByRole('region', { name: new RegExp(`^Rule #${n}\\b`) });
const focused = () => document.activeElement;

describe('the filter editor moves focus to what a merchant edits next', () => {
  it('to an added rule’s name and to a copy’s name', async () => {
    const user = userEvent.setup();
    renderWithPolaris(<DraftEditor saved={saved} />);
    await user.click(screen.getByRole('button', { name: 'Add Rule' }));
    await waitFor(() => expect(focused()).toBe(within(rule(3)).getByLabelText('Rule name')));

    await user.click(within(rule(1)).getByRole('button', { name: 'Duplicate rule #1' }));
    await waitFor(() => expect(focused()).toBe(within(rule(2)).getByLabelText('Rule name')));
    expect((focused() as HTMLInputElement).value).toMatch(/Free over 50/);
  });

  it('to an added condition’s field, in a new group too; to Add condition after a removal', async () => {
    const user = userEvent.setup();
    renderWithPolaris(<DraftEditor saved={saved} />);
    const conditions = within(rule(1)).getByRole('region', { name: 'Conditions' });
    const rows = () => within(conditions).getAllByRole('group', { name: 'Condition' });

    await user.click(within(conditions).getByRole('button', { name: 'Add condition' }));
    await waitFor(() => expect(focused()).toBe(within(rows()[1]!).getByLabelText('Field')));

    await user.click(within(conditions).getByRole('button', { name: 'Add group' }));
    const group = within(rule(1)).getByRole('region', { name: 'Group (level 2)' });
    await waitFor(() =>
      expect(focused()).toBe(
        within(within(group).getByRole('group', { name: 'Condition' })).getByLabelText('Field'),
      ),
    );

    await user.click(within(rows()[1]!).getByRole('button', { name: 'Remove condition' }));
    await waitFor(() =>
      expect(focused()).toBe(
        within(conditions).getAllByRole('button', { name: 'Add condition' })[0],
      ),
    );
    await user.click(within(group).getByRole('button', { name: 'Remove group' }));
    expect(screen.queryByRole('region', { name: 'Group (level 2)' })).toBeNull();
    await waitFor(() =>
      expect(focused()).toBe(within(conditions).getByRole('button', { name: 'Add condition' })),
    );
  });

  it('after removing a rule, to the rule that takes its place, or to Add Rule after the last', async () => {
    const user = userEvent.setup();
    renderWithPolaris(<DraftEditor saved={saved} />);
    await user.click(within(rule(1)).getByRole('button', { name: 'Remove rule' }));
    await waitFor(() => expect(focused()).toBe(within(rule(1)).getByLabelText('Rule name')));
    expect((focused() as HTMLInputElement).value).toBe('Standard');

    await user.click(within(rule(1)).getByRole('button', { name: 'Remove rule' }));
    await waitFor(() => expect(focused()).toBe(screen.getByRole('button', { name: 'Add Rule' })));
  });
});

describe('the country select', () => {
  it('lists the country whose code was typed first (Enter picks the first option)', async () => {
    const user = userEvent.setup();
    let picked = '';
    renderWithPolaris(
      <CountrySelect label="Country" value="" onChange={(code) => (picked = code)} />,
    );
    await user.type(screen.getByLabelText('Country'), 'us');
    const options = await screen.findAllByRole('option');
    expect(options[0]!.textContent).toBe('United States (US)');
    // Names holding "us" follow, in their order.
    expect(options.slice(1, 3).map((o) => o.textContent)).toEqual([
      'Australia (AU)',
      'Austria (AT)',
    ]);
    // (Enter on it is the browser test's: jsdom has no active option.)
    await user.click(options[0]!);
    expect(picked).toBe('US');
  });
});
