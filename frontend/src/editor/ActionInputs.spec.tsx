import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { ActionInputs } from './ActionInputs';
import { actionHelp, type FilterScope } from '@ratesmith/contracts/filters';
import { newFilter, type EditorFilter } from './model';
import { renderWithPolaris } from './testing';

function Inputs({ scope, bumpEnabled = false }: { scope: FilterScope; bumpEnabled?: boolean }) {
  const [filter, setFilter] = useState<EditorFilter>(newFilter());
  return (
    <ActionInputs
      filter={filter}
      scope={scope}
      bumpEnabled={bumpEnabled}
      onChange={(patch) => setFilter((f) => ({ ...f, ...patch }))}
    />
  );
}

const BLOCK_HELP = actionHelp(7, 'product');
const shown = (label: string) => screen.queryByLabelText(label) !== null;
const inputs = () => ({
  amount: shown('Amount'),
  applyTo: shown('Apply To'),
  productCost: shown('Product cost ($X)'),
  weightStep: shown('Weight step'),
});
const optionLabels = () =>
  Array.from((screen.getByLabelText('Action') as HTMLSelectElement).options).map((o) => o.text);

describe('ActionInputs: the inputs follow the action type', () => {
  it('shows Amount for 1-6, Apply To for 2-4 and 6, the product cost for 4, the step for 6, none for 7 (global scope)', async () => {
    const user = userEvent.setup();
    renderWithPolaris(<Inputs scope="ruleset" />);
    expect(optionLabels()).toEqual([
      'Make Shipping Free',
      'Add Single Shipping Fee',
      'Add Shipping Fee For Each Retail Product',
      'Add Shipping Fee For Each Free Product',
      'Add Shipping Fee For Each Product Costing $X',
      'Set Shipping Fee',
      'Add Shipping Fee For Each Weight Step',
      'Block Shipping',
    ]);
    const expected: Record<string, ReturnType<typeof inputs>> = {
      '0': { amount: false, applyTo: false, productCost: false, weightStep: false },
      '1': { amount: true, applyTo: false, productCost: false, weightStep: false },
      '2': { amount: true, applyTo: true, productCost: false, weightStep: false },
      '3': { amount: true, applyTo: true, productCost: false, weightStep: false },
      '4': { amount: true, applyTo: true, productCost: true, weightStep: false },
      '5': { amount: true, applyTo: false, productCost: false, weightStep: false },
      '6': { amount: true, applyTo: true, productCost: false, weightStep: true },
      '7': { amount: false, applyTo: false, productCost: false, weightStep: false },
    };
    for (const [type, want] of Object.entries(expected)) {
      await user.selectOptions(screen.getByLabelText('Action'), type);
      expect({ type, ...inputs() }).toEqual({ type, ...want });
    }
  });

  it('has no Apply To in a product rule, whose free action is per item', async () => {
    const user = userEvent.setup();
    renderWithPolaris(<Inputs scope="product" />);
    expect(optionLabels()[0]).toBe('Make Shipping Free For This Item');
    await user.selectOptions(screen.getByLabelText('Action'), '4');
    expect(inputs()).toEqual({
      amount: true,
      applyTo: false,
      productCost: true,
      weightStep: false,
    });
    await user.selectOptions(screen.getByLabelText('Action'), '6');
    expect(inputs()).toEqual({
      amount: true,
      applyTo: false,
      productCost: false,
      weightStep: true,
    });
    // The step's unit starts as the shop's (kg unless told) and can be changed.
    const unit = screen.getByLabelText('Weight step unit') as HTMLSelectElement;
    expect(unit.value).toBe('kg');
    await user.selectOptions(unit, 'lb');
    expect(unit.value).toBe('lb');
    expect(screen.getByRole('option', { name: 'Stop processing this product rule' })).toBeTruthy();
  });

  it('shows the override texts for Yes, with the bump ones disabled unless bump shipping is on', async () => {
    const user = userEvent.setup();
    const { unmount } = renderWithPolaris(<Inputs scope="ruleset" />);
    expect(shown('Shipping name')).toBe(false);
    await user.selectOptions(
      screen.getByLabelText('Override shipping name and description'),
      'Yes',
    );
    expect((screen.getByLabelText('Shipping name') as HTMLInputElement).disabled).toBe(false);
    expect((screen.getByLabelText('Bump shipping name') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('Bump shipping description') as HTMLInputElement).disabled).toBe(
      true,
    );
    unmount();

    renderWithPolaris(<Inputs scope="ruleset" bumpEnabled />);
    await user.selectOptions(
      screen.getByLabelText('Override shipping name and description'),
      'Yes',
    );
    expect((screen.getByLabelText('Bump shipping name') as HTMLInputElement).disabled).toBe(false);
  });

  it("shows the override's delivery window next to its texts, only for Yes", async () => {
    const user = userEvent.setup();
    renderWithPolaris(<Inputs scope="ruleset" />);
    expect(shown('Delivery window: fewest business days')).toBe(false);
    await user.selectOptions(
      screen.getByLabelText('Override shipping name and description'),
      'Yes',
    );
    const fewest = screen.getByLabelText('Delivery window: fewest business days');
    await user.type(fewest, '2');
    await user.type(screen.getByLabelText('Delivery window: most business days'), '4');
    expect((fewest as HTMLInputElement).value).toBe('2');
    expect(
      (screen.getByLabelText('Delivery window: most business days') as HTMLInputElement).value,
    ).toBe('4');
  });

  it('says what Block Shipping does, with no override and no choice after a match', async () => {
    const user = userEvent.setup();
    renderWithPolaris(<Inputs scope="product" />);
    await user.selectOptions(
      screen.getByLabelText('Override shipping name and description'),
      'Yes',
    );
    expect(shown('Shipping name')).toBe(true);
    await user.selectOptions(screen.getByLabelText('Action'), '7');
    expect(screen.getByText(BLOCK_HELP)).toBeTruthy();
    expect(shown('Override shipping name and description')).toBe(false);
    expect(shown('After this rule matches')).toBe(false);
    expect(shown('Shipping name')).toBe(false);
    await user.selectOptions(screen.getByLabelText('Action'), '1');
    expect(screen.queryByText(BLOCK_HELP)).toBeNull();
    expect(shown('After this rule matches')).toBe(true);
  });

  it("says under the action what it does to the cart's fee, in the ruleset's words or the product rule's", async () => {
    const user = userEvent.setup();
    /** The Action select's help, as a screen reader reads it (its description). */
    const help = () => {
      const ids = screen.getByLabelText('Action').getAttribute('aria-describedby') ?? '';
      return ids
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ');
    };
    const { unmount } = renderWithPolaris(<Inputs scope="product" />);
    await user.selectOptions(screen.getByLabelText('Action'), '5');
    // A product rule's Set Shipping Fee sets the whole cart's fee (docs/rates.md, type 5).
    expect(help()).toBe(
      "Sets the whole cart's shipping to the amount, not only this product's part: it replaces what the ruleset and the rules before it made. To charge for this product on top, choose an Add action.",
    );
    await user.selectOptions(screen.getByLabelText('Action'), '1');
    expect(help()).toBe(
      "Adds the amount to the cart's shipping once, however many of this product the cart holds.",
    );
    await user.selectOptions(screen.getByLabelText('Action'), '0');
    expect(help()).toContain("the cart's shipping is cut by this product's share");
    unmount();

    renderWithPolaris(<Inputs scope="ruleset" />);
    await user.selectOptions(screen.getByLabelText('Action'), '5');
    expect(help()).toBe(
      "Sets the cart's shipping to the amount, replacing what the rules before it made; rules after it and product rules can still change it.",
    );
    await user.selectOptions(screen.getByLabelText('Action'), '2');
    expect(help()).toBe(
      'Adds the amount for each retail item (priced above 0) of the cart (with Apply To, only of products without a product rule).',
    );
    // Every action of both scopes has its words.
    for (const scope of ['ruleset', 'product'] as const)
      for (const type of [0, 1, 2, 3, 4, 5, 6, 7]) expect(actionHelp(type, scope)).not.toBe('');
  });

  it('chooses stop or continue after a match', async () => {
    const user = userEvent.setup();
    renderWithPolaris(<Inputs scope="ruleset" />);
    const next = screen.getByLabelText('After this rule matches') as HTMLSelectElement;
    expect(next.selectedOptions[0]?.text).toBe('Stop processing this ruleset');
    await user.selectOptions(next, '1');
    expect(next.selectedOptions[0]?.text).toBe('Continue to the next rule');
  });
});
