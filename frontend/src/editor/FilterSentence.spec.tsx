import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describeFilter } from '@ratesmith/contracts/filters';
import { draftCondition, draftFilter, draftGroup } from '@ratesmith/contracts/testing';
import { fakeGateway, renderScreen } from '../test-utils';
import * as Format from './sentenceFormat';
import { regionTable } from '../data/region-table';
// Also fills the layout gaps of jsdom, so the country list opens.
import { DraftEditor } from './testing';

const shop = (currency_code: string) =>
  fakeGateway({
    '/api/shop': {
      status: 200,
      body: { status: true, shop: { shop: 'a.myshopify.com', currency_code, money_format: '' } },
    },
  }).api;
const rule = (n: number) => screen.getByRole('region', { name: `Rule #${n}` });
/** The sentence under a rule's title. */
const sentence = (n: number) => rule(n).querySelector('[data-rule-sentence]')?.textContent;

describe("each rule's sentence under its title", () => {
  it('follows the merchant as they type, in the shop currency', async () => {
    const user = userEvent.setup();
    renderScreen(<DraftEditor />, '/', shop('USD'));
    await user.click(await screen.findByRole('button', { name: 'Add Rule' }));
    expect(sentence(1)).toBe(
      "For every cart → make the cart's shipping free, replacing what the rules before it made, then stop.",
    );

    const conditions = within(rule(1)).getByRole('region', { name: 'Conditions' });
    await user.click(within(conditions).getByRole('button', { name: 'Add condition' }));
    expect(sentence(1)).toBe(
      "If shipping to … → make the cart's shipping free, replacing what the rules before it made, then stop.",
    );
    await user.type(within(conditions).getByLabelText('Country'), 'Cana');
    await user.click(await screen.findByRole('option', { name: 'Canada (CA)' }));
    expect(sentence(1)).toBe(
      "If shipping to Canada → make the cart's shipping free, replacing what the rules before it made, then stop.",
    );

    // A second condition, typed key by key: the sentence has each step.
    await user.click(within(conditions).getByRole('button', { name: 'Add condition' }));
    const second = within(conditions).getAllByRole('group', { name: 'Condition' })[1]!;
    await user.selectOptions(within(second).getByLabelText('Field'), 'cart_price');
    await user.selectOptions(within(second).getByLabelText('Operator'), 'greater_or_equal');
    expect(sentence(1)).toBe(
      "If shipping to Canada and the cart is at least … → make the cart's shipping free, replacing what the rules before it made, then stop.",
    );
    // The shop's currency has loaded once the amount shows its sign.
    await waitFor(() => expect(second.textContent).toContain('$'), { timeout: 5_000 });
    await user.type(within(second).getByLabelText('Amount'), '2');
    expect(sentence(1)).toBe(
      "If shipping to Canada and the cart is at least $2.00 → make the cart's shipping free, replacing what the rules before it made, then stop.",
    );
    await user.type(within(second).getByLabelText('Amount'), '00');
    expect(sentence(1)).toBe(
      "If shipping to Canada and the cart is at least $200.00 → make the cart's shipping free, replacing what the rules before it made, then stop.",
    );
  });

  it("reads a product rule's action for its product", async () => {
    renderScreen(
      <DraftEditor
        saved={[draftFilter({ id: 'p', action_type: 2, action_data: 3 })]}
        scope="product"
      />,
      '/',
      shop('EUR'),
    );
    await waitFor(
      () =>
        expect(sentence(1)).toBe(
          'If the cart is less than €50.00 → add €3.00 per retail item of this product, then stop.',
        ),
      { timeout: 5_000 },
    );
  });

  it('is made again only for the edited rule', async () => {
    const user = userEvent.setup();
    const saved = ['North', 'South', 'East'].map((name, i) =>
      draftFilter({
        id: `f${i + 1}`,
        name,
        raw_query: draftGroup([
          draftCondition('cart_weight', 'less_than', { amount: i + 1, unit: 'kg' }),
        ]),
      }),
    );
    renderScreen(<DraftEditor saved={saved} />, '/', shop('USD'));
    await waitFor(() => expect(sentence(3)).toContain('$4.99'), { timeout: 5_000 });
    const made = jest.spyOn(Format, 'sentenceFormat');
    await user.type(within(rule(3)).getByLabelText('Rule name'), '!');
    // One key, one sentence made: rule #3's.
    expect(made).toHaveBeenCalledTimes(1);
    made.mockRestore();

    const amount = within(rule(3)).getByLabelText('Amount');
    await user.clear(amount);
    await user.type(amount, '41');
    expect(sentence(1)).toBe('If the cart weighs less than 1 kg → add $4.99, then stop.');
    expect(sentence(3)).toBe('If the cart weighs less than 3 kg → add $41.00, then stop.');
  });

  it("names a saved rule's region once the region table has loaded", async () => {
    const saved = [
      draftFilter({
        id: 'ny',
        name: 'Not New York',
        raw_query: draftGroup([draftCondition('shipping_region', 'not_equal', 'US-NY')]),
      }),
    ];
    renderScreen(<DraftEditor saved={saved} />, '/', shop('USD'));
    await waitFor(() =>
      expect(sentence(1)).toBe('If not shipping to New York → add $4.99, then stop.'),
    );
  });

  it("writes amounts, weights and places in the admin's language and the shop's currency", () => {
    const filter = draftFilter({
      raw_query: draftGroup([
        draftCondition('shipping_country', 'equal', 'CA'),
        draftCondition('shipping_region', 'not_equal', 'US-NY'),
        draftCondition('cart_weight', 'less_than', { amount: 2.5, unit: 'lb' }),
      ]),
    });
    const nbsp = /\u00a0/g;
    expect(
      describeFilter(filter, Format.sentenceFormat('EUR', regionTable, 'de-DE')).replace(nbsp, ' '),
    ).toBe(
      'If shipping to Canada, not shipping to New York and the cart weighs less than 2,5 lb → add 4,99 €, then stop.',
    );
    // The currency not known yet: the amount without a sign.
    expect(describeFilter(filter, Format.sentenceFormat(null, regionTable, 'en-US'))).toBe(
      'If shipping to Canada, not shipping to New York and the cart weighs less than 2.5 lb → add 4.99, then stop.',
    );
    // The region table still loading: the region's code.
    expect(describeFilter(filter, Format.sentenceFormat(null, undefined, 'en-US'))).toBe(
      'If shipping to Canada, not shipping to US-NY and the cart weighs less than 2.5 lb → add 4.99, then stop.',
    );
  });
});
