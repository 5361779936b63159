import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { ListInput, splitValues } from './ListInput';
import { renderWithPolaris } from './testing';

function Harness({ start = [] as string[] }) {
  const [values, setValues] = useState(start);
  return (
    <>
      <ListInput
        label="Postal codes"
        placeholder="e.g. 99501, 99502"
        values={values}
        onChange={setValues}
      />
      <output data-testid="values">{JSON.stringify(values)}</output>
    </>
  );
}

const values = () => JSON.parse(screen.getByTestId('values').textContent!) as string[];

describe('ListInput: a list operator takes its values as chips', () => {
  it('splits on commas, semicolons and new lines, never on spaces', () => {
    expect(splitValues(' 99501, 99502;96801\nK2P 1L4\r\n, ')).toEqual([
      '99501',
      '99502',
      '96801',
      'K2P 1L4',
    ]);
  });

  it('turns a typed comma into a chip, and never joins values into one', async () => {
    const user = userEvent.setup();
    renderWithPolaris(<Harness />);
    const field = screen.getByLabelText('Postal codes');
    await user.type(field, '99501, 99502, 96801');
    // The last value is still being typed until a comma, Enter or leaving the field.
    expect(values()).toEqual(['99501', '99502']);
    expect((field as HTMLInputElement).value).toBe(' 96801');
    await user.keyboard('{Enter}');
    expect(values()).toEqual(['99501', '99502', '96801']);
    expect(screen.getByText('3 of 500. A comma or a new line adds a value.')).toBeTruthy();
    await user.type(field, '99501{Enter}');
    expect(values()).toEqual(['99501', '99502', '96801']);
  });

  it('takes a pasted column of codes as one value a line', () => {
    renderWithPolaris(<Harness start={['10001']} />);
    const field = screen.getByLabelText('Postal codes');
    fireEvent.paste(field, { clipboardData: { getData: () => '99501\n99502\r\n96801\n' } });
    expect(values()).toEqual(['10001', '99501', '99502', '96801']);
  });

  it('removes a value with its chip, and adds what is typed on leaving the field', async () => {
    const user = userEvent.setup();
    renderWithPolaris(<Harness start={['99501', '99502']} />);
    await user.click(screen.getByRole('button', { name: 'Remove 99501' }));
    expect(values()).toEqual(['99502']);
    await user.type(screen.getByLabelText('Postal codes'), 'K2P 1L4');
    await user.tab();
    expect(values()).toEqual(['99502', 'K2P 1L4']);
  });
});
