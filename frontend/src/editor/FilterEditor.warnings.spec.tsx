import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  draftCondition as condition,
  draftFilter,
  draftGroup as group,
} from '@ratesmith/contracts/testing';
import * as Conditions from './ConditionEditor';
import { DraftEditor, renderWithPolaris } from './testing';
import type { FilterDraftState } from './useFilterDraft';

const priceRule = (id: string, name: string, operator: string, value: string) =>
  draftFilter({
    id,
    name,
    raw_query: group([
      condition('shipping_country', 'not_equal', 'AQ'),
      condition('cart_price', operator, value),
    ]),
  });

/** Below 50 and above 50: a cart of exactly 50 gets neither. */
const saved = [
  priceRule('small', 'Small carts', 'less_than', '50'),
  priceRule('big', 'Big carts', 'greater_than', '50'),
];
const GAP =
  'Warning: A Cart Price of exactly 50 matches neither this rule (“Cart Price greater than 50”) nor Rule #1 (“Cart Price less than 50”): did you mean “or equal”?';

const rule = (n: number) => screen.getByRole('region', { name: `Rule #${n}` });
const warningsOf = (n: number) =>
  within(rule(n))
    .queryAllByRole('listitem')
    .filter((item) => item.closest('ul')?.getAttribute('aria-label') === `Warnings for rule #${n}`)
    .map((item) => item.textContent);

describe('FilterEditor: warnings that never block', () => {
  it('shows the sentence next to the rule it concerns, updated as the merchant types', async () => {
    const user = userEvent.setup();
    const drafts: FilterDraftState[] = [];
    renderWithPolaris(<DraftEditor saved={saved} seen={(d) => drafts.push(d)} />);
    expect(warningsOf(1)).toEqual([]);
    expect(warningsOf(2)).toEqual([GAP]);
    // A warning is not an error: nothing stands between the merchant and Save All.
    expect(drafts.at(-1)!.errors).toEqual([]);
    expect(screen.queryByText('Please fix the following errors:')).toBeNull();

    // "or equal" closes the gap: the warning goes as the operator changes.
    const second = within(rule(2));
    await user.selectOptions(second.getAllByLabelText('Operator')[1]!, 'greater_or_equal');
    expect(warningsOf(2)).toEqual([]);

    // A fee typed in cents: the warning is the edited rule's own.
    const fee = second.getAllByLabelText('Amount', { exact: true }).at(-1)!;
    await user.clear(fee);
    await user.type(fee, '4999');
    expect(warningsOf(2)).toEqual([
      'Warning: The fee 4999 looks like an amount in cents: fees are typed in currency units (49.99, not 4999).',
    ]);
    expect(warningsOf(1)).toEqual([]);
  });

  it('keeps a card that only shows the same warning from rendering again', async () => {
    const user = userEvent.setup();
    const drafts: FilterDraftState[] = [];
    renderWithPolaris(<DraftEditor saved={saved} seen={(d) => drafts.push(d)} />);
    const before = drafts.at(-1)!.warnings.get('big');
    const renders = jest.spyOn(Conditions, 'ConditionEditor');
    await user.type(within(rule(1)).getByLabelText('Rule name'), '!');
    // The key re-lints the list, yet rule #2's sentence is the same array: only rule #1 renders.
    expect(renders).toHaveBeenCalledTimes(1);
    renders.mockRestore();
    expect(drafts.at(-1)!.warnings.get('big')).toBe(before);
    expect(warningsOf(2)).toEqual([GAP]);
  });

  it('shows a warning on a collapsed card and in a product rule', async () => {
    const user = userEvent.setup();
    renderWithPolaris(
      <DraftEditor
        scope="product"
        saved={[
          draftFilter({
            id: 'us',
            name: 'US only',
            raw_query: group([condition('shipping_country', 'equal', 'US')]),
          }),
        ]}
      />,
    );
    const only =
      "Warning: Only carts to US match a rule: every rule names its countries, so carts to any other country get nothing from this product's rules.";
    expect(warningsOf(1)).toEqual([only]);
    await user.click(screen.getByRole('button', { name: 'Collapse rule #1' }));
    expect(warningsOf(1)).toEqual([only]);
  });
});
