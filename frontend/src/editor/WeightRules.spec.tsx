import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FilterEditor } from './FilterEditor';
import { filterFromWire, filterToWire, newCondition, newFilter } from './model';
import { renderWithPolaris } from './testing';
import { setOperator } from './tree';
import { useFilterDraft } from './useFilterDraft';

/** The editor with what Save All would send shown beside it. */
function Editor() {
  const draft = useFilterDraft('ruleset');
  return (
    <>
      <FilterEditor
        filters={draft.filters}
        onChange={draft.setFilters}
        scope="ruleset"
        bumpEnabled={false}
        errors={draft.errors}
        warnings={draft.warnings}
      />
      <output data-testid="wire">{JSON.stringify(draft.wire)}</output>
      <output data-testid="errors">{JSON.stringify(draft.errors)}</output>
    </>
  );
}

const wire = () => JSON.parse(screen.getByTestId('wire').textContent!)[0];
const errors = () => JSON.parse(screen.getByTestId('errors').textContent!) as string[];

describe('the weight, state/province and postal-code conditions in the editor', () => {
  it('builds each new field and action 6, with the shared messages until complete', async () => {
    const user = userEvent.setup();
    renderWithPolaris(<Editor />);
    await user.click(screen.getByRole('button', { name: 'Add Rule' }));
    await user.type(screen.getByLabelText('Rule name'), 'Heavy to California');
    const conditions = screen.getByRole('region', { name: 'Conditions' });
    const add = () => user.click(within(conditions).getByRole('button', { name: 'Add condition' }));
    const rows = () => within(conditions).getAllByRole('group', { name: 'Condition' });

    // Cart weight over 1.5 lb.
    await add();
    await user.selectOptions(within(rows()[0]!).getByLabelText('Field'), 'cart_weight');
    await user.selectOptions(within(rows()[0]!).getByLabelText('Operator'), 'greater_than');
    await user.type(within(rows()[0]!).getByLabelText('Weight'), '1.5');
    await user.selectOptions(within(rows()[0]!).getByLabelText('Weight unit'), 'lb');

    // California: the province list follows the country.
    await add();
    await user.selectOptions(within(rows()[1]!).getByLabelText('Field'), 'shipping_region');
    expect(errors()).toContain('Rule #1 has 1 incomplete condition(s)');
    await user.selectOptions(within(rows()[1]!).getByLabelText('State or province country'), 'CA');
    expect(within(rows()[1]!).getByRole('option', { name: 'Ontario (CA-ON)' })).toBeTruthy();
    await user.selectOptions(within(rows()[1]!).getByLabelText('State or province country'), 'US');
    await user.selectOptions(within(rows()[1]!).getByLabelText('State or province'), 'US-CA');

    // Postal codes 90000 to 96199; a range the wrong way round is refused first.
    await add();
    await user.selectOptions(within(rows()[2]!).getByLabelText('Field'), 'shipping_postal_code');
    await user.selectOptions(within(rows()[2]!).getByLabelText('Operator'), 'between');
    await user.type(within(rows()[2]!).getByLabelText('Postal code from'), '96199');
    await user.type(within(rows()[2]!).getByLabelText('Postal code to'), '90000');
    expect(errors()).toContain(
      'Rule #1: Shipping Postal Code between needs two postal codes of 1 to 10 letters or digits, of the same length, the first not after the second',
    );
    await user.clear(within(rows()[2]!).getByLabelText('Postal code from'));
    await user.type(within(rows()[2]!).getByLabelText('Postal code from'), '90000');
    await user.clear(within(rows()[2]!).getByLabelText('Postal code to'));
    await user.type(within(rows()[2]!).getByLabelText('Postal code to'), '96199');

    // Action 6: 2.00 per started kilogram.
    await user.selectOptions(screen.getByLabelText('Action'), '6');
    await user.type(screen.getByLabelText('Amount'), '2');
    expect(errors()).toEqual(['Rule #1 needs a weight step']);
    await user.type(screen.getByLabelText('Weight step'), '0.001');
    await user.selectOptions(screen.getByLabelText('Weight step unit'), 'lb');
    expect(errors()).toEqual(['Rule #1 weight step must be at least 1 g']);
    await user.selectOptions(screen.getByLabelText('Weight step unit'), 'kg');
    await user.clear(screen.getByLabelText('Weight step'));
    await user.type(screen.getByLabelText('Weight step'), '1');

    expect(errors()).toEqual([]);
    const sent = wire();
    expect(
      sent.raw_query.rules.map((r: { field: string; operator: string; value: unknown }) => [
        r.field,
        r.operator,
        r.value,
      ]),
    ).toEqual([
      ['cart_weight', 'greater_than', { amount: 1.5, unit: 'lb' }],
      ['shipping_region', 'equal', 'US-CA'],
      ['shipping_postal_code', 'between', { from: '90000', to: '96199' }],
    ]);
    expect(sent).toMatchObject({
      action_type: 6,
      action_data: 2,
      action_weight_step: { amount: 1, unit: 'kg' },
    });
  });
});

describe('the editor model of the new values', () => {
  it('round-trips weights, regions, postal codes and the weight step', () => {
    const filter = {
      ...newFilter(),
      action_type: 6,
      action_data: '1',
      action_weight_step: { amount: '0.5', unit: 'oz' },
      raw_query: {
        ...newFilter().raw_query,
        rules: [
          {
            ...newCondition(),
            field: 'cart_weight',
            operator: 'equal',
            value: { amount: '2', unit: 'g' },
          },
          { ...newCondition(), field: 'shipping_region', operator: 'equal', value: ' us-ny ' },
          {
            ...newCondition(),
            field: 'shipping_postal_code',
            operator: 'starts_with',
            value: ' k2p ',
          },
          {
            ...newCondition(),
            field: 'shipping_postal_code',
            operator: 'between',
            value: { from: 'K0A', to: 'K9Z' },
          },
        ],
      },
    };
    const sent = filterToWire(filter);
    expect(sent.raw_query.rules.map((r) => (r as { value: unknown }).value)).toEqual([
      { amount: 2, unit: 'g' },
      'US-NY',
      'k2p',
      { from: 'K0A', to: 'K9Z' },
    ]);
    expect(sent.action_weight_step).toEqual({ amount: 0.5, unit: 'oz' });
    const back = filterFromWire(sent);
    expect(back.action_weight_step).toEqual({ amount: '0.5', unit: 'oz' });
    expect(back.raw_query.rules.map((r) => (r as { value: unknown }).value)).toEqual([
      { amount: '2', unit: 'g' },
      'US-NY',
      'k2p',
      { from: 'K0A', to: 'K9Z' },
    ]);
    // Other actions send no step.
    expect(filterToWire({ ...filter, action_type: 1 }).action_weight_step).toBeUndefined();
  });

  it('gives a postal code two bounds for between and one code otherwise', () => {
    const condition = {
      ...newCondition(),
      field: 'shipping_postal_code',
      operator: 'equal',
      value: '90210',
    };
    const root = { ...newFilter().raw_query, rules: [condition] };
    const between = setOperator(root, condition.id, 'between');
    expect(between.rules[0]).toMatchObject({ value: { from: '', to: '' } });
    const prefix = setOperator(between, condition.id, 'starts_with');
    expect(prefix.rules[0]).toMatchObject({ value: '' });
    // equal -> starts_with keeps what was typed.
    expect(setOperator(root, condition.id, 'starts_with').rules[0]).toMatchObject({
      value: '90210',
    });
  });
});
