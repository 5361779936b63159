import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FilterScope } from '@ratesmith/contracts/filters';
import { FilterEditor } from './FilterEditor';
import { renderWithPolaris } from './testing';
import { useFilterDraft } from './useFilterDraft';

/** The editor as the pages wire it: the draft hook's filters and its errors. */
function Editor({ scope = 'ruleset' as FilterScope, bumpEnabled = false }) {
  const draft = useFilterDraft(scope);
  return (
    <FilterEditor
      filters={draft.filters}
      onChange={draft.setFilters}
      scope={scope}
      bumpEnabled={bumpEnabled}
      errors={draft.errors}
      warnings={draft.warnings}
    />
  );
}

const errorList = () =>
  within(
    screen.getByText('Please fix the following errors:').closest('.Polaris-Banner') as HTMLElement,
  )
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('FilterEditor: the condition editor and its validation', () => {
  it('builds a filter with a nested group, listing the errors until it is complete', async () => {
    const user = userEvent.setup();
    renderWithPolaris(<Editor />);
    expect(screen.getByText('No rules found')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Add Rule' }));
    // A rule without conditions matches every cart: only its name is missing.
    expect(errorList()).toEqual(['Rule #1 needs a name']);
    expect(
      screen.getByText(/^Every cart: with no conditions this rule matches every cart/),
    ).toBeTruthy();

    await user.type(screen.getByLabelText('Rule name'), 'Canada or big carts');
    const conditions = screen.getByRole('region', { name: 'Conditions' });
    await user.click(within(conditions).getByRole('button', { name: 'Add condition' }));
    expect(errorList()).toEqual(['Rule #1 has 1 incomplete condition(s)']);

    // The country is a searchable select.
    await user.type(within(conditions).getByLabelText('Country'), 'Cana');
    await user.click(await screen.findByRole('option', { name: 'Canada (CA)' }));
    expect(screen.queryByText('Please fix the following errors:')).toBeNull();

    // A nested OR group starts with one empty condition: incomplete again.
    await user.click(within(conditions).getByRole('button', { name: 'Add group' }));
    expect(errorList()).toEqual(['Rule #1 has 1 incomplete condition(s)']);
    const group = screen.getByRole('region', { name: 'Group (level 2)' });
    const or = within(group).getByRole('button', { name: 'OR' });
    await user.click(or);
    expect(or.getAttribute('aria-pressed')).toBe('true');

    // Changing the field resets the operator to the field's first one.
    const field = within(group).getByLabelText('Field');
    await user.selectOptions(field, 'cart_price');
    await user.selectOptions(within(group).getByLabelText('Operator'), 'greater_than');
    await user.selectOptions(field, 'cart_retail_product_count');
    expect((within(group).getByLabelText('Operator') as HTMLSelectElement).value).toBe('equal');
    expect(
      within(group)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(
      expect.arrayContaining(['greater than', 'greater or equal', 'less than', 'less or equal']),
    );

    // The $X field takes a count and an amount.
    await user.selectOptions(field, 'cart_product_count_of_x_price');
    await user.type(within(group).getByLabelText('Count'), '2');
    expect(errorList()).toEqual(['Rule #1 has 1 incomplete condition(s)']);
    await user.type(within(group).getByLabelText('Amount ($X)'), '9.99');
    expect(screen.queryByText('Please fix the following errors:')).toBeNull();

    // Removing the group's only condition leaves an empty group: incomplete.
    await user.click(within(group).getByRole('button', { name: 'Remove condition' }));
    expect(errorList()).toEqual(['Rule #1 has 1 incomplete condition(s)']);
    await user.click(within(group).getByRole('button', { name: 'Remove group' }));
    expect(screen.queryByRole('region', { name: 'Group (level 2)' })).toBeNull();
    expect(screen.queryByText('Please fix the following errors:')).toBeNull();
  });

  it('reorders and removes filters', async () => {
    const user = userEvent.setup();
    renderWithPolaris(<Editor />);
    await user.click(screen.getByRole('button', { name: 'Add Rule' }));
    await user.click(screen.getByRole('button', { name: 'Add Rule' }));
    const names = screen.getAllByLabelText('Rule name');
    await user.type(names[0]!, 'First');
    await user.type(names[1]!, 'Second');
    expect(
      screen.getByRole('button', { name: 'Move rule #1 up' }).getAttribute('aria-disabled'),
    ).toBe('true');
    expect(
      screen.getByRole('button', { name: 'Move rule #2 down' }).getAttribute('aria-disabled'),
    ).toBe('true');

    await user.click(screen.getByRole('button', { name: 'Move rule #2 up' }));
    expect(screen.getAllByLabelText('Rule name').map((i) => (i as HTMLInputElement).value)).toEqual(
      ['Second', 'First'],
    );
    expect(screen.getByRole('heading', { name: 'Rule #1: Second' })).toBeTruthy();

    await user.click(
      within(screen.getByRole('region', { name: 'Rule #1' })).getByRole('button', {
        name: 'Remove rule',
      }),
    );
    expect(screen.getAllByLabelText('Rule name').map((i) => (i as HTMLInputElement).value)).toEqual(
      ['First'],
    );
  });
});
