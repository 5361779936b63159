import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { conditionsHint, FIELDS } from '@ratesmith/contracts/filters';
import { DraftEditor, renderWithPolaris } from './testing';

/** A product rule's conditions say they count the whole cart, so no one expects "two of this product". */
describe('what the conditions count', () => {
  it('labels every field after the cart and says so once above a product rule’s conditions', async () => {
    const user = userEvent.setup();
    renderWithPolaris(<DraftEditor scope="product" />);
    await user.click(screen.getByRole('button', { name: 'Add Rule' }));
    const conditions = screen.getByRole('region', { name: 'Conditions' });
    await user.click(within(conditions).getByRole('button', { name: 'Add condition' }));
    const hint = conditionsHint('product')!;
    expect(hint).toMatch(/whole cart/);
    expect(screen.getByText(hint)).toBeTruthy();
    const options = within(within(conditions).getByLabelText('Field'))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual([
      'Shipping Country',
      'Cart Price',
      'Cart Retail Product Count',
      'Cart Free Product Count',
      'Cart Product Count of $X Price',
      'Cart Weight',
      'Shipping State/Province',
      'Shipping Postal Code',
      // Item conditions look at every line of the cart too.
      'Product Vendor',
      'Product Type',
      'Product Tag',
      'Variant SKU',
    ]);
    expect(options).toEqual(FIELDS.map((field) => field.label));
  });

  it('adds no hint in a ruleset, whose rules are about the cart anyway', async () => {
    const user = userEvent.setup();
    renderWithPolaris(<DraftEditor scope="ruleset" />);
    await user.click(screen.getByRole('button', { name: 'Add Rule' }));
    expect(conditionsHint('ruleset')).toBeUndefined();
    expect(screen.queryByText(/whole cart/)).toBeNull();
  });
});
